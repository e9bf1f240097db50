/// A rule that marks values as outliers.
public enum OutlierRule: Sendable, Equatable {
    /// Tukey's fences (Tukey 1977, *Exploratory Data Analysis*): a value is an outlier when it
    /// lies strictly below Q1 − k·IQR or strictly above Q3 + k·IQR. Quartiles are type 7
    /// (``quantile(_:_:)``), as in R's `quantile`, not Tukey's hinges. With IQR = 0 every value
    /// outside [Q1, Q3] is flagged, which is what the fences literally say. k = 3 gives "far out".
    case tukey(k: Double = 1.5)
    /// The modified z-score of Iglewicz & Hoaglin (1993, *How to Detect and Handle Outliers*,
    /// ASQC): Mᵢ = 0.6745 (xᵢ − median)/MAD, outlier when |Mᵢ| > threshold.
    ///
    /// When more than half of the values tie, MAD = 0 and Mᵢ would be infinite for every
    /// other value. Rather than flag all of those, the scale falls back to the mean absolute
    /// deviation from the median times √(π/2) ≈ 1.2533 (consistent for normal data, like
    /// MAD/0.6745): Mᵢ = (xᵢ − median)/(1.2533 · meanAD). If that is 0 too, all values are
    /// equal and none is flagged.
    case modifiedZScore(threshold: Double = 3.5)
}

/// Flags the outliers in `values` under `rule`.
///
/// - Parameters:
///   - values: Finite values in any order (NaN or infinity is a precondition failure).
///   - rule: The outlier rule and its constant.
/// - Returns: One flag per value, in input order (`true` = outlier); empty for empty input.
public func outlierFlags(_ values: [Double], rule: OutlierRule) -> [Bool] {
    guard !values.isEmpty else { return [] }
    precondition(values.allSatisfy(\.isFinite), "outlierFlags needs finite values; filter NaN and infinity first")
    let sorted = values.sorted()
    switch rule {
    case .tukey(let k):
        precondition(k >= 0, "Tukey's k must not be negative")
        let q1 = quantile(sorted, 0.25)
        let q3 = quantile(sorted, 0.75)
        let spread = k * (q3 - q1)
        let low = q1 - spread
        let high = q3 + spread
        return values.map { $0 < low || $0 > high }
    case .modifiedZScore(let threshold):
        precondition(threshold > 0, "the modified z-score threshold must be positive")
        let median = quantile(sorted, 0.5)
        let mad = medianAbsoluteDeviation(sorted, median: median)
        let scale: Double
        if mad > 0 {
            scale = mad / 0.6745
        } else {
            var total = 0.0
            for value in values { total += abs(value - median) }
            scale = 1.253_314 * total / Double(values.count)
        }
        guard scale > 0 else { return [Bool](repeating: false, count: values.count) }
        return values.map { abs($0 - median) / scale > threshold }
    }
}
