import TapData
/// A note length: `1/d` of a whole note, d in 1…99, optionally dotted.
///
/// A denominator that is not a power of two is an n-let: `1/12` is a triplet eighth (three in
/// the time of two eighths), `1/5` a quintuplet quarter. One dot adds half the value, two dots
/// three quarters.
public struct NoteValue: Sendable, Hashable, CustomStringConvertible {
    /// d in 1/d of a whole note, 1…99.
    public let denominator: Int
    /// 0, 1 or 2.
    public let dots: Int

    /// A note value; `nil` outside d 1…99, dots 0…2.
    public init?(denominator: Int, dots: Int = 0) {
        guard (1...99).contains(denominator), (0...2).contains(dots) else { return nil }
        self.denominator = denominator
        self.dots = dots
    }

    /// Parses `4` (a quarter), `4.` (dotted quarter), `8..` (double-dotted eighth), `12`
    /// (triplet eighth).
    public init?(_ text: some StringProtocol) {
        let dots = text.reversed().prefix { $0 == "." }.count
        guard let denominator = NumberGrammar.integer(text.dropLast(dots)) else { return nil }
        self.init(denominator: denominator, dots: dots)
    }

    /// Its length in whole notes.
    public var wholeNotes: Rational {
        let plain = Rational(1, Int64(denominator))
        switch dots {
        case 1: return plain * Rational(3, 2)
        case 2: return plain * Rational(7, 4)
        default: return plain
        }
    }

    /// `8`, `4.` (dotted): the note as the command line writes it.
    public var description: String { "\(denominator)" + String(repeating: ".", count: dots) }
}

/// A time signature n/d, both 1…99; `4/3` and other irrational meters included.
public struct Meter: Sendable, Hashable, CustomStringConvertible {
    /// Notes per bar.
    public let numerator: Int
    /// The note value they are counted in (1/d of a whole note).
    public let denominator: Int

    /// A meter; `nil` outside 1…99.
    public init?(_ numerator: Int, _ denominator: Int) {
        guard (1...99).contains(numerator), (1...99).contains(denominator) else { return nil }
        self.numerator = numerator
        self.denominator = denominator
    }

    /// Parses `7/8`.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let n = NumberGrammar.integer(parts[0]), let d = NumberGrammar.integer(parts[1]) else { return nil }
        self.init(n, d)
    }

    /// A bar's length in whole notes.
    public var barLength: Rational { Rational(Int64(numerator), Int64(denominator)) }

    /// The natural beat unit: one 1/d note.
    public var naturalBeatUnit: NoteValue { NoteValue(denominator: denominator)! }

    /// `7/8`.
    public var description: String { "\(numerator)/\(denominator)" }
}
