/// When a process cycle started: the recording frame it began at, JACK's clock
/// (`jack_get_time`, microseconds) when the callback ran, and the xruns counted so far.
public struct CycleStamp: Sendable {
    /// The recording frame the cycle began at.
    public var frame: Int
    /// JACK's clock (`jack_get_time`, µs) when the callback ran.
    public var microseconds: Int64
    /// Xruns counted so far.
    public var xruns: Int

    /// A cycle start from its parts.
    @inlinable
    public init(frame: Int, microseconds: Int64, xruns: Int) {
        self.frame = frame
        self.microseconds = microseconds
        self.xruns = xruns
    }
}

/// Places system-clock instants (a key read, an input event) on the recording's frame clock.
///
/// A process callback runs some time after its cycle's first frame is due: never before, and
/// late by whatever the scheduler adds (a few microseconds on a quiet real-time system,
/// milliseconds on a busy one). JACK's own frame-time estimate follows each cycle's start, so
/// one late cycle shifts it by the lateness. This model keeps instead the *lower envelope* of
/// the recent cycle starts: with the audio clock running at its nominal rate, each cycle gives
/// an estimate of when frame 0 was due, `t − frame / rate`, late by that cycle's delay, and the
/// smallest over the window is the least delayed. The window (1 s) bounds the error a sound
/// card's clock-rate offset adds (50 ppm × 1 s = 50 µs); an xrun, after which frames and time
/// no longer line up, starts the model afresh.
public struct FrameClock: Sendable {
    /// Frames per second of the recording.
    public let sampleRate: Double
    /// The window of cycle starts kept, µs.
    public let window: Int64
    private var stamps: [CycleStamp] = []
    private var head = 0
    private var xruns = 0

    /// A clock for a recording at `sampleRate`, keeping the last `windowSeconds` of cycles.
    public init(sampleRate: Double, windowSeconds: Double = 1) {
        self.sampleRate = sampleRate
        window = Int64(windowSeconds * 1_000_000)
    }

    /// Adds a cycle start; older ones than the window drop out, and every earlier one when an
    /// xrun came between.
    public mutating func add(_ stamp: CycleStamp) {
        if stamp.xruns != xruns {
            stamps.removeAll(keepingCapacity: true)
            head = 0
            xruns = stamp.xruns
        }
        stamps.append(stamp)
        while head < stamps.count && stamp.microseconds - stamps[head].microseconds > window { head += 1 }
        if head > 4_096 {
            stamps.removeFirst(head)
            head = 0
        }
    }

    /// The recording frame (fractional) due at `microseconds` on JACK's clock, or nil before
    /// the first cycle.
    public func frame(atMicroseconds microseconds: Int64) -> Double? {
        guard head < stamps.count else { return nil }
        let microsecondsPerFrame = 1_000_000 / sampleRate
        var origin = Double.infinity
        for stamp in stamps[head...] {
            origin = min(origin, Double(stamp.microseconds) - Double(stamp.frame) * microsecondsPerFrame)
        }
        return (Double(microseconds) - origin) / microsecondsPerFrame
    }
}
