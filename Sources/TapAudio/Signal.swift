/// Seconds, the unit of every time in TapKit's public APIs.
public typealias Seconds = Double

/// A mono recording held in memory: samples and their rate.
///
/// Long recordings should be streamed with ``AudioFileReader`` instead; a `Signal` is for
/// short material (tests, simulated tasks, stimuli).
public struct Signal: Sendable, Equatable {
    /// The samples, nominally in −1 … 1.
    public var samples: [Float]
    /// Frames per second.
    public var sampleRate: Double

    /// Creates a signal from samples at a sample rate (frames per second, > 0).
    public init(samples: [Float], sampleRate: Double) {
        precondition(sampleRate > 0, "sample rate must be positive")
        self.samples = samples
        self.sampleRate = sampleRate
    }

    /// Number of frames.
    public var frameCount: Int { samples.count }

    /// Length in seconds.
    public var duration: Seconds { Double(samples.count) / sampleRate }

    /// The time of a frame index, in seconds from frame 0.
    public func time(ofFrame frame: Double) -> Seconds { frame / sampleRate }
}
