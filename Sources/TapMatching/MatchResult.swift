/// The outcome of ``matchTouches(_:toOnsets:configuration:)``.
public struct MatchResult: Sendable, Codable, Equatable {
    /// The pairs, in time order (ascending touch and onset times alike).
    public var pairs: [MatchedPair]
    /// Indices of touches without a pair, ascending (includes non-finite times).
    public var unmatchedTouchIndices: [Int]
    /// Indices of onsets without a pair, ascending (includes non-finite times).
    public var unmatchedOnsetIndices: [Int]
    /// The latency (seconds) of the final latency model, or `nil` when no touch–onset
    /// difference fell in the configured latency range.
    ///
    /// Found by the latency search and refitted to the final pairs: their median latency,
    /// or, with ``drift``, the fitted line at the median paired onset time. Without pairs
    /// it is the search's estimate.
    public var latencyEstimate: Double?
    /// The tolerance (seconds) of the final assignment: the largest |latency − model| a
    /// pair may have.
    public var tolerance: Double
    /// The clock drift, when ``MatchingConfiguration/estimatesDrift`` is on and the pairs
    /// are enough and span enough time; reported with its standard error whether or not
    /// it is significant (see ``ClockDrift/isSignificant``).
    public var drift: ClockDrift?

    /// Creates a result.
    public init(
        pairs: [MatchedPair], unmatchedTouchIndices: [Int], unmatchedOnsetIndices: [Int],
        latencyEstimate: Double?, tolerance: Double, drift: ClockDrift?
    ) {
        self.pairs = pairs
        self.unmatchedTouchIndices = unmatchedTouchIndices
        self.unmatchedOnsetIndices = unmatchedOnsetIndices
        self.latencyEstimate = latencyEstimate
        self.tolerance = tolerance
        self.drift = drift
    }

    /// The modelled latency (seconds) at audio time `t`: the drift line when there is one,
    /// else ``latencyEstimate``.
    public func modelLatency(at t: Double) -> Double? {
        if let drift { return drift.latency(at: t) }
        return latencyEstimate
    }
}
