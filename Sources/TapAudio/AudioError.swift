/// Why an audio file could not be read or written, or audio could not be converted. Every
/// case about a file names the file.
public enum AudioError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened: missing, unreadable, or not a format libsndfile knows.
    case cannotOpen(path: String, reason: String)
    /// The file holds no audio frames.
    case empty(path: String)
    /// Fewer frames could be decoded than the header announces (a truncated or corrupt file).
    case truncated(path: String, expectedFrames: Int, readFrames: Int)
    /// A decoding error part-way through the file.
    case readFailed(path: String, reason: String)
    /// The requested channel does not exist.
    case noSuchChannel(path: String, channel: Int, channelCount: Int)
    /// The header describes audio no recording has: a sample rate outside 8–384 kHz, more
    /// than 32 channels, a sample width that is not whole bytes, or a data size that
    /// disagrees with the file's length. The reason says which.
    case implausibleFormat(path: String, reason: String)
    /// A sample is NaN, infinite or beyond ±``AudioFileReader/largestSample`` (a corrupt
    /// float file): `frame` is the first such frame of the channel read.
    case invalidSample(path: String, frame: Int, sampleRate: Double, value: Float)
    /// The file could not be written.
    case writeFailed(path: String, reason: String)
    /// The requested output format cannot hold this audio (e.g. too many channels for FLAC).
    case unsupportedOutput(path: String, reason: String)
    /// A sample-rate conversion that cannot be set up: a rate or channel count that is not
    /// positive, a rate that is not a whole number, or channels of unequal length. The reason
    /// names the rates.
    case invalidResampling(String)

    /// The file the error is about; empty for ``invalidResampling(_:)``, which has none.
    public var path: String {
        switch self {
        case .cannotOpen(let path, _), .empty(let path), .truncated(let path, _, _),
             .readFailed(let path, _), .noSuchChannel(let path, _, _),
             .writeFailed(let path, _), .unsupportedOutput(let path, _),
             .implausibleFormat(let path, _), .invalidSample(let path, _, _, _):
            return path
        case .invalidResampling:
            return ""
        }
    }

    /// The message: the file, then what is wrong with it.
    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            return "\(path): cannot open audio file: \(reason)"
        case .empty(let path):
            return "\(path): audio file holds no frames"
        case .truncated(let path, let expected, let read):
            return "\(path): truncated or corrupt audio: header announces \(expected) frames, only \(read) could be read"
        case .readFailed(let path, let reason):
            return "\(path): audio decoding failed: \(reason)"
        case .noSuchChannel(let path, let channel, let count):
            return "\(path): no channel \(channel + 1); the file has \(count) channel\(count == 1 ? "" : "s")"
        case .implausibleFormat(let path, let reason):
            return "\(path): implausible audio header: \(reason); the file is corrupt or not a recording"
        case .invalidSample(let path, let frame, let rate, let value):
            let what = value.isNaN ? "a NaN sample" : value.isInfinite ? "an infinite sample"
                : "the sample \(value), beyond ±\(Int(AudioFileReader.largestSample))"
            let time = (Double(frame) / rate * 1_000).rounded() / 1_000
            return "\(path): frame \(frame) (\(time) s) holds \(what); the file is corrupt"
        case .writeFailed(let path, let reason):
            return "\(path): cannot write audio file: \(reason)"
        case .unsupportedOutput(let path, let reason):
            return "\(path): unsupported output format: \(reason)"
        case .invalidResampling(let reason):
            return "cannot resample: \(reason)"
        }
    }
}
