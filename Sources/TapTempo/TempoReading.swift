/// What a tap-tempo estimator knows after a tap.
public struct TempoReading: Sendable, Equatable {
    /// Beats per minute, or nil before there is an interval to go on.
    public var bpm: Double?
    /// Seconds per beat (60 / bpm), or nil.
    public var period: Double? { bpm.map { 60 / $0 } }
    /// 0…1: how settled the estimate is (0 with fewer than three taps; see each estimator).
    public var confidence: Double
    /// Taps the estimate rests on.
    public var tapsUsed: Int
    /// True when this tap started a new history (timeout, or a change of tempo).
    public var reset: Bool

    /// A reading from its parts.
    public init(bpm: Double?, confidence: Double, tapsUsed: Int, reset: Bool) {
        self.bpm = bpm
        self.confidence = confidence
        self.tapsUsed = tapsUsed
        self.reset = reset
    }
}

/// A streaming tap-tempo estimator: feed tap times in seconds, in order, read the tempo.
public protocol TapTempoEstimator: Sendable {
    /// Takes a tap at `time` seconds (not before the previous tap) and returns the reading.
    mutating func tap(at time: Double) -> TempoReading
    /// Forgets every tap.
    mutating func reset()
}
