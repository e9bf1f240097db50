/// The classic tap-tempo recipe, as metronome apps describe it (for example the write-up
/// "Creating a Tap Tempo Feature", rdsquared.wordpress.com, 2011): the tempo is the mean of the intervals between taps;
/// the history is cleared when no tap comes within `timeout` seconds, and thrown away when a new
/// interval falls outside `tolerance` (a fraction) around the running mean, so that the estimate
/// follows a deliberate change without waiting for the timeout. TapKit's baseline.
///
/// The mean of the intervals is (last − first)/(n − 1): only the first and last taps count.
public struct ClassicTapTempo: TapTempoEstimator {
    /// Seconds without a tap after which the history is cleared (2 s: down to 30 BPM).
    public var timeout: Double
    /// How far an interval may be from the running mean, as a fraction of it, before the
    /// history starts again (0.25: ±25 %).
    public var tolerance: Double
    private var first: Double?
    private var last: Double?
    private var intervals = 0

    /// The recipe with its usual constants: a 2 s timeout and ±25 % tolerance.
    public init(timeout: Double = 2, tolerance: Double = 0.25) {
        self.timeout = timeout
        self.tolerance = tolerance
    }

    /// Adds a tap at `time` (seconds, increasing) and returns the reading after it.
    public mutating func tap(at time: Double) -> TempoReading {
        var reset = false
        if let last, time - last > timeout {
            self.reset()
            reset = true
        }
        if let first, let last {
            let interval = time - last
            if intervals > 0 {
                let mean = (last - first) / Double(intervals)
                if abs(interval - mean) > tolerance * mean {
                    // A new tempo: start again from the last tap.
                    self.first = last
                    intervals = 0
                    reset = true
                }
            }
            intervals += 1
        } else {
            first = time
        }
        last = time
        guard intervals > 0, let first, time > first else { return TempoReading(bpm: nil, confidence: 0, tapsUsed: 1, reset: reset) }
        // Taps a hair apart (5e-324 s) would read as an infinite tempo: no reading instead.
        let bpm = 60 * Double(intervals) / (time - first)
        return TempoReading(bpm: bpm.isFinite ? bpm : nil, confidence: intervals >= 2 ? 1 - 1 / Double(intervals) : 0, tapsUsed: intervals + 1, reset: reset)
    }

    /// Forgets every tap.
    public mutating func reset() {
        first = nil
        last = nil
        intervals = 0
    }
}
