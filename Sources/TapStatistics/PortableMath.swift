/// Elementary functions built from IEEE-754 basic operations only (+, −, ×, ÷, rounding,
/// exponent manipulation), so that seeded simulations and jittered stimuli give bit-identical output on every
/// platform; libm's `exp`, `log`, `sin`, `cos` may differ in the last bit between systems.
///
/// Accuracy is a few ulps, which is plenty for synthesis. Argument reduction follows
/// Cody & Waite (1980) with fdlibm's split constants; the reduced arguments are evaluated by
/// truncated Taylor / atanh series in Horner form.
public enum PortableMath {
    /// ln 2, high part (fdlibm's split, exact in 33 bits).
    public static let ln2Hi = 6.93147180369123816490e-01
    /// ln 2, low part: ln2Hi + ln2Lo is ln 2 to double-double precision.
    public static let ln2Lo = 1.90821492927058770002e-10
    /// ln 2, correctly rounded.
    public static let ln2 = 0.693147180559945286226763982995180413
    /// ln 10, correctly rounded.
    public static let ln10 = 2.302585092994045684017991454684364208
    /// π, correctly rounded.
    public static let pi = 3.141592653589793115997963468544185162
    /// 2π, correctly rounded.
    public static let twoPi = 6.283185307179586231995926937088370323
    /// π/2, high part (fdlibm's split for argument reduction).
    public static let piOver2Hi = 1.57079632673412561417e+00
    /// π/2, low part: piOver2Hi + piOver2Lo is π/2 to double-double precision.
    public static let piOver2Lo = 6.07710050650619224932e-11

    /// eˣ.
    public static func exp(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x > 709.782712893384 { return .infinity }
        if x < -745.2 { return 0 }
        let k = (x / (ln2Hi + ln2Lo)).rounded()
        let r = (x - k * ln2Hi) - k * ln2Lo
        // Taylor series to r¹⁴/14!; |r| ≤ 0.347 so the next term is below 1e-19.
        var sum = 1.0
        var n = 14.0
        while n >= 1 {
            sum = 1 + sum * r / n
            n -= 1
        }
        return scaleByPowerOfTwo(sum, Int(k))
    }

    /// Natural logarithm; −∞ at 0, NaN below 0.
    public static func log(_ x: Double) -> Double {
        if x.isNaN || x < 0 { return .nan }
        if x == 0 { return -.infinity }
        if x.isInfinite { return x }
        var exponent = Int(x.exponent)
        var m = x.significand  // in [1, 2), exact
        if m > 1.4142135623730951 {
            m *= 0.5
            exponent += 1
        }
        // log m = 2·atanh(s), s = (m − 1)/(m + 1), |s| ≤ 0.1716: 12 odd terms reach 1e-18.
        let s = (m - 1) / (m + 1)
        let s2 = s * s
        var series = 0.0
        var k = 23.0
        while k >= 3 {
            series = (1 / k + series) * s2
            k -= 2
        }
        let logM = 2 * s + 2 * s * series
        let e = Double(exponent)
        return e * ln2Hi + (e * ln2Lo + logM)
    }

    /// 10ˣ.
    public static func pow10(_ x: Double) -> Double {
        exp(x * ln10)
    }

    /// Amplitude ratio of a level in decibels: 10^(dB/20).
    public static func amplitude(decibels: Double) -> Double {
        exp(decibels * (ln10 / 20))
    }

    /// Power ratio of a level in decibels: 10^(dB/10).
    public static func power(decibels: Double) -> Double {
        exp(decibels * (ln10 / 10))
    }

    /// sin x.
    public static func sin(_ x: Double) -> Double {
        let (r, quadrant) = reduce(x)
        switch quadrant {
        case 0: return sinKernel(r)
        case 1: return cosKernel(r)
        case 2: return -sinKernel(r)
        default: return -cosKernel(r)
        }
    }

    /// cos x.
    public static func cos(_ x: Double) -> Double {
        let (r, quadrant) = reduce(x)
        switch quadrant {
        case 0: return cosKernel(r)
        case 1: return -sinKernel(r)
        case 2: return -cosKernel(r)
        default: return sinKernel(r)
        }
    }

    /// x = r + q·π/2 with |r| ≤ π/4 (accurate for |x| up to about 1e6, far beyond our use).
    private static func reduce(_ x: Double) -> (Double, Int) {
        let k = (x / (piOver2Hi + piOver2Lo)).rounded()
        let r = (x - k * piOver2Hi) - k * piOver2Lo
        let quadrant = Int(k.truncatingRemainder(dividingBy: 4))
        return (r, (quadrant + 4) % 4)
    }

    /// Taylor series of sin on |r| ≤ π/4, to r¹⁹/19!.
    private static func sinKernel(_ r: Double) -> Double {
        let r2 = r * r
        var sum = 1.0
        var n = 19.0
        while n >= 3 {
            sum = 1 - sum * r2 / (n * (n - 1))
            n -= 2
        }
        return r * sum
    }

    /// Taylor series of cos on |r| ≤ π/4, to r²⁰/20!.
    private static func cosKernel(_ r: Double) -> Double {
        let r2 = r * r
        var sum = 1.0
        var n = 20.0
        while n >= 2 {
            sum = 1 - sum * r2 / (n * (n - 1))
            n -= 2
        }
        return sum
    }

    /// value · 2ᵏ, exact unless the result is subnormal.
    private static func scaleByPowerOfTwo(_ value: Double, _ k: Int) -> Double {
        var result = value
        var k = k
        while k > 1000 {
            result *= 0x1.0p1000
            k -= 1000
        }
        while k < -1000 {
            result *= 0x1.0p-1000
            k += 1000
        }
        return result * Double(sign: .plus, exponent: k, significand: 1)
    }
}
