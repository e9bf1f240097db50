/// One tapping task of a Tap-It session: a user tapping along to one track.
///
/// Tap-It names a task's files `NNN_TT` — the user id zero-padded to 3 digits and the
/// 1-based track number zero-padded to 2 — so `001_01.txt` and `001_01.wav` belong to
/// ``user`` 1, ``track`` 1. Wider numbers are written in full (`1234_105`).
///
/// Task ids order by user, then track, which is also the order of their names as long
/// as the numbers fit the padding.
public struct TaskID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The numeric user (participant) id.
    public var user: Int
    /// The 1-based track number.
    public var track: Int

    /// A task id from its two numbers, both non-negative.
    public init(user: Int, track: Int) {
        precondition(user >= 0 && track >= 0, "TaskID numbers must be non-negative")
        self.user = user
        self.track = track
    }

    /// Parses a file name without its extension, such as `"001_01"` or `"1234_105"`.
    ///
    /// Both parts must be ASCII decimal digits (no sign, no spaces); zero padding is
    /// optional, so `"1_1"` is the same task as `"001_01"`. Returns `nil` for anything else.
    public init?(fileStem: some StringProtocol) {
        let utf8 = fileStem.utf8
        guard let underscore = utf8.firstIndex(of: UInt8(ascii: "_")),
              let user = parseDecimal(utf8[utf8.startIndex..<underscore]),
              let track = parseDecimal(utf8[utf8.index(after: underscore)...])
        else { return nil }
        self.init(user: user, track: track)
    }

    /// `NNN_TT`: the user padded to 3 digits, the track to 2, wider numbers in full.
    public var description: String {
        zeroPadded(user, width: 3) + "_" + zeroPadded(track, width: 2)
    }

    /// The name of the task's tap-timestamp file, e.g. `001_01.txt`.
    public var timestampsFileName: String { description + ".txt" }

    /// The name of the task's recording with the given extension, e.g. `001_01.wav`.
    public func audioFileName(extension ext: String = "wav") -> String {
        description + "." + ext
    }

    /// Orders by user, then track.
    public static func < (lhs: TaskID, rhs: TaskID) -> Bool {
        (lhs.user, lhs.track) < (rhs.user, rhs.track)
    }

    /// Encodes as the single string `"001_01"`, which is how results name tasks.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Decodes the string form written by ``encode(to:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = TaskID(fileStem: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected a task id like \"001_01\", got \"\(text)\"")
        }
        self = id
    }
}

/// A non-negative decimal made only of ASCII digits, or `nil` (empty, other
/// characters, or too large for `Int`).
func parseDecimal(_ digits: some Collection<UInt8>) -> Int? {
    guard !digits.isEmpty else { return nil }
    var value = 0
    for byte in digits {
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        let (times10, o1) = value.multipliedReportingOverflow(by: 10)
        let (sum, o2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
        guard !o1, !o2 else { return nil }
        value = sum
    }
    return value
}

/// `value` in decimal, with leading zeros up to `width` digits.
func zeroPadded(_ value: Int, width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

/// A file name split at its last dot: `("001_01", "wav")`; `nil` extension when there is
/// no dot, or only a leading one (hidden files such as `.DS_Store`).
func splitExtension(_ name: String) -> (stem: Substring, ext: Substring?) {
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else {
        return (name[...], nil)
    }
    return (name[..<dot], name[name.index(after: dot)...])
}
