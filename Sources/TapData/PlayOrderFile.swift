/// Tap-It's play-order files (`NNN_play_order.txt`): the 0-based indices of the tracks
/// of `trackList.xml` in the order a user heard them, separated by spaces, e.g. `2 0 1 `.
///
/// Reading accepts any whitespace, including line breaks, between indices. Every index
/// must be a non-negative integer, and none may appear twice, since task files are named
/// by track and a repeated track would have overwritten its own files.
public enum PlayOrderFile {
    /// The file name Tap-It uses for a user's play order, e.g. `001_play_order.txt`.
    public static func fileName(user: Int) -> String {
        zeroPadded(user, width: 3) + "_play_order.txt"
    }

    /// The user id of a play-order file name such as `001_play_order.txt` (the extension
    /// in any case), or `nil` for any other name.
    public static func user(fromFileName name: String) -> Int? {
        let (stem, ext) = splitExtension(name)
        let suffix = "_play_order"
        guard ext?.lowercased() == "txt", stem.hasSuffix(suffix) else { return nil }
        return parseDecimal(stem.utf8.dropLast(suffix.utf8.count))
    }

    /// Reads and validates a play-order file.
    public static func read(_ path: String) throws(TapDataError) -> [Int] {
        try parse(TextFile.read(path), path: path)
    }

    /// Parses the text of a play-order file; `path` is only used in error messages.
    public static func parse(_ text: String, path: String) throws(TapDataError) -> [Int] {
        try parseEntries(text, path: path).map(\.index)
    }

    /// Reads a play-order file keeping the 1-based line of every index, for messages.
    public static func readEntries(_ path: String) throws(TapDataError) -> [(index: Int, line: Int)] {
        try parseEntries(TextFile.read(path), path: path)
    }

    /// Parses the text of a play-order file keeping the line of every index.
    public static func parseEntries(_ text: String, path: String) throws(TapDataError) -> [(index: Int, line: Int)] {
        var lines = TextLines(text)
        var order: [(index: Int, line: Int)] = []
        var lineOfIndex: [Int: Int] = [:]
        while let line = lines.next() {
            for word in lines.words(line.range) {
                let token = lines.text(word)
                guard let index = parseDecimal(lines.bytes[word]) else {
                    let message: String
                    if let number = Int(token), number < 0 {
                        message = "negative track index \(token); indices are 0-based"
                    } else {
                        message = "not a track index (a non-negative integer): \(quoted(token))"
                    }
                    throw .malformedLine(path: path, line: line.number, message: message)
                }
                if let earlier = lineOfIndex[index] {
                    throw .malformedLine(
                        path: path, line: line.number,
                        message: "track index \(index) appears twice (first on line \(earlier))")
                }
                lineOfIndex[index] = line.number
                order.append((index, line.number))
            }
        }
        return order
    }

    /// Writes a play order, after checking that ``read(_:)`` will accept it.
    public static func write(_ order: [Int], to path: String) throws(TapDataError) {
        var seen = Set<Int>()
        for (position, index) in order.enumerated() {
            if index < 0 {
                throw .invalidValue(path: path, index: position, message: "negative track index \(index)")
            }
            if !seen.insert(index).inserted {
                throw .invalidValue(path: path, index: position, message: "track index \(index) appears twice")
            }
        }
        try TextFile.write(format(order), to: path)
    }

    /// The file text exactly as Tap-It wrote it: each index followed by one space, no
    /// line break (`"2 0 1 "`).
    public static func format(_ order: [Int]) -> String {
        order.map { "\($0) " }.joined()
    }
}
