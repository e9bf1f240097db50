/// The `p`-quantile of already sorted values, Hyndman & Fan (1996) definition 7.
///
/// Definition 7 is R's `quantile(type = 7)` default and NumPy's `linear` method:
/// with `h = (n − 1)·p`, the result interpolates linearly between the order statistics
/// `x[⌊h⌋]` and `x[⌊h⌋ + 1]` (0-based). So `p = 0` gives the minimum, `p = 1` the maximum,
/// `p = 0.5` the usual median.
///
/// Reference: R. J. Hyndman, Y. Fan (1996), "Sample quantiles in statistical packages",
/// *The American Statistician* 50(4), 361–365.
///
/// - Parameters:
///   - sortedValues: Finite values in ascending order, not empty. Sorting is the caller's
///     job so that several quantiles of one sample cost one sort (checked in debug builds only).
///   - p: Probability in `0...1`.
/// - Returns: The interpolated quantile; monotone non-decreasing in `p`.
public func quantile(_ sortedValues: [Double], _ p: Double) -> Double {
    precondition(!sortedValues.isEmpty, "quantile of an empty sample")
    precondition(p >= 0 && p <= 1, "quantile probability must lie in 0...1")
    assert(zip(sortedValues, sortedValues.dropFirst()).allSatisfy { $0 <= $1 },
           "quantile expects ascending values")
    let h = Double(sortedValues.count - 1) * p
    let lowerIndex = Int(h.rounded(.down))
    let upperIndex = Swift.min(lowerIndex + 1, sortedValues.count - 1)
    let lower = sortedValues[lowerIndex]
    let upper = sortedValues[upperIndex]
    let fraction = h - Double(lowerIndex)
    if fraction == 0 || lower == upper { return lower }
    // Clamp: rounding in `upper − lower` could otherwise step past `upper` and break
    // monotonicity in `p` across neighbouring intervals.
    return Swift.min(Swift.max(lower + fraction * (upper - lower), lower), upper)
}
