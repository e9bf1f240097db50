import TapAudio

/// One detected acoustic onset: where a transient starts, how strong it is, how far it
/// stands above the local noise floor, and how much it sounds like a tap.
public struct Onset: Sendable, Equatable, Codable {
    /// Where the transient starts (not its peak), in seconds from frame 0.
    public var time: Seconds
    /// The same instant as a frame index.
    public var frame: Int
    /// Where the short-time energy of the transient peaks, in seconds.
    public var peakTime: Seconds
    /// Peak short-time power of the high-passed signal, in dB relative to full scale.
    public var strength: Double
    /// Peak short-time power over the local noise floor, in dB.
    public var snrDB: Double
    /// What the sound is measured to be like (nil for onsets made elsewhere).
    public var features: OnsetFeatures?
    /// How much the sound looks like a finger tap, 0–1 (``TapScore``): 1 for onsets made
    /// elsewhere, which nothing was measured on. A sound the rhythm made a tap (one that fills
    /// an empty beat from the high band, ``HighBandTaps``) scores at least the cut.
    public var tapScore: Double
    /// What the onset was classified as.
    public var kind: OnsetKind
    /// Where a far fainter lead-in began when the start stepped over one (a lossy codec's
    /// pre-echo, a noise suppressor's spread; see Docs/algorithms.md), in seconds; nil when
    /// there was none.
    public var precursorTime: Seconds? = nil
    /// The high-pass (Hz) this onset was detected and measured with where that is not its
    /// recording's: a tap ``HighBandTaps`` added from its 8 kHz band, whose strength, SNR and
    /// features are that band's. Nil for every other onset.
    public var highBandCutoff: Double? = nil

    /// Creates an onset.
    public init(time: Seconds, frame: Int, peakTime: Seconds, strength: Double, snrDB: Double,
                features: OnsetFeatures? = nil, tapScore: Double = 1, kind: OnsetKind = .tap) {
        self.time = time
        self.frame = frame
        self.peakTime = peakTime
        self.strength = strength
        self.snrDB = snrDB
        self.features = features
        self.tapScore = tapScore
        self.kind = kind
    }
}

/// What an onset was classified as.
public enum OnsetKind: String, Sendable, Codable, CaseIterable {
    /// A sound with a tap's shape, at or above the tap-score cut.
    case tap
    /// Any other sound: below the tap-score cut (noise blips, a tap's own decay, speech,
    /// knocks, keyboard pairs).
    case other
    /// The stimulus leaking into the microphone: a metronome click on its grid or what its
    /// subtraction left, an alignment marker (``StimulusMarkers``), a count-in's click
    /// (``CountInClicks``) or a click that copies those (``ClickCopies``).
    case stimulus
}

/// Measurements of one onset's sound, taken on the high-passed signal the detector listens
/// to; ``TapScore`` turns them into a tap score.
public struct OnsetFeatures: Sendable, Equatable, Codable {
    /// Mean power over the first 10 ms from the start over the local noise floor, dB. A tap
    /// holds its level for milliseconds; a brief excursion of the noise does not.
    public var sustainedSNR: Double
    /// From the start to the short-time power's peak, seconds. A contact transient peaks
    /// within a few milliseconds; speech and coughs build up for tens.
    public var attackDuration: Seconds
    /// Peak power over the masking level left by earlier sounds (falling from their peak at
    /// their own rate of decay, at least
    /// ``OnsetDetectorConfiguration/slowestMaskReleaseDBPerSecond``), or over floor + threshold
    /// when that is higher, in dB. Negative: the onset lies inside the decay
    /// of an earlier, louder sound, as a tap's ringing or rattle does.
    public var aboveMaskDB: Double
    /// Mean power from 10 to 50 ms after the start relative to the first 10 ms, dB, each with
    /// the noise floor's power taken out, and no deeper than the first 10 ms stand over the
    /// floor (nor than 60 dB), since a deeper decay cannot be measured. Taps decay (negative);
    /// sustained sounds such as coughs and speech do not. A metronome click that follows cuts
    /// the later stretch, and one 8–40 ms after the start has the decay read on the stretch
    /// before it too, the steeper reading counting (Docs/algorithms.md, the score's table).
    public var decayDB: Double
    /// Spectral centroid of the first 10 ms (Hann window, FFTW), over the band the detector
    /// listens to, Hz: where the sound's power sits. One surface tapped by one finger keeps its
    /// spectrum from tap to tap; a knuckle's knock or a click has another. Nil when not measured.
    public var spectralCentroid: Double?
    /// Spectral flatness of the same spectrum (geometric over arithmetic mean of the power,
    /// 0–1): near 1 for a noise-like contact burst, near 0 for a tone (a beep, a sine click).
    public var spectralFlatness: Double?
    /// Spectral centroid of the power the sound adds over the 10 ms before it, Hz: its own
    /// spectrum, with the noise it sits in (or the tail it rides on) taken out. A quiet tap's
    /// ``spectralCentroid`` reads high with the noise's power in it; this one does not
    /// (``TapScore`` compares sounds by it). Nil when not measured or when the sound adds
    /// almost nothing.
    public var soundCentroid: Double?
    /// How the power the sound adds over the 10 ms before it (as for ``soundCentroid``) spreads
    /// over octave bands, the first starting at the detector's high-pass cut-off: each band's
    /// share of that power in dB, no lower than −30. Two taps of one finger on one surface
    /// spread their power alike; a knuckle's knock or a key's plastic click spreads it
    /// otherwise, even where its centroid lies with the taps'. Nil when ``soundCentroid`` is.
    public var bandProfile: [Double]?
    /// Whether ``aboveMaskDB`` is measured over an earlier sound's decay (its mask stood over
    /// floor + threshold): the onset rose out of what was still sounding, not out of the
    /// background, and ``TapScore/tailMaskBoundary`` applies.
    public var onEarlierSound = false

