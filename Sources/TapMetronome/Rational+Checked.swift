extension Rational {
    /// `numerator / denominator` reduced, or `nil` if it does not fit 64-bit parts.
    init?(checkedWide numerator: Int128, _ denominator: Int128) {
        guard denominator != 0 else { return nil }
        var (x, y) = (numerator.magnitude, denominator.magnitude)
        while y != 0 { (x, y) = (y, x % y) }
        let divisor = Int128(x == 0 ? 1 : x)
        let sign: Int128 = denominator < 0 ? -1 : 1
        guard let top = Int64(exactly: sign * numerator / divisor), let bottom = Int64(exactly: sign * denominator / divisor) else {
            return nil
        }
        self.init(top, bottom)
    }

    /// The sum, or `nil` on overflow (the 128-bit intermediates themselves cannot overflow).
    func plus(_ other: Rational) -> Rational? {
        Rational(checkedWide: Int128(numerator) * Int128(other.denominator) + Int128(other.numerator) * Int128(denominator),
                 Int128(denominator) * Int128(other.denominator))
    }
    func minus(_ other: Rational) -> Rational? { plus(Rational(-other.numerator, other.denominator)) }
    func times(_ other: Rational) -> Rational? {
        Rational(checkedWide: Int128(numerator) * Int128(other.numerator), Int128(denominator) * Int128(other.denominator))
    }
    func dividedBy(_ other: Rational) -> Rational? {
        other.numerator == 0 ? nil : times(Rational(other.denominator, other.numerator))
    }
}

/// Unwraps a checked result, or names what overflowed.
func exact(_ value: Rational?, _ what: @autoclosure () -> String) throws(MetronomeError) -> Rational {
    guard let value else { throw .inexact(what()) }
    return value
}

extension Rational {
    /// `self + other`, or nil where the exact result does not fit 64-bit parts.
    public func adding(_ other: Rational) -> Rational? { plus(other) }
    /// `−self`.
    public var negated: Rational { Rational(-numerator, denominator) }
    /// `self × factor`, or nil on overflow.
    public func scaled(by factor: Int) -> Rational? { times(Rational(factor)) }
}
