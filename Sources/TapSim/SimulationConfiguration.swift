/// Everything that shapes a simulated tapping task. All times are seconds, levels decibels.
///
/// ## Levels
/// Every level is relative to the **reference noise power** Pₙ = 10^(``noiseLevelDBFS``/10)
/// (full scale = amplitude 1). When ``includesBackgroundNoise`` is `true` the background
/// noise is normalised so that its mean power over the whole task is exactly Pₙ; when it is
/// `false` Pₙ is still the reference, so switching the noise off changes nothing else.
///
/// - **Tap SNR (dB)** = 10·log10(mean power of the tap sound over its first 10 ms ÷ mean
///   power of the background noise), where "the first 10 ms" are the
///   `round(0.010 · sampleRate)` frames starting at the tap's start frame, the tap sound is
///   the tap alone (not mixed), and the noise is the background noise only (no hum, bleed or
///   distractors). Drawn per tap uniformly (in dB) from ``snrRange``.
/// - **Bleed level (dB)**: the same measure for one metronome click as it leaks into the
///   microphone.
/// - **Distractor level (dB)**: the same measure over a distractor's first 50 ms.
/// - **Hum level (dB)**: hum RMS over noise RMS (analytic RMS of the harmonic sum).
///
/// The output is scaled down (never up) so its peak is at most ``peakLimit``; that scales the
/// noise too, so all relative levels are unchanged.
///
/// ## Touch latency
/// The app logs a touch at `touch = ceil((tap + d)/B)·B` seconds, where `tap` is the true
/// start, `B` = ``bufferFrames``/``sampleRate`` (256/44100 s = 5.805 ms) and
/// `d ~ Normal(μ_d, σ_d)` clipped at 0 (a touch is never logged before it happens). The
/// quantisation adds a delay that is nearly uniform on [0, B), so the final latency has
/// mean μ_d + B/2 and variance σ_d² + B²/12. ``latencyMean`` and ``latencySD`` are those
/// *final* values; μ_d and σ_d (``touchDelayMean``, ``touchDelaySD``) are derived:
/// defaults 15 ms / 5 ms give μ_d = 12.098 ms and σ_d = 4.711 ms. A non-zero
/// ``clockDriftPPM`` then multiplies every touch time by (1 + ppm·10⁻⁶).
public struct SimulationConfiguration: Sendable, Equatable {
    /// Sample rate of the microphone signal, Hz. Default 44100.
    public var sampleRate: Double = 44100
    /// Channels the writer should produce (Tap-It wrote stereo with the microphone on both
    /// channels); the simulator itself produces one mono signal. Default 2.
    public var channels: Int = 2
    /// Length of each task's recording, seconds. Default 20.
    public var taskDuration: Double = 20

    /// Range of the metronome's **inter-onset interval** in seconds (not BPM), drawn
    /// uniformly per task. Default 0.4...0.8 s (150–75 BPM).
    public var tempoRange: ClosedRange<Double> = 0.4...0.8
    /// Time of the first metronome click, seconds. Default 1.
    public var firstClickTime: Double = 1
    /// No click is scheduled later than `taskDuration − endMargin`. Default 0.5 s.
    public var endMargin: Double = 0.5
    /// Clicks the participant listens to before starting to tap. Default 2.
    public var leadInClicks: Int = 2

    /// Mean tap-to-click asynchrony over participants, seconds; negative = taps lead, as in
    /// the negative mean asynchrony of tens of ms reviewed by Repp (2005, Psychon. Bull. Rev.
    /// 12, 969–992). Default −0.030.
    public var asynchronyMean: Double = -0.030
    /// SD of each task's own mean asynchrony around ``asynchronyMean``. Default 0.015 s.
    public var asynchronyMeanSpread: Double = 0.015
    /// SD of the asynchrony from tap to tap within a task. Default 0.020 s.
    public var asynchronySD: Double = 0.020

