/// An experiment's `trackList.xml`: the stimulus files, in track order, as
/// `<filename>…</filename>` elements.
///
/// Only `<filename>` elements matter, wherever they are nested, so the reader is a small
/// tolerant scanner rather than a full XML parser: it skips comments, accepts attributes
/// on the tag, unwraps CDATA sections and decodes the predefined entities
/// (`&amp; &lt; &gt; &quot; &apos;`) and numeric character references. Surrounding
/// whitespace inside an element is dropped. Track `n` of a task id is element `n`
/// (1-based); play-order files index the same list from 0.
public enum TrackList {
    /// Reads the stimulus file names of a `trackList.xml`.
    public static func read(_ path: String) throws(TapDataError) -> [String] {
        try parse(TextFile.read(path), path: path)
    }

    /// Parses the text of a `trackList.xml`; `path` is only used in error messages.
    ///
    /// Errors (with the line of the opening tag): a `<filename>` without its closing
    /// tag, an empty element, an unterminated comment, and a name that is an absolute path or
    /// leaves the experiment folder with `..` (names are relative to the folder, subfolders
    /// allowed, so an experiment can be moved and shared whole).
    public static func parse(_ text: String, path: String) throws(TapDataError) -> [String] {
        var scanner = TrackListScanner(text: text, path: path)
        return try scanner.fileNames()
    }

    /// Reads a track list keeping the line of every `<filename>` element, for messages.
    public static func readEntries(_ path: String) throws(TapDataError) -> [(name: String, line: Int)] {
        var scanner = TrackListScanner(text: try TextFile.read(path), path: path)
        return try scanner.entries()
    }

    /// Writes a track list that ``read(_:)`` returns unchanged.
    ///
    /// Throws ``TapDataError/invalidValue(path:index:message:)`` for an empty name or
    /// one with leading or trailing whitespace, which the reader would not give back.
    public static func write(_ fileNames: [String], to path: String) throws(TapDataError) {
        for (index, name) in fileNames.enumerated() {
            if name.isEmpty {
                throw .invalidValue(path: path, index: index, message: "empty file name")
            }
            if let first = name.unicodeScalars.first, let last = name.unicodeScalars.last,
               first.properties.isWhitespace || last.properties.isWhitespace {
                throw .invalidValue(path: path, index: index,
                                    message: "file name \(quoted(name)) starts or ends with whitespace")
            }
            if let problem = TrackListScanner.placeProblem(name) {
                throw .invalidValue(path: path, index: index, message: "\(quoted(name)) \(problem)")
            }
        }
        try TextFile.write(format(fileNames), to: path)
    }

    /// The XML text: a `<trackList>` root with one `<track><filename>…</filename></track>`
    /// per name, `&`, `<` and `>` escaped.
    public static func format(_ fileNames: [String]) -> String {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<trackList>\n"
        for name in fileNames {
            text += "    <track><filename>\(escapeXML(name))</filename></track>\n"
        }
        text += "</trackList>\n"
        return text
    }
}
