import TapSim

/// One condition of the robustness corpus: TapSim tasks plus sounds or processing the onset
/// detector was never tuned on (Docs/robustness.md describes each).
public enum CorpusCondition: String, Sendable, CaseIterable, Codable {
    /// TapSim's task as simulated, untouched: the reference the other conditions are read against.
    case baseline
    /// Phone-like processing: high-pass, FFT noise suppression (`afftdn`) and a gate (`agate`),
    /// so that the background between taps sits near −75 dBFS and taps peak near −12 dBFS.
    case gated
    /// Automatic gain control: ffmpeg's `dynaudnorm` with short frames.
    case agc
    /// AAC at 64 kbit/s, decoded back (ffmpeg's native encoder).
    case aac
    /// Opus at 48 kbit/s, decoded back (libopus).
    case opus
    /// MP3 at 64 kbit/s, decoded back (LAME).
    case mp3
    /// Resampled to 16 kHz (sox `rate -v`); the file stays at 16 kHz.
    case rate16k
    /// Resampled to 8 kHz.
    case rate8k
    /// Room reverberation (sox `reverb`, dry and wet).
    case reverb
    /// Amplified until the loudest taps clip hard at full scale.
    case clipping
    /// A DC offset with a settling transient at the start and a slow wander.
    case dcOffset = "dc-offset"
    /// Low-frequency thumps and rubbing of a hand-held phone, between taps.
    case handlingNoise = "handling-noise"
    /// A foreign metronome of decaying sine bursts leaking into the microphone.
    case sineBurst = "sine-burst"
    /// A foreign metronome of synthesised wood-block strokes (resonant modes).
    case woodblock
    /// A foreign metronome of short decaying noise clicks.
    case noiseClick = "noise-click"
    /// A foreign metronome of 50 ms beeps.
    case beep
    /// Piano, bass and drums at the task's tempo (a Standard MIDI File rendered by
    /// fluidsynth with the General MIDI soundfont) leaking into the microphone.
    case music
    /// Spoken sentences (espeak-ng) starting between taps.
    case speech
    /// Key press/release click pairs 60–90 ms apart, between the (TapSim) taps.
    case keyboard
    /// The taps themselves are key presses, each followed 60–90 ms later by its release.
    case keyboardTaps = "keyboard-taps"
    /// A foreign metronome (one of the four click sounds above, drawn per item) played through
    /// a loudspeaker instead of headphones, as in online and REPP-style experiments: its bleed
    /// is 15–35 dB louder than the headphone leak of the other stimulus conditions, as loud as
    /// the taps or louder.
    case loudspeaker
    /// `loudspeaker` recorded by a phone that stores AAC (48–64 kbit/s, decoded back): the
    /// codec's pre-echo smears the start of each loud click by up to a few milliseconds, click
    /// by click (added in session 12).
    case loudspeakerAAC = "loudspeaker-aac"

    /// The name used in file names, the manifest and on the command line.
    public var name: String { rawValue }

    /// The foreign metronomes' click sounds, in the order `loudspeaker` draws one from.
    static let metronomeSounds: [CorpusCondition] = [.sineBurst, .woodblock, .noiseClick, .beep]

    /// Whether the condition adds a foreign stimulus whose clean file is written beside the item.
    public var hasStimulus: Bool {
        switch self {
        case .sineBurst, .woodblock, .noiseClick, .beep, .music, .loudspeaker, .loudspeakerAAC: true
        default: false
        }
    }

    /// The external programs the condition runs (looked up on `PATH`).
    public var tools: [ExternalTool] {
        switch self {
        case .gated, .agc, .aac, .opus, .mp3, .loudspeakerAAC: [.ffmpeg]
        case .rate16k, .rate8k, .reverb: [.sox]
        case .music: [.fluidsynth]
        case .speech: [.espeakNG]
        default: []
        }
    }

    /// The TapSim configuration the condition's tasks are simulated with.
    public func simulation(base: SimulationConfiguration) -> SimulationConfiguration {
        var c = base
        // A foreign stimulus replaces TapSim's own metronome bleed.
        if hasStimulus { c.bleedLevelRange = nil }
        // The gate must leave every tap audible (the truth lists audible taps), so taps are
        // drawn well above the noise (a phone close to the tapping finger), 25–35 dB; a gate
        // that ate taps would make the truth wrong.
        if self == .gated { c.snrRange = 25...35 }
        return c
    }
}

extension SimulationConfiguration {
    /// The corpus's base tasks: TapSim's defaults (Tap-It-like: noise at −50 dBFS, hum, bleed,
    /// knocks and coughs, SNRs 6–40 dB) at 48 kHz, mono, 20 s.
    public static var corpus: SimulationConfiguration {
        var c = SimulationConfiguration.tapIt
        c.sampleRate = 48_000
        c.channels = 1
        c.taskDuration = 20
        return c
    }
}

/// The two parts of the corpus: `dev` may be tuned on, `held` never is; both are always
/// reported, separately.
public enum CorpusSplit: String, Sendable, CaseIterable, Codable {
    case dev, held

    /// TapSim's participant number for the split's tasks (tracks are the item numbers).
    var user: Int { self == .dev ? 1 : 2 }
    /// The split's label in the item seed.
    var seedLabel: UInt64 { self == .dev ? 1 : 2 }
}
