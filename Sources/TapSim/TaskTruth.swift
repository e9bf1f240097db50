/// The ground truth of one simulated task: the stimulus, every tap and touch, and every other
/// sound in the recording. Times are seconds from the first sample of the recording.
public struct TaskTruth: Sendable, Codable, Equatable {
    /// Sample rate of the recording the frames refer to, Hz.
    public var sampleRate: Double
    /// Number of frames in the recording.
    public var frameCount: Int
    /// The metronome's inter-onset interval for this task, seconds.
    public var interOnsetInterval: Double
    /// This task's own mean asynchrony (drawn around the configured population mean), seconds.
    public var asynchronyMean: Double
    /// Onsets of the stimulus clicks, seconds (exact, not frame-rounded).
    public var clickTimes: [Double]
    /// Every tap the participant made, in time order.
    public var taps: [TapTruth]
    /// Logged touches that belong to no tap, seconds (unrounded), in time order.
    public var spuriousTouchTimes: [Double]
    /// Knocks and coughs, in time order.
    public var distractors: [DistractorTruth]
    /// Onsets of the metronome clicks leaking into the microphone, seconds (whole frames);
    /// empty when there is no bleed.
    public var bleedOnsetTimes: [Double]
    /// Bleed level, dB re noise power per click over its first 10 ms; `nil` without bleed.
    public var bleedLevelDB: Double?
    /// Mains frequency of this task's hum, Hz; `nil` without hum.
    public var humFrequency: Double?
    /// What the app logged: all touch times (taps and spurious), sorted, rounded to the
    /// nearest microsecond as `%f` prints them.
    public var touches: [Double]
    /// Mean of the true latency over the logged touches of audible taps; `nil` if none.
    public var trueLatencyMean: Double?
    /// Sample SD (n − 1) of the same latencies; `nil` with fewer than two.
    public var trueLatencySD: Double?

    /// Creates a truth record (the simulator fills it; public for decoding and tests).
    public init(sampleRate: Double, frameCount: Int, interOnsetInterval: Double,
                asynchronyMean: Double, clickTimes: [Double], taps: [TapTruth],
                spuriousTouchTimes: [Double], distractors: [DistractorTruth],
                bleedOnsetTimes: [Double], bleedLevelDB: Double?, humFrequency: Double?,
                touches: [Double], trueLatencyMean: Double?, trueLatencySD: Double?) {
        self.sampleRate = sampleRate
        self.frameCount = frameCount
        self.interOnsetInterval = interOnsetInterval
        self.asynchronyMean = asynchronyMean
        self.clickTimes = clickTimes
        self.taps = taps
        self.spuriousTouchTimes = spuriousTouchTimes
        self.distractors = distractors
        self.bleedOnsetTimes = bleedOnsetTimes
        self.bleedLevelDB = bleedLevelDB
        self.humFrequency = humFrequency
        self.touches = touches
        self.trueLatencyMean = trueLatencyMean
        self.trueLatencySD = trueLatencySD
    }
}

/// One tap: where its sound starts, how loud it is, and the touch the app logged for it.
public struct TapTruth: Sendable, Codable, Equatable {
    /// Index into ``TaskTruth/clickTimes`` of the click this tap goes with.
    public var clickIndex: Int
    /// True start of the tap sound: `startFrame / sampleRate`, seconds.
    public var startTime: Double
    /// True start frame. The tap's own sound is exactly 0 at this frame and before, and
    /// non-zero from the next frame on (its attack envelope starts at 0 here).
    public var startFrame: Int
    /// First frame after the tap's sound (its tail is cut at −100 dB re its peak envelope).
    public var endFrame: Int
    /// Start minus the click time, seconds (negative = tap before the click).
    public var asynchrony: Double
    /// `false` for a silent tap (a touch but no sound).
    public var audible: Bool
    /// Tap SNR in dB as defined in ``SimulationConfiguration``; `nil` for a silent tap.
    public var snrDB: Double?
    /// Logged touch time, seconds, before microsecond rounding; `nil` if the touch was missed
    /// (or would have come after the end of the recording).
    public var touchTime: Double?
    /// `touchTime − startTime`, seconds; `nil` if the touch was missed.
    public var latency: Double?

    /// Creates a tap record.
    public init(clickIndex: Int, startTime: Double, startFrame: Int, endFrame: Int,
                asynchrony: Double, audible: Bool, snrDB: Double?, touchTime: Double?,
                latency: Double?) {
        self.clickIndex = clickIndex
        self.startTime = startTime
        self.startFrame = startFrame
        self.endFrame = endFrame
        self.asynchrony = asynchrony
        self.audible = audible
        self.snrDB = snrDB
        self.touchTime = touchTime
        self.latency = latency
    }
}

/// The kind of a distracting sound.
public enum DistractorKind: String, Sendable, Codable, Equatable, CaseIterable {
    /// A low damped thump (80–400 Hz) with a sharp broadband start — a knock on the table.
    case knock
    /// A band-filtered noise burst of 150–400 ms with a 10–30 ms attack.
    case cough
}

/// One distracting sound.
public struct DistractorTruth: Sendable, Codable, Equatable {
    /// What it is.
    public var kind: DistractorKind
    /// Start, `startFrame / sampleRate`, seconds.
    public var startTime: Double
    /// Start frame (the sound is 0 here and non-zero after, like a tap).
    public var startFrame: Int
    /// First frame after the sound.
    public var endFrame: Int
    /// Level, dB re noise power, over the first 50 ms.
    public var levelDB: Double

    /// Creates a distractor record.
    public init(kind: DistractorKind, startTime: Double, startFrame: Int, endFrame: Int,
                levelDB: Double) {
        self.kind = kind
        self.startTime = startTime
        self.startFrame = startFrame
        self.endFrame = endFrame
        self.levelDB = levelDB
    }
}
