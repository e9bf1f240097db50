/// Finds `<filename>` elements in XML text without parsing the rest of the document.
///
/// Byte-based and forward-only; it tracks the line number for error messages.
struct TrackListScanner {
    private let bytes: [UInt8]
    private let path: String
    private var position = 0
    private var line = 1

    init(text: String, path: String) {
        self.bytes = Array(text.utf8)
        self.path = path
    }

    /// The decoded, trimmed contents of every `<filename>` element, in document order.
    mutating func fileNames() throws(TapDataError) -> [String] {
        try entries().map(\.name)
    }

    /// Every `<filename>` element's contents and the line its tag opens on.
    mutating func entries() throws(TapDataError) -> [(name: String, line: Int)] {
        var names: [(name: String, line: Int)] = []
        while position < bytes.count {
            if bytes[position] == UInt8(ascii: "<") {
                if matches("<!--") {
                    try skipComment()
                    continue
                }
                if matches("<![CDATA[") {
                    // Character data outside a <filename> cannot hide a tag; skip it whole.
                    _ = try skipCDATA()
                    continue
                }
                if matchesTag("<filename") {
                    let openLine = line
                    names.append((try element(), openLine))
                    continue
                }
            }
            advance()
        }
        return names
    }

    /// Reads one element, starting at its `<filename`.
    private mutating func element() throws(TapDataError) -> String {
        let openLine = line
        advance(by: 9)  // "<filename"
        while position < bytes.count && bytes[position] != UInt8(ascii: ">") { advance() }
        guard position < bytes.count else {
            throw unterminated(openLine, "the <filename tag is not closed with '>'")
        }
        let selfClosing = bytes[position - 1] == UInt8(ascii: "/")
        advance()
        if selfClosing { throw empty(openLine) }

        var content: [UInt8] = []
        while true {
            guard position < bytes.count else {
                throw unterminated(openLine, "no </filename> before the end of the file")
            }
            let byte = bytes[position]
            if byte == UInt8(ascii: "<") {
                if matchesTag("</filename") {
                    advance(by: 10)
                    while position < bytes.count && isXMLSpace(bytes[position]) { advance() }
                    guard position < bytes.count, bytes[position] == UInt8(ascii: ">") else {
                        throw unterminated(openLine, "the </filename tag is not closed with '>'")
                    }
                    advance()
                    break
                }
                if matches("<![CDATA[") {
                    content.append(contentsOf: bytes[try skipCDATA()])
                    continue
                }
                if matches("<!--") {
                    try skipComment()
                    continue
                }
                if matchesTag("<filename") {
                    throw unterminated(openLine, "no </filename> before the next <filename> on line \(line)")
                }
            }
            if byte == UInt8(ascii: "&") {
                decodeReference(into: &content)
                continue
            }
            content.append(byte)
            advance()
        }

        var start = 0, end = content.count
        while start < end && isXMLSpace(content[start]) { start += 1 }
        while end > start && isXMLSpace(content[end - 1]) { end -= 1 }
        guard start < end else { throw empty(openLine) }
        let name = String(decoding: content[start..<end], as: UTF8.self)
        if let problem = Self.placeProblem(name) {
            throw .malformedLine(path: path, line: openLine, message: "\(quoted(name)) \(problem)")
        }
        return name
    }

    /// Why a stimulus name may not be used, or nil. Names are paths relative to the experiment
    /// folder (subfolders allowed), so that the folder can be moved and shared whole: an
    /// absolute path, or a `..` that leaves the folder, would tie it to one machine or reach
    /// files outside it.
    static func placeProblem(_ name: String) -> String? {
        if name.hasPrefix("/") { return "is an absolute path; name stimuli relative to the experiment folder" }
        if name.utf8.contains(0) { return "holds a NUL byte" }
        if name.split(separator: "/").contains("..") { return "leaves the experiment folder (..); keep stimuli inside it" }
        return nil
    }

    /// Decodes `&name;` or `&#…;` at the current position; anything else is kept literally.
    private mutating func decodeReference(into content: inout [UInt8]) {
        let nameStart = position + 1
        var end = nameStart
        while end < bytes.count && end - nameStart <= 10 && bytes[end] != UInt8(ascii: ";") { end += 1 }
        if end < bytes.count, bytes[end] == UInt8(ascii: ";"),
           let scalar = referencedScalar(bytes[nameStart..<end]) {
            content.append(contentsOf: String(Character(scalar)).utf8)
            advance(by: end + 1 - position)
        } else {
            content.append(UInt8(ascii: "&"))
            advance()
        }
    }

    private func referencedScalar(_ name: ArraySlice<UInt8>) -> Unicode.Scalar? {
        switch String(decoding: name, as: UTF8.self) {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        case let reference where reference.hasPrefix("#x") || reference.hasPrefix("#X"):
            return UInt32(reference.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
        case let reference where reference.hasPrefix("#"):
            return UInt32(reference.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
        default:
            return nil
        }
    }

    private mutating func skipComment() throws(TapDataError) {
        let openLine = line
        advance(by: 4)
        guard skip(past: "-->") else {
            throw .malformedLine(path: path, line: openLine, message: "unterminated comment <!--")
        }
    }

    /// Skips a CDATA section and returns the range of its raw contents.
    private mutating func skipCDATA() throws(TapDataError) -> Range<Int> {
        let openLine = line
        advance(by: 9)
        let start = position
        guard skip(past: "]]>") else {
            throw .malformedLine(path: path, line: openLine, message: "unterminated <![CDATA[ section")
        }
        return start..<(position - 3)
    }

    /// Moves just past the next `terminator`; `false` (at the end) if there is none.
    private mutating func skip(past terminator: StaticString) -> Bool {
        while position < bytes.count {
            if matches(terminator) {
                advance(by: terminator.utf8CodeUnitCount)
                return true
            }
            advance()
        }
        return false
    }

    private func matches(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        return literal.withUTF8Buffer { literal in
            for k in 0..<count where bytes[position + k] != literal[k] { return false }
            return true
        }
    }

    /// `literal` followed by the end of the tag name, so `<filenames>` does not match.
    private func matchesTag(_ literal: StaticString) -> Bool {
        guard matches(literal) else { return false }
        let next = position + literal.utf8CodeUnitCount
        guard next < bytes.count else { return true }
        let byte = bytes[next]
        return byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || isXMLSpace(byte)
    }

    private mutating func advance() {
        if bytes[position] == UInt8(ascii: "\n") { line += 1 }
        position += 1
    }

    private mutating func advance(by count: Int) {
        for _ in 0..<count where position < bytes.count { advance() }
    }

    private func unterminated(_ openLine: Int, _ detail: String) -> TapDataError {
        .malformedLine(path: path, line: openLine, message: "unterminated <filename> element: \(detail)")
    }

    private func empty(_ openLine: Int) -> TapDataError {
        .malformedLine(path: path, line: openLine, message: "empty <filename> element")
    }
}

/// XML's whitespace: space, tab, carriage return, line feed.
private func isXMLSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
}

/// Escapes text for an XML element: `&`, `<` and `>`.
func escapeXML(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for character in text {
        switch character {
        case "&": result += "&amp;"
        case "<": result += "&lt;"
        case ">": result += "&gt;"
        default: result.append(character)
        }
    }
    return result
}