    /// Range of tap SNRs in dB (definition above), drawn uniformly per tap. Default 6...40.
    public var snrRange: ClosedRange<Double> = 6...40
    /// Reference noise level: RMS of the background noise in dBFS. Default −50.
    public var noiseLevelDBFS: Double = -50
    /// Whether the background noise is present (it stays the level reference either way).
    /// Default `true`.
    public var includesBackgroundNoise: Bool = true
    /// Share of the background noise power that is pink (the rest is white). Default 0.7.
    public var pinkNoiseFraction: Double = 0.7

    /// Mains frequency, Hz (50 or 60); each task deviates by up to ±0.05 Hz. Default 50.
    public var humFrequency: Double = 50
    /// Hum RMS relative to the noise RMS, dB; `nil` for no hum. Default +10 dB, so that the
    /// hum dominates the low frequencies as real mains hum does.
    public var humLevelDB: Double? = 10

    /// Range of the metronome bleed level (dB re noise, per click over 10 ms), drawn once per
    /// task; `nil` for no bleed. Default 0...15.
    public var bleedLevelRange: ClosedRange<Double>? = 0...15
    /// Delay of the bleed in the recording after the stimulus click, seconds. Default 0.
    public var bleedDelay: Double = 0

    /// Mean number of distractors (knocks, coughs) per second, a Poisson process. Default 0.1.
    public var distractorRate: Double = 0.1
    /// Probability that a distractor is a knock rather than a cough. Default 0.5.
    public var knockProbability: Double = 0.5
    /// Range of distractor levels (dB re noise over the first 50 ms), per distractor.
    /// Default 10...30.
    public var distractorLevelRange: ClosedRange<Double> = 10...30
    /// Distractors starting closer than this to a tap's start are dropped, so each tap's
    /// onset stays measurable; 0 allows any overlap. Default 0.1 s.
    public var distractorClearance: Double = 0.1

    /// Probability that a tap is registered by the screen but makes no sound. Default 0.02.
    public var silentTapProbability: Double = 0.02
    /// Probability that an audible tap is not logged as a touch. Default 0.02.
    public var missedTouchProbability: Double = 0.02
    /// Probability, per tap, of an extra touch with no tap at all, at a uniformly random time
    /// between 20 % and 80 % of an inter-onset interval after the tap. Default 0.01.
    public var spuriousTouchProbability: Double = 0.01

    /// Mean of the final touch latency (touch − true tap start), seconds. Default 0.015.
    public var latencyMean: Double = 0.015
    /// SD of the final touch latency, seconds. Default 0.005.
    public var latencySD: Double = 0.005
    /// Audio buffer size on whose boundaries touches are reported, frames. Default 256.
    public var bufferFrames: Int = 256
    /// Skew of the touch clock against the audio clock, parts per million. Default 0.
    public var clockDriftPPM: Double = 0

    /// Largest absolute sample value in the output. Default 0.9.
    public var peakLimit: Double = 0.9

    /// The defaults, modelled on Tap-It recordings (same as ``tapIt``).
    public init() {}

    /// Duration of one audio buffer, seconds.
    public var bufferDuration: Double { Double(bufferFrames) / sampleRate }

    /// Mean μ_d of the Gaussian delay before buffer quantisation: `latencyMean − B/2`.
    public var touchDelayMean: Double { latencyMean - bufferDuration / 2 }

    /// SD σ_d of the Gaussian delay before buffer quantisation: `√(latencySD² − B²/12)`
    /// (0 if the quantisation alone already exceeds ``latencySD``).
    public var touchDelaySD: Double {
        let b = bufferDuration
        return max(0, latencySD * latencySD - b * b / 12).squareRoot()
    }

    /// A copy with only the tap sounds: no background noise (it stays the level reference),
    /// hum, bleed or distractors. Useful to check onsets and levels in isolation.
    public var tapsOnly: SimulationConfiguration {
        var copy = self
        copy.includesBackgroundNoise = false
        copy.humLevelDB = nil
        copy.bleedLevelRange = nil
        copy.distractorRate = 0
        return copy
    }
}
