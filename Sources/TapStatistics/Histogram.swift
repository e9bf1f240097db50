/// Counts of values in equal-width, half-open bins [origin + k·w, origin + (k + 1)·w).
///
/// Bin k's edges are exactly `origin + Double(k) * binWidth` as computed in floating point
/// (see ``binEdges``), and each value is counted in the bin whose *computed* edges enclose
/// it, so a value equal to an edge always lands in the bin to its right.
public struct Histogram: Sendable, Codable, Equatable {
    /// Width of every bin (seconds, for times).
    public let binWidth: Double
    /// Left edge of bin 0.
    public let origin: Double
    /// Number of values in each bin, from bin 0 up to the bin holding the largest value.
    public let counts: [Int]
    /// Number of values below `origin`, which no bin holds (only possible when an explicit
    /// origin above the smallest value is passed).
    public let underflow: Int

    /// Bins `values`.
    ///
    /// - Parameters:
    ///   - values: Finite values in any order (NaN or infinity is a precondition failure).
    ///     The bins reach just far enough to hold the largest value; memory is one `Int` per
    ///     bin, so choose `binWidth` with the range of the data in mind (more than 10⁸ bins
    ///     is a precondition failure).
    ///   - binWidth: Positive, finite bin width.
    ///   - origin: Left edge of bin 0. By default ⌊min/binWidth⌋·binWidth, which aligns the
    ///     edges to multiples of the width (e.g. 0, 1 ms, 2 ms, …); 0 for empty input.
    public init(values: [Double], binWidth: Double, origin: Double? = nil) {
        precondition(binWidth > 0 && binWidth.isFinite, "bin width must be positive and finite")
        precondition(values.allSatisfy(\.isFinite), "Histogram needs finite values; filter NaN and infinity first")
        self.binWidth = binWidth
        guard let minimum = values.min(), let maximum = values.max() else {
            self.origin = origin ?? 0
            counts = []
            underflow = 0
            return
        }
        var start = origin ?? (minimum / binWidth).rounded(.down) * binWidth
        // Rounding in the default origin can put it just above the minimum.
        if origin == nil && start > minimum { start -= binWidth }
        self.origin = start

        precondition((maximum - start) / binWidth < 1e8, "more than 10⁸ histogram bins; use a wider bin")
        func edge(_ k: Int) -> Double { start + Double(k) * binWidth }
        // Floor of the scaled offset, nudged by one where rounding disagrees with the edges.
        func bin(of value: Double) -> Int {
            var k = Int(((value - start) / binWidth).rounded(.down))
            if value < edge(k) { k -= 1 } else if value >= edge(k + 1) { k += 1 }
            return k
        }
        var bins = [Int](repeating: 0, count: maximum < start ? 0 : bin(of: maximum) + 1)
        var below = 0
        for value in values {
            if value < start { below += 1; continue }
            bins[bin(of: value)] += 1
        }
        counts = bins
        underflow = below
    }

    /// The `counts.count + 1` bin edges, `origin + k·binWidth`.
    public var binEdges: [Double] { (0...counts.count).map { origin + Double($0) * binWidth } }

    /// The centre of each bin, `origin + (k + ½)·binWidth`.
    public var binCenters: [Double] { (0..<counts.count).map { origin + (Double($0) + 0.5) * binWidth } }

    /// Total number of values in the bins (excluding ``underflow``).
    public var totalCount: Int { counts.reduce(0, +) }
}
