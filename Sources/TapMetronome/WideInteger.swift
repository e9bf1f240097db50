/// A signed integer of any size, with just what exact click timing needs: sums, differences,
/// products and comparisons (no division). Programs compare a click's exact time with a frame
/// boundary using it when the 64-bit fractions of ``Rational`` would overflow, for example in
/// a tempo ramp or with jitter in microseconds.
struct WideInteger: Comparable, Sendable {
    /// Magnitude, 32 bits per limb, least significant first, no leading zero limbs.
    private var limbs: [UInt32]
    private var negative: Bool

    init(_ value: Int64) {
        negative = value < 0
        var magnitude = value.magnitude
        limbs = []
        while magnitude != 0 {
            limbs.append(UInt32(truncatingIfNeeded: magnitude))
            magnitude >>= 32
        }
    }

    private init(limbs: [UInt32], negative: Bool) {
        var limbs = limbs
        while limbs.last == 0 { limbs.removeLast() }
        self.limbs = limbs
        self.negative = limbs.isEmpty ? false : negative
    }

    var isZero: Bool { limbs.isEmpty }
    var isNegative: Bool { negative }

    static func + (a: WideInteger, b: WideInteger) -> WideInteger {
        if a.negative == b.negative { return WideInteger(limbs: addMagnitudes(a.limbs, b.limbs), negative: a.negative) }
        // Opposite signs: the larger magnitude keeps its sign.
        if compareMagnitudes(a.limbs, b.limbs) >= 0 {
            return WideInteger(limbs: subtractMagnitudes(a.limbs, b.limbs), negative: a.negative)
        }
        return WideInteger(limbs: subtractMagnitudes(b.limbs, a.limbs), negative: b.negative)
    }

    static prefix func - (a: WideInteger) -> WideInteger { WideInteger(limbs: a.limbs, negative: !a.negative) }

    static func - (a: WideInteger, b: WideInteger) -> WideInteger { a + (-b) }

    static func * (a: WideInteger, b: WideInteger) -> WideInteger {
        guard !a.isZero && !b.isZero else { return WideInteger(0) }
        var product = [UInt32](repeating: 0, count: a.limbs.count + b.limbs.count)
        for (i, x) in a.limbs.enumerated() {
            var carry: UInt64 = 0
            for (j, y) in b.limbs.enumerated() {
                let sum = UInt64(x) * UInt64(y) + UInt64(product[i + j]) + carry
                product[i + j] = UInt32(truncatingIfNeeded: sum)
                carry = sum >> 32
            }
            product[i + b.limbs.count] = UInt32(carry)
        }
        return WideInteger(limbs: product, negative: a.negative != b.negative)
    }

    static func < (a: WideInteger, b: WideInteger) -> Bool {
        if a.negative != b.negative { return a.negative }
        let order = compareMagnitudes(a.limbs, b.limbs)
        return a.negative ? order > 0 : order < 0
    }

    private static func compareMagnitudes(_ a: [UInt32], _ b: [UInt32]) -> Int {
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        for index in stride(from: a.count - 1, through: 0, by: -1) where a[index] != b[index] {
            return a[index] < b[index] ? -1 : 1
        }
        return 0
    }

    private static func addMagnitudes(_ a: [UInt32], _ b: [UInt32]) -> [UInt32] {
        var result = [UInt32](repeating: 0, count: max(a.count, b.count) + 1)
        var carry: UInt64 = 0
        for index in 0..<(result.count - 1) {
            let sum = UInt64(index < a.count ? a[index] : 0) + UInt64(index < b.count ? b[index] : 0) + carry
            result[index] = UInt32(truncatingIfNeeded: sum)
            carry = sum >> 32
        }
        result[result.count - 1] = UInt32(carry)
        return result
    }

    /// a − b for |a| ≥ |b|.
    private static func subtractMagnitudes(_ a: [UInt32], _ b: [UInt32]) -> [UInt32] {
        var result = a
        var borrow: Int64 = 0
        for index in 0..<a.count {
            var difference = Int64(a[index]) - Int64(index < b.count ? b[index] : 0) - borrow
            borrow = difference < 0 ? 1 : 0
            if difference < 0 { difference += 1 << 32 }
            result[index] = UInt32(difference)
        }
        return result
    }
}

/// An exact fraction of ``WideInteger``s, never reduced (only compared), denominator > 0.
struct WideFraction: Comparable, Sendable {
    var numerator: WideInteger
    var denominator: WideInteger

    init(_ value: Rational) {
        numerator = WideInteger(value.numerator)
        denominator = WideInteger(value.denominator)
    }

    init(numerator: WideInteger, denominator: WideInteger) {
        self.numerator = numerator
        self.denominator = denominator
    }

    static func + (a: WideFraction, b: WideFraction) -> WideFraction {
        WideFraction(numerator: a.numerator * b.denominator + b.numerator * a.denominator,
                     denominator: a.denominator * b.denominator)
    }
    static func - (a: WideFraction, b: WideFraction) -> WideFraction {
        a + WideFraction(numerator: -b.numerator, denominator: b.denominator)
    }
    static func * (a: WideFraction, b: WideFraction) -> WideFraction {
        WideFraction(numerator: a.numerator * b.numerator, denominator: a.denominator * b.denominator)
    }
    static func < (a: WideFraction, b: WideFraction) -> Bool {
        a.numerator * b.denominator < b.numerator * a.denominator
    }
    static func == (a: WideFraction, b: WideFraction) -> Bool {
        !(a < b) && !(b < a)
    }

    var isNegative: Bool { numerator.isNegative }
    var isPositive: Bool { !numerator.isNegative && !numerator.isZero }
}
