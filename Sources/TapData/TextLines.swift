/// The lines of a UTF-8 text as byte ranges, trimmed of surrounding whitespace.
///
/// Works on bytes because Swift's `Character` treats `"\r\n"` as one character, so a
/// `String.split(separator: "\n")` would not split Windows line endings; bytes are also
/// faster for hour-long tap logs. A final newline does not start an extra line.
struct TextLines: Sequence, IteratorProtocol {
    /// One line: its 1-based number and the trimmed range in ``TextLines/bytes``.
    struct Line {
        var number: Int
        var range: Range<Int>
        var isBlank: Bool { range.isEmpty }
    }

    let bytes: [UInt8]
    private var position = 0
    private var number = 0

    init(_ text: String) {
        var bytes = Array(text.utf8)
        // A byte-order mark from a Windows editor is not part of the first line.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        self.bytes = bytes
    }

    mutating func next() -> Line? {
        guard position < bytes.count else { return nil }
        number += 1
        var end = position
        while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
        var start = position
        position = end < bytes.count ? end + 1 : end
        while start < end && isASCIISpace(bytes[start]) { start += 1 }
        while end > start && isASCIISpace(bytes[end - 1]) { end -= 1 }
        return Line(number: number, range: start..<end)
    }

    /// The text of a byte range.
    func text(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    /// The ranges of the whitespace-separated words of a line.
    func words(_ range: Range<Int>) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var i = range.lowerBound
        while i < range.upperBound {
            while i < range.upperBound && isASCIISpace(bytes[i]) { i += 1 }
            let start = i
            while i < range.upperBound && !isASCIISpace(bytes[i]) { i += 1 }
            if i > start { result.append(start..<i) }
        }
        return result
    }
}

/// Space, tab, carriage return, vertical tab, form feed.
func isASCIISpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || (byte >= 0x09 && byte <= 0x0D && byte != 0x0A)
}

/// A line's text for an error message, quoted and cut to about 40 characters so that a
/// binary file pasted in by mistake does not flood the terminal.
func quoted(_ text: String, limit: Int = 40) -> String {
    text.count <= limit ? "\"\(text)\"" : "\"\(text.prefix(limit))…\""
}
