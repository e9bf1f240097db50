import TapStatistics

/// Tap tempo from a robust summary of the recent intervals, as DJ software commonly does:
/// the median, or the interquartile mean (the mean of the middle half), of the last `window`
/// intervals; the history is cleared after `timeout` seconds without a tap. A comparison for
/// the evaluation, not a recommendation.
public struct IntervalTapTempo: TapTempoEstimator {
    /// How the intervals are summarised.
    public enum Summary: String, Sendable, CaseIterable {
        case median
        case interquartileMean
    }

    /// How the intervals are summarised.
    public var summary: Summary
    /// Intervals kept (the most recent).
    public var window: Int
    /// Seconds without a tap after which the history is cleared.
    public var timeout: Double
    private var last: Double?
    private var intervals: [Double] = []

    /// A baseline summarising the last `window` intervals, cleared after `timeout` s.
    public init(_ summary: Summary, window: Int = 16, timeout: Double = 2) {
        self.summary = summary
        self.window = window
        self.timeout = timeout
    }

    /// Adds a tap at `time` (seconds, increasing) and returns the reading after it.
    public mutating func tap(at time: Double) -> TempoReading {
        var reset = false
        if let last, time - last > timeout {
            self.reset()
            reset = true
        }
        if let last, time > last {
            intervals.append(time - last)
            if intervals.count > window { intervals.removeFirst() }
        }
        last = time
        guard !intervals.isEmpty else { return TempoReading(bpm: nil, confidence: 0, tapsUsed: 1, reset: reset) }
        let sorted = intervals.sorted()
        let period: Double
        switch summary {
        case .median:
            period = quantile(sorted, 0.5)
        case .interquartileMean:
            let drop = sorted.count / 4
            let kept = sorted[drop..<(sorted.count - drop)]
            period = kept.reduce(0, +) / Double(kept.count)
        }
        // Taps a hair apart would read as an infinite tempo: no reading instead.
        return TempoReading(bpm: (60 / period).isFinite ? 60 / period : nil, confidence: intervals.count >= 2 ? 1 - 1 / Double(intervals.count) : 0,
                            tapsUsed: intervals.count + 1, reset: reset)
    }

    /// Forgets every tap.
    public mutating func reset() {
        last = nil
        intervals.removeAll()
    }
}
