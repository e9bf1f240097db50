import TapData
import Foundation

/// An exact fraction, always in lowest terms with a positive denominator. Click positions are
/// computed in these and rounded to a frame once, so no error accumulates however long a
/// metronome runs.
public struct Rational: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The numerator (any sign).
    public let numerator: Int64
    /// The denominator (> 0).
    public let denominator: Int64

    /// `numerator / denominator`, reduced. The denominator must not be 0.
    public init(_ numerator: Int64, _ denominator: Int64 = 1) {
        precondition(denominator != 0, "a fraction's denominator cannot be 0")
        let divisor = Int64(Wide.gcd(Int128(numerator), Int128(denominator)))
        let sign: Int64 = denominator < 0 ? -1 : 1
        self.numerator = sign * numerator / divisor
        self.denominator = sign * denominator / divisor
    }

    /// An integer.
    public init(_ value: Int) { self.init(Int64(value), 1) }

    /// Parses `120`, `120.5`, `.5` (a decimal of up to 6 places, exactly: 241/2) or `241/2`
    /// (integer parts up to 10⁹); nil for anything else, including a lone `-` and surrounding
    /// or inner spaces of any kind (the number grammar, Docs/file-formats.md).
    public init?(_ text: some StringProtocol) {
        let text = String(text)
        guard !text.isEmpty, text != ".", text != "-", text != "-." else { return nil }
        if let slash = text.firstIndex(of: "/") {
            guard let top = NumberGrammar.integer(text[..<slash]).map(Int64.init),
                  let bottom = NumberGrammar.integer(text[text.index(after: slash)...]).map(Int64.init), bottom != 0,
                  top.magnitude <= 1_000_000_000, bottom.magnitude <= 1_000_000_000 else {
                return nil
            }
            self.init(top, bottom)
            return
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count),
              parts.count == 1 || (parts[1].count <= 6 && parts[1].allSatisfy({ $0.isASCII && $0.isNumber }) && !parts[1].isEmpty),
              let whole = NumberGrammar.integer(parts[0].isEmpty || parts[0] == "-" ? parts[0] + "0" : parts[0]).map(Int64.init),
              whole.magnitude <= 1_000_000_000 else { return nil }
        guard parts.count == 2 else {
            self.init(whole, 1)
            return
        }
        var scale: Int64 = 1
        for _ in parts[1] { scale *= 10 }
        let fraction = Int64(parts[1])!
        let negative = parts[0].hasPrefix("-")
        self.init(whole * scale + (negative ? -fraction : fraction), scale)
    }

    /// A fraction from wide parts, reduced; it must fit 64 bits once reduced (see
    /// `init?(checkedWide:)` for the form that reports overflow).
    init(wide numerator: Int128, _ denominator: Int128) {
        guard let value = Rational(checkedWide: numerator, denominator) else { preconditionFailure("exact arithmetic overflow") }
        self = value
    }

    /// The exact sum (traps on 64-bit overflow; `plus(_:)` reports it instead).
    public static func + (a: Rational, b: Rational) -> Rational {
        Rational(wide: Int128(a.numerator) * Int128(b.denominator) + Int128(b.numerator) * Int128(a.denominator),
                 Int128(a.denominator) * Int128(b.denominator))
    }
    /// The exact difference (traps on 64-bit overflow; `minus(_:)` reports it instead).
    public static func - (a: Rational, b: Rational) -> Rational { a + Rational(-b.numerator, b.denominator) }
    /// The exact product (traps on 64-bit overflow; `times(_:)` reports it instead).
    public static func * (a: Rational, b: Rational) -> Rational {
        Rational(wide: Int128(a.numerator) * Int128(b.numerator), Int128(a.denominator) * Int128(b.denominator))
    }
    /// The exact quotient; `b` must not be zero.
    public static func / (a: Rational, b: Rational) -> Rational {
        precondition(b.numerator != 0, "division by zero")
        return a * Rational(b.denominator, b.numerator)
    }
    /// Exact comparison, in wide arithmetic.
    public static func < (a: Rational, b: Rational) -> Bool {
        Int128(a.numerator) * Int128(b.denominator) < Int128(b.numerator) * Int128(a.denominator)
    }

    /// The nearest integer, halves rounded up (towards +∞).
    public var roundedToNearest: Int64 { Int64(Wide.rounded(Int128(numerator), over: Int128(denominator))) }

    /// The value as a `Double` (for display and for times in seconds).
    public var doubleValue: Double { Double(numerator) / Double(denominator) }

    /// `3` or `241/2`.
    public var description: String { denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)" }
}

/// `round(numerator / denominator)` for wide parts, halves up: the one rounding of a click's
/// exact time × rate to a frame.
func roundedProduct(_ numerator: Int128, _ denominator: Int128) -> Int {
    precondition(denominator > 0)
    return Int(Wide.rounded(numerator, over: denominator))
}
