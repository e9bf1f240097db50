/// 128-bit integer helpers for exact frame positions: products that report overflow instead of
/// trapping (a pathological tempo must become an error, not a crash), greatest common divisors,
/// and the one rounding of a fraction to a frame. Nothing here allocates, so the live renderer
/// may use it on the audio thread.
enum Wide {
    /// `a × b`, or nil if it does not fit.
    @inline(__always)
    static func product(_ a: Int128, _ b: Int128) -> Int128? {
        let (result, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? nil : result
    }

    /// The greatest common divisor of |a| and |b| (1 if both are 0).
    static func gcd(_ a: Int128, _ b: Int128) -> Int128 {
        var (x, y) = (a.magnitude, b.magnitude)
        while y != 0 { (x, y) = (y, x % y) }
        return x == 0 ? 1 : Int128(x)
    }

    /// The least common multiple of two positive numbers, or nil if it does not fit.
    static func lcm(_ a: Int128, _ b: Int128) -> Int128? { product(a / gcd(a, b), b) }

    /// `round(numerator / denominator)`, halves up (towards +∞), for `denominator > 0` and a
    /// numerator small enough that `2 × numerator + denominator` fits.
    @inline(__always)
    static func rounded(_ numerator: Int128, over denominator: Int128) -> Int128 {
        floorQuotient(2 * numerator + denominator, 2 * denominator)
    }

    /// `⌊a / b⌋` for `b > 0` (Swift's `/` truncates towards zero).
    @inline(__always)
    static func floorQuotient(_ a: Int128, _ b: Int128) -> Int128 {
        let quotient = a / b
        return a % b < 0 ? quotient - 1 : quotient
    }

    /// The nearest `Double` (to within an ulp or so), without generic conversion code.
    @inline(__always)
    static func double(_ value: Int128) -> Double {
        Double(Int64(truncatingIfNeeded: value >> 64)) * 0x1p64 + Double(UInt64(truncatingIfNeeded: value))
    }
}
