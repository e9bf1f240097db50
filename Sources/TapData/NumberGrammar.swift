/// The one number grammar of every TapKit text format (timestamps, play orders, metronome
/// programs, tap files, command-line values).
///
/// A decimal number is ASCII only: an optional minus sign, digits with an optional point
/// (`12`, `0.835918`, `12.`, `.5`), then an optional exponent (`1e-3`, `2.5E+2`). Nothing
/// else: no plus sign, no hexadecimal (`0x1p1`), no `inf` or `nan`, no spaces or control
/// bytes inside, no digit from another script, and the value must be finite. An integer is
/// an optional minus sign and ASCII digits that fit 64 bits.
///
/// Swift's `Double(String)` is laxer (it accepts `+2.5`, `0x1p1`, `inf`, `nan`) and stops at
/// a NUL byte, so `2\u{0}9.0` would read as 2: every reader goes through here instead.
public enum NumberGrammar {
    /// The value of a decimal number, or nil when `text` is not one or is not finite.
    public static func decimal(_ text: some StringProtocol) -> Double? {
        let bytes = Array(text.utf8)
        guard isDecimal(bytes), let value = Double(String(decoding: bytes, as: UTF8.self)), value.isFinite else {
            return nil
        }
        return value + 0.0  // -0 reads as 0
    }

    /// The value of an integer, or nil when `text` is not one or does not fit `Int`.
    public static func integer(_ text: some StringProtocol) -> Int? {
        let bytes = Array(text.utf8)
        let digits = bytes.first == UInt8(ascii: "-") ? bytes.dropFirst() : bytes[...]
        guard !digits.isEmpty, digits.allSatisfy(isDigit) else { return nil }
        return Int(String(decoding: bytes, as: UTF8.self))
    }

    /// Whether `bytes` follow the decimal grammar (the value may still overflow).
    static func isDecimal(_ bytes: [UInt8]) -> Bool {
        var index = 0
        if index < bytes.count && bytes[index] == UInt8(ascii: "-") { index += 1 }
        let wholeStart = index
        while index < bytes.count && isDigit(bytes[index]) { index += 1 }
        var digits = index - wholeStart
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < bytes.count && isDigit(bytes[index]) { index += 1 }
            digits += index - fractionStart
        }
        guard digits > 0 else { return false }
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")) { index += 1 }
            let exponentStart = index
            while index < bytes.count && isDigit(bytes[index]) { index += 1 }
            guard index > exponentStart else { return false }
        }
        return index == bytes.count
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