    /// Creates a set of features.
    public init(sustainedSNR: Double, attackDuration: Seconds, aboveMaskDB: Double, decayDB: Double,
                spectralCentroid: Double? = nil, spectralFlatness: Double? = nil, soundCentroid: Double? = nil,
                bandProfile: [Double]? = nil, onEarlierSound: Bool = false) {
        self.sustainedSNR = sustainedSNR
        self.attackDuration = attackDuration
        self.aboveMaskDB = aboveMaskDB
        self.decayDB = decayDB
        self.spectralCentroid = spectralCentroid
        self.spectralFlatness = spectralFlatness
        self.soundCentroid = soundCentroid
        self.bandProfile = bandProfile
        self.onEarlierSound = onEarlierSound
    }

    enum CodingKeys: String, CodingKey {
        case sustainedSNR, attackDuration, aboveMaskDB, decayDB, spectralCentroid, spectralFlatness, soundCentroid, bandProfile, onEarlierSound
    }

    /// Decodes features; those written before ``onEarlierSound`` existed read as out of the
    /// background, and before ``soundCentroid`` or ``bandProfile`` as without them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(sustainedSNR: try container.decode(Double.self, forKey: .sustainedSNR),
                  attackDuration: try container.decode(Double.self, forKey: .attackDuration),
                  aboveMaskDB: try container.decode(Double.self, forKey: .aboveMaskDB),
                  decayDB: try container.decode(Double.self, forKey: .decayDB),
                  spectralCentroid: try container.decodeIfPresent(Double.self, forKey: .spectralCentroid),
                  spectralFlatness: try container.decodeIfPresent(Double.self, forKey: .spectralFlatness),
                  soundCentroid: try container.decodeIfPresent(Double.self, forKey: .soundCentroid),
                  bandProfile: try container.decodeIfPresent([Double].self, forKey: .bandProfile),
                  onEarlierSound: try container.decodeIfPresent(Bool.self, forKey: .onEarlierSound) ?? false)
    }
}

extension OnsetFeatures {
    /// These features without the values that are not numbers (infinite or NaN), as an onset
    /// a script made may hold: nil where one of the four the tap score always reads (sustained
    /// SNR, attack, height over the mask, decay) is one; otherwise the optional measurements
    /// that are not numbers, and a band profile with any band that is not, become nil. The
    /// detector's own features are numbers throughout and come back unchanged.
    var measurable: OnsetFeatures? {
        guard sustainedSNR.isFinite, attackDuration.isFinite, aboveMaskDB.isFinite, decayDB.isFinite else { return nil }
        var features = self
        if spectralCentroid?.isFinite == false { features.spectralCentroid = nil }
        if spectralFlatness?.isFinite == false { features.spectralFlatness = nil }
        if soundCentroid?.isFinite == false { features.soundCentroid = nil }
        if bandProfile?.allSatisfy(\.isFinite) == false { features.bandProfile = nil }
        return features
    }
}

extension Onset {
    /// The onset with only measurable features (`OnsetFeatures.measurable`).
    var measurable: Onset {
        var onset = self
        onset.features = features?.measurable
        return onset
    }

    /// The onset as the classification leaves one without a finite time, which has no place
    /// in the taps' rhythm: another sound, score 0.
    var unplaced: Onset {
        var onset = self
        onset.tapScore = 0
        onset.kind = .other
        return onset
    }
}

