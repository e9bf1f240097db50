import TapAudio

/// The parameters of ``OnsetDetector``. Every field has a documented default; the presets
/// cover the usual recording situations.
public struct OnsetDetectorConfiguration: Sendable, Equatable, Codable {
    /// Cut-off of the 4th-order Butterworth high-pass applied first, in Hz. It removes mains
    /// hum (50/60 Hz and its low harmonics), handling rumble and most of the low "thump" of
    /// knocks, while finger taps keep their broadband contact transient.
    public var highPassCutoff: Double = 400
    /// Hop of the short-time power envelope, in seconds.
    public var hopDuration: Seconds = 0.0005
    /// Length of the power window, in seconds (a whole number of hops).
    public var windowDuration: Seconds = 0.002
    /// Length of the centred window over which the noise floor is estimated, in seconds.
    public var noiseWindowDuration: Seconds = 1.0
    /// Which quantile of the short-time power (in dB) counts as the noise floor. The median
    /// is unaffected as long as sounds fill less than half of the window.
    public var noiseQuantile: Double = 0.5
    /// The floor is never taken below this level (dBFS), so digital silence does not make
    /// every dither step an onset.
    public var absoluteFloorDB: Double = -100
    /// An onset needs the short-time power this far above the noise floor, in dB.
    public var thresholdDB: Double = 6
    /// Where the floor itself fluctuates, the threshold is at least this many times the
    /// fluctuation: the median, over the noise window, of how much the short-time power changes
    /// from one window to the next (dB). In a steady background that is 0.8 dB and
    /// ``thresholdDB`` governs; in the laptop microphone's processed background of
    /// `Fixtures/real` it is 2.1–2.8 dB, and the threshold 9.5–12.6 dB. Slow changes of level
    /// (an automatic gain control) do not count.
    public var floorSpreadFactor: Double = 4.5
    /// An event ends when the power falls back below floor + this, in dB.
    public var releaseDB: Double = 3
    /// Within a decaying event, a new onset needs the power to rise this far above the
    /// minimum since the previous peak, in dB (two taps, or a tap on a click's tail).
    public var retriggerRiseDB: Double = 6
    /// No second onset within this time of the previous one, in seconds: a finger tap's
    /// contact click and the build-up of its resonances can rise twice within a few
    /// milliseconds. (Clicks that precede taps are subtracted before this matters.)
    public var refractoryPeriod: Seconds = 0.010
    /// A peak counts when no higher power follows within this time, in seconds.
    public var peakConfirmDuration: Seconds = 0.010
    /// How much signal before the threshold crossing the start picker may search, in seconds.
    public var startSearchDuration: Seconds = 0.020

    /// The masking level a sound leaves behind falls at the sound's own rate of decay, but no
    /// slower than this, dB per second: a later onset whose peak stays under it lies in that
    /// sound's decay (``OnsetFeatures/aboveMaskDB``).
    public var slowestMaskReleaseDBPerSecond: Double = 50

    /// The tap-score cut: onsets scoring below it are ``OnsetKind/other`` (``TapScore``).
    public var minimumTapScore: Double = 0.5

    /// Whether quiet taps' starts are corrected for how late the start picker finds them, as
    /// measured on the recording's own loud taps (Docs/algorithms.md, "Quiet taps"). Applies
    /// to the taps and other sounds of
    /// ``detectTapOnsets(inFile:channel:configuration:bleed:stimulus:stimulusConfiguration:)``.
    public var calibratesQuietTaps = true

    /// Whether a recording whose taps come close together and sound unlike each other, or
    /// rise little over what still rings and keep no steady beat among other sounds (dense
    /// percussion: a drum kit), has its onsets completed from the spectral flux, which hears a
    /// soft hit under a loud one's ring (Docs/robustness.md, "Dense material" and "A groove's
    /// drums alone"). Applies as ``calibratesQuietTaps`` does.
    public var completesDensePercussion = true

