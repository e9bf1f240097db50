import Foundation
import TapAudio

/// Reading and writing whole small text files with errors that name the file.
///
/// Tap-It files are at most a few thousand lines, so reading them whole is simpler and
/// faster than streaming.
enum TextFile {
    /// The file's contents as UTF-8 text, without a leading byte-order mark.
    static func read(_ path: String) throws(TapDataError) -> String {
        if let problem = FileKind.problem(readingFileAt: path) {
            throw problem == "no such file" ? .notFound(path: path) : .unreadable(path: path, reason: problem)
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadable(path: path, reason: fileErrorReason(error))
        }
        return try decodeUTF8(data, path: path)
    }

    /// Writes `text` as UTF-8, atomically so that a failed write leaves no half file.
    static func write(_ text: String, to path: String) throws(TapDataError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .unwritable(path: path, reason: "is a directory")
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw .unwritable(path: path, reason: fileErrorReason(error))
        }
    }

    /// Validates UTF-8 and reports the line of the first invalid byte.
    static func decodeUTF8(_ data: Data, path: String) throws(TapDataError) -> String {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        throw .invalidUTF8(path: path, line: lineOfFirstInvalidByte(bytes))
    }

    /// 1-based line of the first byte sequence that is not UTF-8.
    private static func lineOfFirstInvalidByte(_ bytes: [UInt8]) -> Int {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var line = 1
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                if encoded.count == 1 && encoded.first == UInt8(ascii: "\n") { line += 1 }
            case .emptyInput, .error:
                return line
            }
        }
    }
}

/// A short human reason for a Foundation file error ("permission denied" rather than a
/// sentence that repeats the file name).
func fileErrorReason(_ error: any Error) -> String {
    if let error = error as? CocoaError {
        switch error.code {
        case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
        case .fileReadNoSuchFile, .fileNoSuchFile: return "no such file or directory"
        case .fileWriteOutOfSpace: return "no space left on device"
        case .fileWriteVolumeReadOnly: return "read-only file system"
        case .fileReadInvalidFileName, .fileWriteInvalidFileName: return "invalid file name"
        default: break
        }
    }
    return error.localizedDescription
}
