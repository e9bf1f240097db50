/// One simulated task: the microphone recording and its ground truth.
public struct SimulatedTask: Sendable, Equatable {
    /// Participant number, from 1.
    public var user: Int
    /// Track (task) number, from 1.
    public var track: Int
    /// Sample rate, Hz.
    public var sampleRate: Double
    /// Channels the writer should produce, each a copy of ``samples`` (from the configuration).
    public var channels: Int
    /// The mono microphone signal, peak at most the configured `peakLimit`.
    public var samples: [Float]
    /// The factor (≤ 1) applied to the mix to respect the peak limit; levels in dBFS are
    /// shifted by 20·log10(outputGain), relative levels are unchanged.
    public var outputGain: Double
    /// RMS that all SNRs refer to, in the output's scale: `outputGain · 10^(noiseLevelDBFS/20)`.
    /// It equals the background noise's RMS when the noise is included.
    public var referenceNoiseRMS: Double
    /// What happened, sample by sample.
    public var truth: TaskTruth

    /// Creates a task (the simulator fills it).
    public init(user: Int, track: Int, sampleRate: Double, channels: Int, samples: [Float],
                outputGain: Double, referenceNoiseRMS: Double, truth: TaskTruth) {
        self.user = user
        self.track = track
        self.sampleRate = sampleRate
        self.channels = channels
        self.samples = samples
        self.outputGain = outputGain
        self.referenceNoiseRMS = referenceNoiseRMS
        self.truth = truth
    }
}

/// A task together with each of its components, already scaled by the output gain, so that
/// `backgroundNoise + hum + bleed + distractors + taps` equals `task.samples` up to `Float`
/// rounding. Components that are switched off are all zeros.
public struct SimulatedStems: Sendable, Equatable {
    /// The task, identical to what `simulateTask` returns for the same arguments.
    public var task: SimulatedTask
    /// White + pink background noise.
    public var backgroundNoise: [Float]
    /// Mains hum.
    public var hum: [Float]
    /// Metronome clicks leaking from the headphones.
    public var bleed: [Float]
    /// Knocks and coughs.
    public var distractors: [Float]
    /// The audible taps.
    public var taps: [Float]

    /// Creates a stem set (the simulator fills it).
    public init(task: SimulatedTask, backgroundNoise: [Float], hum: [Float], bleed: [Float],
                distractors: [Float], taps: [Float]) {
        self.task = task
        self.backgroundNoise = backgroundNoise
        self.hum = hum
        self.bleed = bleed
        self.distractors = distractors
        self.taps = taps
    }
}
