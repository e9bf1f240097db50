/// A straight line `y = offset + slope × (x − referenceTime)` fitted by least squares after
/// rejecting outliers, with the standard error of its slope.
///
/// Outliers are points whose residual from the current line deviates from the median
/// residual by more than 3.5 robust SDs (1.4826 × MAD; the cut follows Iglewicz & Hoaglin
/// 1993). Starting from a given line, screening and refitting alternate twice. This is
/// O(n log n), unlike Theil–Sen's O(n²) pairwise slopes, and as robust here because the
/// starting line (from the latency search or a previous fit) is already close.
struct RobustLineFit {
    var offset: Double
    var slope: Double
    var referenceTime: Double
    /// Standard error of `slope`; infinite when fewer than three inliers.
    var slopeStandardError: Double

    /// Rejection threshold in robust SDs.
    static let cut = 3.5
    /// Floor on the robust SD (seconds), so identical residuals do not reject everything
    /// that differs by a rounding error.
    static let spreadFloor = 1e-6

    init?(x: [Double], y: [Double], start: LatencyModel) {
        guard x.count >= 2, x.count == y.count else { return nil }
        var line = start
        var standardError = Double.infinity
        var residuals = [Double](repeating: 0, count: x.count)
        for _ in 0..<2 {
            for k in x.indices { residuals[k] = y[k] - line.latency(at: x[k]) }
            guard let centre = median(residuals) else { return nil }
            let limit = Self.cut * max(scaledMAD(residuals, center: centre), Self.spreadFloor)
            guard let fit = Self.leastSquares(
                x: x, y: y, keep: { abs(residuals[$0] - centre) <= limit })
            else { return nil }
            line = LatencyModel(offset: fit.offset, slope: fit.slope, referenceTime: fit.meanX)
            standardError = fit.standardError
        }
        offset = line.offset
        slope = line.slope
        referenceTime = line.referenceTime
        slopeStandardError = standardError
    }

    var model: LatencyModel {
        LatencyModel(offset: offset, slope: slope, referenceTime: referenceTime)
    }

    /// Ordinary least squares over the kept points, centred on their mean x for accuracy.
    private static func leastSquares(x: [Double], y: [Double], keep: (Int) -> Bool)
        -> (offset: Double, slope: Double, meanX: Double, standardError: Double)?
    {
        var n = 0.0, sumX = 0.0, sumY = 0.0
        for k in x.indices where keep(k) { n += 1; sumX += x[k]; sumY += y[k] }
        guard n >= 2 else { return nil }
        let meanX = sumX / n, meanY = sumY / n
        var sxx = 0.0, sxy = 0.0
        for k in x.indices where keep(k) {
            let dx = x[k] - meanX
            sxx += dx * dx
            sxy += dx * (y[k] - meanY)
        }
        guard sxx > 0 else { return nil }
        let slope = sxy / sxx
        var ssr = 0.0
        for k in x.indices where keep(k) {
            let r = y[k] - meanY - slope * (x[k] - meanX)
            ssr += r * r
        }
        let standardError = n > 2 ? (ssr / (n - 2) / sxx).squareRoot() : .infinity
        return (meanY, slope, meanX, standardError)
    }
}
