import TapAudio
import TapData
/// Why one task of a batch could not be analysed. Every case names the file.
public enum AnalysisError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A text file or the folder layout was at fault (the message names file and line).
    case data(TapDataError)
    /// The recording could not be decoded.
    case audio(AudioError)

    /// The file the problem is in.
    public var path: String {
        switch self {
        case .data(let error): return error.path
        case .audio(let error): return error.path
        }
    }

    /// The message, naming the file.
    public var description: String {
        switch self {
        case .data(let error): return error.description
        case .audio(let error): return error.description
        }
    }
}
