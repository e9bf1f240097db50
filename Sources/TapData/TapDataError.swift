/// A problem with a Tap-It data file or folder.
///
/// Every case names the file it is about, and textual problems also carry the 1-based
/// line, so that ``description`` reads like a compiler message (`path:line: message`)
/// that editors and terminals can jump to.
public enum TapDataError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A line of a text file could not be understood. `line` is 1-based.
    case malformedLine(path: String, line: Int, message: String)
    /// The bytes of a text file are not valid UTF-8; `line` is where the first bad byte is.
    case invalidUTF8(path: String, line: Int)
    /// The file or folder does not exist.
    case notFound(path: String)
    /// The file or folder exists but cannot be read (permissions, a directory where a file
    /// was expected, a broken symbolic link, an I/O error).
    case unreadable(path: String, reason: String)
    /// The file cannot be written.
    case unwritable(path: String, reason: String)
    /// A value handed to a writer cannot be represented in the file format.
    /// `index` is the 0-based position in the array that was passed in.
    case invalidValue(path: String, index: Int, message: String)
    /// A Tap-It data folder was expected, but the path is a file.
    case notADirectory(path: String)
    /// The folder contains no file whose name follows the Tap-It patterns.
    case noTapItFiles(path: String)
    /// A tap-timestamp file (`path`) has no microphone recording beside it.
    case missingAudio(path: String, task: TaskID)
    /// A microphone recording (`path`) has no tap-timestamp file beside it.
    case missingTimestamps(path: String, task: TaskID)
    /// A second recording (`path`) for a task that already has one (`otherPath`).
    case duplicateAudio(path: String, task: TaskID, otherPath: String)
    /// A second tap-timestamp file (`path`, e.g. `1_1.txt` beside `001_01.txt`).
    case duplicateTimestamps(path: String, task: TaskID, otherPath: String)
    /// A second play-order file for the same user.
    case duplicatePlayOrder(path: String, user: Int, otherPath: String)
    /// Files that are each well-formed but disagree with one another (a play order that
    /// leaves out a task's track, an index beyond the track list). `line` is 1-based, when
    /// the problem is on one line.
    case inconsistent(path: String, line: Int?, message: String)

    /// The file or folder the problem is about.
    public var path: String {
        switch self {
        case .malformedLine(let path, _, _), .invalidUTF8(let path, _),
             .notFound(let path), .unreadable(let path, _), .unwritable(let path, _),
             .invalidValue(let path, _, _), .notADirectory(let path), .noTapItFiles(let path),
             .missingAudio(let path, _), .missingTimestamps(let path, _),
             .duplicateAudio(let path, _, _), .duplicateTimestamps(let path, _, _),
             .duplicatePlayOrder(let path, _, _), .inconsistent(let path, _, _):
            return path
        }
    }

    /// The 1-based line the problem is on, for problems inside a text file.
    public var line: Int? {
        switch self {
        case .malformedLine(_, let line, _), .invalidUTF8(_, let line):
            return line
        case .inconsistent(_, let line, _):
            return line
        default:
            return nil
        }
    }

    /// The message without the `path:` / `path:line:` prefix.
    public var message: String {
        switch self {
        case .malformedLine(_, _, let message), .inconsistent(_, _, let message):
            return message
        case .invalidUTF8:
            return "not valid UTF-8 text"
        case .notFound:
            return "no such file or directory"
        case .unreadable(_, let reason):
            return "cannot read: \(reason)"
        case .unwritable(_, let reason):
            return "cannot write: \(reason)"
        case .invalidValue(_, let index, let message):
            return "cannot write item \(index): \(message)"
        case .notADirectory:
            return "not a directory; expected a Tap-It data folder"
        case .noTapItFiles:
            return "no Tap-It files found; expected NNN_TT.txt tap timestamps with "
                + "NNN_TT.wav (or .flac, .aiff, …) recordings and NNN_play_order.txt "
                + "directly in this folder (subfolders are not searched)"
        case .missingAudio(_, let task):
            return "no microphone recording for task \(task) (expected \(task).wav "
                + "or another audio file beside it)"
        case .missingTimestamps(_, let task):
            return "no tap timestamps for task \(task) (expected \(task).txt beside it)"
        case .duplicateAudio(_, let task, let other):
            return "second recording for task \(task), besides \(lastComponent(other)); "
                + "cannot tell which one belongs to the taps"
        case .duplicateTimestamps(_, let task, let other):
            return "second tap-timestamp file for task \(task), besides \(lastComponent(other))"
        case .duplicatePlayOrder(_, let user, let other):
            return "second play-order file for user \(user), besides \(lastComponent(other))"
        }
    }

    /// `path:line: message` for problems inside a text file, `path: message` otherwise.
    public var description: String {
        if let line { return "\(path):\(line): \(message)" }
        return "\(path): \(message)"
    }
}

/// The file name of a path, for messages that already name the directory.
private func lastComponent(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
}
