/// Median of `values` (mean of the middle two for an even count); `nil` when empty.
///
/// TapMatching depends on nothing, so it carries the two robust statistics it needs.
func median(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : 0.5 * (sorted[mid - 1] + sorted[mid])
}

/// Robust SD estimate: 1.4826 × the median absolute deviation about the median
/// (consistent with the SD for Gaussian data; Rousseeuw & Croux 1993).
func scaledMAD(_ values: [Double], center: Double) -> Double {
    median(values.map { abs($0 - center) }).map { 1.4826 * $0 } ?? 0
}
