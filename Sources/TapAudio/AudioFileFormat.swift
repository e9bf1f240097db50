import CSndFile

/// An output file format: a container and a sample encoding.
public enum AudioFileFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    /// WAV, 16-bit PCM (what Tap-It wrote).
    case wav16
    /// WAV, 24-bit PCM.
    case wav24
    /// WAV, 32-bit PCM.
    case wav32
    /// WAV, 32-bit float.
    case wavFloat
    /// FLAC, 16-bit.
    case flac16
    /// FLAC, 24-bit.
    case flac24
    /// AIFF, 16-bit PCM.
    case aiff16
    /// OGG Vorbis (lossy; for stimuli, not for recordings to be analysed).
    case oggVorbis

    /// The format's name, as `--audio-format` takes it.
    public var description: String { rawValue }

    /// The format a file name's extension suggests (`.wav` → 16-bit WAV, `.flac` → 16-bit
    /// FLAC, `.aif`/`.aiff` → AIFF, `.ogg` → Vorbis), or nil for an unknown extension.
    public init?(pathExtension path: String) {
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "wav", "wave": self = .wav16
        case "flac": self = .flac16
        case "aif", "aiff": self = .aiff16
        case "ogg", "oga": self = .oggVorbis
        default: return nil
        }
    }

    /// Bytes one sample takes in the file (for compressed formats, an upper bound).
    var bytesPerSample: Int {
        switch self {
        case .wav16, .flac16, .aiff16, .oggVorbis: return 2
        case .wav24, .flac24: return 3
        case .wav32, .wavFloat: return 4
        }
    }

    /// True for the containers (WAV, AIFF) whose header states the data's length and can be
    /// rewritten in place as the file grows.
    var headerHoldsLength: Bool {
        switch self {
        case .wav16, .wav24, .wav32, .wavFloat, .aiff16: return true
        case .flac16, .flac24, .oggVorbis: return false
        }
    }

    /// libsndfile's format code.
    var code: Int32 {
        switch self {
        case .wav16: return Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
        case .wav24: return Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_24)
        case .wav32: return Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_32)
        case .wavFloat: return Int32(SF_FORMAT_WAV | SF_FORMAT_FLOAT)
        case .flac16: return Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
        case .flac24: return Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_24)
        case .aiff16: return Int32(SF_FORMAT_AIFF | SF_FORMAT_PCM_16)
        case .oggVorbis: return Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS)
        }
    }
}
