/// Checked arithmetic: a result that does not fit 64-bit parts is `nil`, never a trap, for
/// values that come from users (program files, tempo keys).
extension Rational {
    /// `numerator / denominator` reduced, or `nil` if it does not fit 64-bit parts.
    init?(checkedWide numerator: Int128, _ denominator: Int128) {
        guard denominator != 0 else { return nil }
        let divisor = Wide.gcd(numerator, denominator)
        let sign: Int128 = denominator < 0 ? -1 : 1
        guard let top = Int64(exactly: sign * numerator / divisor), let bottom = Int64(exactly: sign * denominator / divisor) else {
            return nil
        }
        self.init(top, bottom)
    }

    /// The sum, or `nil` on overflow (the 128-bit intermediates themselves cannot overflow).
    public func plus(_ other: Rational) -> Rational? {
        Rational(checkedWide: Int128(numerator) * Int128(other.denominator) + Int128(other.numerator) * Int128(denominator),
                 Int128(denominator) * Int128(other.denominator))
    }
    /// The difference, or `nil` on overflow.
    public func minus(_ other: Rational) -> Rational? { plus(Rational(-other.numerator, other.denominator)) }
    /// The product, or `nil` on overflow.
    public func times(_ other: Rational) -> Rational? {
        Rational(checkedWide: Int128(numerator) * Int128(other.numerator), Int128(denominator) * Int128(other.denominator))
    }
    /// The quotient, or `nil` on overflow or division by zero.
    public func dividedBy(_ other: Rational) -> Rational? {
        other.numerator == 0 ? nil : times(Rational(other.denominator, other.numerator))
    }
}

/// Unwraps a checked result, or names what overflowed.
func exact(_ value: Rational?, _ what: @autoclosure () -> String) throws(MetronomeError) -> Rational {
    guard let value else { throw .inexact(what()) }
    return value
}