    /// Whether every recording is taken for dense percussion, so that its onsets are completed
    /// from the spectral flux whatever the kit test says (with ``completesDensePercussion``;
    /// not after a stimulus file's subtraction). For recordings known to be a drum kit: the
    /// test reads the taps the detector found, and where it hears only some of a kit's hits
    /// (mostly the drums: one kind, a tapper's intervals apart) it takes the kit for tapping
    /// (Docs/robustness.md, "A second drum render").
    public var assumesDensePercussion = false

    /// Whether the detection runs again in a higher band (a high-pass at 1, 2 or 4 kHz instead
    /// of ``highPassCutoff``) where the taps it found rise clearly further over the recording's
    /// other sounds there: music, speech or a loud tonal metronome filling the low and middle
    /// frequencies (``DetectionBandChoice``; Docs/robustness.md, "Taps under music and speech"),
    /// and whether, where other sounds are at least as many as the taps, the taps an 8 kHz
    /// high-pass hears where that band heard none are added (``HighBandTaps``). Applies as
    /// ``calibratesQuietTaps`` does.
    public var choosesDetectionBand = true

    /// Whether another sound that spreads its power over the octave bands as the recording's
    /// taps do, and fills a beat their steady rhythm leaves empty, scores 0.5 whatever it
    /// scored on its own, a tap at the default cut (a tap that rings long;
    /// `TapScore.tapsInEmptyBeats`, Docs/algorithms.md, "A sound like the taps in an empty
    /// beat"). Applies as ``calibratesQuietTaps`` does; not on a drum kit completed from the
    /// spectral flux. Off (`--no-empty-beats`), the taps are those their sound and the other
    /// rules give: for an analysis that must not infer a tap from the rhythm it measures.
    public var fillsEmptyBeats = true

    /// Onsets whose peak falls within this time from the start of the recording are dropped:
    /// the high-pass filter starts from rest, so whatever the recording starts with (hum, a DC
    /// offset) looks like a transient until the filter settles.
    public var settleDuration: Seconds = 0.020

    /// Creates a configuration with the defaults.
    public init() {}

    /// The defaults: taps from loud down to about 6 dB above a steady background.
    public static let standard = OnsetDetectorConfiguration()

    /// For very quiet taps in a steady background: a lower threshold, at the price of more
    /// spurious onsets (which latency matching rejects).
    public static var sensitive: OnsetDetectorConfiguration {
        var configuration = OnsetDetectorConfiguration()
        configuration.thresholdDB = 4.5
        configuration.releaseDB = 2
        return configuration
    }

    /// For noisy rooms (speech, movement): a higher threshold, fewer spurious onsets.
    public static var conservative: OnsetDetectorConfiguration {
        var configuration = OnsetDetectorConfiguration()
        configuration.thresholdDB = 10
        configuration.releaseDB = 5
        configuration.retriggerRiseDB = 9
        return configuration
    }

    /// The configuration that looks for metronome clicks: 3 dB more sensitive (at least
    /// 3 dB) and quicker to retrigger, so that quiet bleed, which only now and then crosses the tap threshold, still
    /// shows its grid. Spurious onsets do no harm there: only a strict grid is used.
    public var clickProbe: OnsetDetectorConfiguration {
        var probe = self
        probe.thresholdDB = max(3, thresholdDB - 3)
        probe.floorSpreadFactor = floorSpreadFactor * 0.75
        probe.releaseDB = min(probe.releaseDB, probe.thresholdDB - 1)
        // Clicks often sound on the tail of the tap just before them.
        probe.retriggerRiseDB = min(probe.retriggerRiseDB, 3)
        return probe
    }

    /// Looks up a preset by name: `standard`, `sensitive` or `conservative`.
    public static func preset(named name: String) -> OnsetDetectorConfiguration? {
        switch name {
        case "standard", "default": return .standard
        case "sensitive": return .sensitive
        case "conservative": return .conservative
        default: return nil
        }
    }

    /// The names ``preset(named:)`` knows.
    public static let presetNames = ["standard", "sensitive", "conservative"]
}
