import Foundation

/// What a WAV file's header says, read from its bytes: what any WAV reader believes, not what
/// libsndfile makes of it (libsndfile guesses the length of a file whose header says 0).
public struct WAVHeader: Sendable, Equatable {
    /// The RIFF chunk's size field (the file's size minus 8 when the header is up to date).
    public var riffSize: Int
    /// Frames the `data` chunk's size field announces.
    public var dataFrames: Int
    /// Frames the file really holds after the data chunk's start.
    public var framesInFile: Int

    /// Parses `path`; nil when it is not a RIFF/WAVE file with `fmt ` and `data` chunks.
    public init?(path: String) {
        guard let bytes = FileManager.default.contents(atPath: path), bytes.count >= 12,
              bytes.prefix(4) == Data("RIFF".utf8), bytes[8..<12] == Data("WAVE".utf8) else { return nil }
        func le32(_ offset: Int) -> Int {
            (0..<4).reduce(0) { $0 | Int(bytes[bytes.startIndex + offset + $1]) << (8 * $1) }
        }
        riffSize = le32(4)
        var offset = 12
        var blockAlign = 0
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = le32(offset + 4)
            if id == "fmt " && offset + 8 + 14 <= bytes.count {
                blockAlign = Int(bytes[offset + 8 + 12]) | Int(bytes[offset + 8 + 13]) << 8
            }
            if id == "data" {
                guard blockAlign > 0 else { return nil }
                dataFrames = size / blockAlign
                framesInFile = (bytes.count - offset - 8) / blockAlign
                return
            }
            offset += 8 + size + size % 2
        }
        return nil
    }
}
