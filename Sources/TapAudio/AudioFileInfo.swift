import CSndFile

/// What an audio file's header says.
public struct AudioFileInfo: Sendable, Equatable {
    /// Frames (samples per channel) the header announces.
    public var frameCount: Int
    /// Frames per second.
    public var sampleRate: Double
    /// Channels per frame.
    public var channelCount: Int
    /// libsndfile's format code (major type | subtype).
    public var formatCode: Int32

    /// Length in seconds.
    public var duration: Seconds { Double(frameCount) / sampleRate }

    /// A short human-readable name of the container and encoding, e.g. "WAV PCM 16".
    public var formatName: String {
        let major = Int(formatCode) & SF_FORMAT_TYPEMASK
        let sub = Int(formatCode) & SF_FORMAT_SUBMASK
        let majorName = Self.majorNames[major] ?? String(format: major)
        let subName = Self.subNames[sub] ?? String(format: sub)
        return "\(majorName) \(subName)"
    }

    private static let majorNames: [Int: String] = [
        SF_FORMAT_WAV: "WAV", SF_FORMAT_AIFF: "AIFF",
        SF_FORMAT_FLAC: "FLAC", SF_FORMAT_OGG: "OGG",
        SF_FORMAT_W64: "W64", SF_FORMAT_RF64: "RF64",
        SF_FORMAT_CAF: "CAF", SF_FORMAT_AU: "AU",
        SF_FORMAT_WAVEX: "WAVEX",
    ]
    private static let subNames: [Int: String] = [
        SF_FORMAT_PCM_S8: "PCM 8", SF_FORMAT_PCM_U8: "PCM 8",
        SF_FORMAT_PCM_16: "PCM 16", SF_FORMAT_PCM_24: "PCM 24",
        SF_FORMAT_PCM_32: "PCM 32", SF_FORMAT_FLOAT: "float",
        SF_FORMAT_DOUBLE: "double", SF_FORMAT_VORBIS: "Vorbis",
        SF_FORMAT_OPUS: "Opus",
    ]
}

private extension String {
    init(format code: Int) { self = "0x" + String(code, radix: 16) }
}
