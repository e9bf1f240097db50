/// Descriptive and robust statistics of one sample, as SMS papers report them for tap
/// latencies and asynchronies (mean ± SD, 95 % CI, median, IQR, MAD).
///
/// Build it with ``init(_:)``; every field is computed once, in O(n log n) (two sorts).
public struct Summary: Sendable, Equatable, Codable {
    /// Number of values.
    public let count: Int
    /// Arithmetic mean, from a corrected two-pass algorithm (Chan, Golub & LeVeque 1983),
    /// so that it is exact for constant data and does not drift for large offsets.
    public let mean: Double
    /// Sample standard deviation with Bessel's correction (n − 1); `nil` when `count < 2`.
    public let standardDeviation: Double?
    /// Standard error of the mean, SD/√n; `nil` when `count < 2`.
    public let standardError: Double?
    /// 95 % confidence interval of the mean, mean ± t(0.975, n − 1)·SE (Student's t);
    /// `nil` when `count < 2`.
    public let confidenceInterval95: ClosedRange<Double>?
    /// Median (the 0.5 quantile).
    public let median: Double
    /// First quartile, Hyndman & Fan type 7 (R's default; see ``quantile(_:_:)``).
    public let lowerQuartile: Double
    /// Third quartile, Hyndman & Fan type 7.
    public let upperQuartile: Double
    /// Interquartile range, `upperQuartile − lowerQuartile`.
    public let interquartileRange: Double
    /// Raw median absolute deviation from the median, median(|xᵢ − median|), *unscaled*
    /// (R's `mad(x, constant = 1)`). See ``scaledMAD`` for the normal-consistent version.
    public let medianAbsoluteDeviation: Double
    /// Smallest value.
    public let minimum: Double
    /// Largest value.
    public let maximum: Double

    /// The MAD times 1.4826 (≈ 1/Φ⁻¹(¾)), a consistent estimator of σ for normal data;
    /// equal to R's default `mad(x)`.
    public var scaledMAD: Double { 1.4826 * medianAbsoluteDeviation }

    /// The variance, `standardDeviation²`; `nil` when `count < 2`.
    public var variance: Double? { standardDeviation.map { $0 * $0 } }

    /// Summarizes `values`.
    ///
    /// - Parameter values: The sample, in any order. Every value must be finite: NaN or
    ///   infinity is a precondition failure, so filter missing data out first
    ///   (`values.filter(\.isFinite)`). Values so far apart that their squared deviations
    ///   pass the largest Double give an infinite standard deviation, error and interval.
    /// - Returns: `nil` for an empty sample.
    public init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        let n = values.count
        let sorted = values.sorted()
        precondition(sorted.allSatisfy(\.isFinite), "Summary needs finite values; filter NaN and infinity first")
        count = n
        minimum = sorted[0]
        maximum = sorted[n - 1]

        let (mean, sumOfSquares) = Self.meanAndSumOfSquaredDeviations(values, minimum: minimum, maximum: maximum)
        self.mean = mean
        if n >= 2 {
            let sd = (sumOfSquares / Double(n - 1)).squareRoot()
            let se = sd / Double(n).squareRoot()
            let halfWidth = studentTQuantile(probability: 0.975, degreesOfFreedom: Double(n - 1)) * se
            standardDeviation = sd
            standardError = se
            confidenceInterval95 = (mean - halfWidth)...(mean + halfWidth)
        } else {
            standardDeviation = nil
            standardError = nil
            confidenceInterval95 = nil
        }

        median = quantile(sorted, 0.5)
        lowerQuartile = quantile(sorted, 0.25)
        upperQuartile = quantile(sorted, 0.75)
        interquartileRange = upperQuartile - lowerQuartile
        medianAbsoluteDeviation = TapStatistics.medianAbsoluteDeviation(sorted, median: median)
    }

    /// A confidence interval of the mean at any level, mean ± t((1 + level)/2, n − 1)·SE.
    ///
    /// - Parameter level: Coverage in the open interval (0, 1), e.g. 0.99.
    /// - Returns: `nil` when `count < 2`.
    public func confidenceInterval(level: Double) -> ClosedRange<Double>? {
        precondition(level > 0 && level < 1, "confidence level must lie in (0, 1)")
        guard let standardError, count >= 2 else { return nil }
        let halfWidth = studentTQuantile(probability: 0.5 * (1 + level),
                                         degreesOfFreedom: Double(count - 1)) * standardError
        return (mean - halfWidth)...(mean + halfWidth)
    }

    /// Mean and Σ(xᵢ − mean)² by the corrected two-pass algorithm: deviations from a first
    /// estimate m₀ give the mean m₀ + Σd/n and Σd² − (Σd)²/n, which removes the rounding
    /// error of m₀ to first order (Chan, Golub & LeVeque, *Am. Stat.* 37(3), 1983).
    private static func meanAndSumOfSquaredDeviations(
        _ values: [Double], minimum: Double, maximum: Double
    ) -> (mean: Double, sumOfSquares: Double) {
        // Constant data: exact answers rather than rounding residue.
        if minimum == maximum { return (minimum, 0) }
        let n = Double(values.count)
        var sum = 0.0
        for value in values { sum += value }
        var firstEstimate = sum / n
        // Values near the largest Double can sum past it; their shares cannot.
        if !firstEstimate.isFinite { firstEstimate = values.reduce(0) { $0 + $1 / n } }
        var deviationSum = 0.0
        var squaredSum = 0.0
        for value in values {
            let deviation = value - firstEstimate
            deviationSum += deviation
            squaredSum += deviation * deviation
        }
        // Deviations too large to square make the spread infinite, never not a number.
        guard deviationSum.isFinite, squaredSum.isFinite else {
            return (Swift.min(Swift.max(firstEstimate, minimum), maximum), .infinity)
        }
        let mean = Swift.min(Swift.max(firstEstimate + deviationSum / n, minimum), maximum)
        return (mean, Swift.max(squaredSum - deviationSum * deviationSum / n, 0))
    }
}

/// Raw median of |xᵢ − median| for a sorted, non-empty sample.
func medianAbsoluteDeviation(_ sortedValues: [Double], median: Double) -> Double {
    var deviations = sortedValues.map { abs($0 - median) }
    deviations.sort()
    return quantile(deviations, 0.5)
}
