#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Special functions behind the t and normal quantiles. Written here instead of calling the C
// library's `lgamma`, which writes the global `signgam` (a data race under Swift 6
// concurrency) and whose last bits differ between platforms.

/// Stirling-series remainder δ(x) = ln Γ(x) − [(x − ½) ln x − x + ½ ln 2π], valid for x ≥ 10.
///
/// Coefficients are B₂ₖ / (2k(2k − 1)) (Abramowitz & Stegun 6.1.40); the truncation error
/// after the x⁻¹³ term is below 3617/(122400·x¹⁵) < 3·10⁻¹⁷ for x ≥ 10.
private func stirlingRemainder(_ x: Double) -> Double {
    let inverse = 1 / x
    let inverseSquared = inverse * inverse
    var series = 1.0 / 156
    series = series * inverseSquared - 691.0 / 360_360
    series = series * inverseSquared + 1.0 / 1188
    series = series * inverseSquared - 1.0 / 1680
    series = series * inverseSquared + 1.0 / 1260
    series = series * inverseSquared - 1.0 / 360
    series = series * inverseSquared + 1.0 / 12
    return series * inverse
}

/// ln Γ(x) for x > 0: Stirling's series, after shifting small arguments up to x ≥ 10 with
/// Γ(x) = Γ(x + k) / (x (x + 1) ⋯ (x + k − 1)).
func logGamma(_ x: Double) -> Double {
    precondition(x > 0, "logGamma is implemented for positive arguments only")
    var shifted = x
    var product = 1.0
    while shifted < 10 {
        product *= shifted
        shifted += 1
    }
    let halfLogTwoPi = 0.918_938_533_204_672_741_78
    return (shifted - 0.5) * log(shifted) - shifted + halfLogTwoPi
        + stirlingRemainder(shifted) - log(product)
}

/// ln B(a, b) = ln Γ(a) + ln Γ(b) − ln Γ(a + b) for a, b > 0.
///
/// When the larger argument is big, ln Γ(large) − ln Γ(large + small) is formed from the
/// Stirling expansion directly, so that two huge, nearly equal logarithms are not
/// subtracted (that cancellation would cost ~7 digits at a = 5·10⁵, i.e. t with 10⁶
/// degrees of freedom).
func logBeta(_ a: Double, _ b: Double) -> Double {
    let small = Swift.min(a, b)
    let large = Swift.max(a, b)
    guard large >= 10 else { return logGamma(a) + logGamma(b) - logGamma(a + b) }
    let sum = large + small
    let logGammaRatio = -(large - 0.5) * log1p(small / large) - small * log(sum) + small
        + stirlingRemainder(large) - stirlingRemainder(sum)
    return logGamma(small) + logGammaRatio
}

/// The regularized incomplete beta function I_x(a, b) and its complement 1 − I_x(a, b).
///
/// The continued fraction (Numerical Recipes, 3rd ed., §6.4, evaluated with the modified
/// Lentz method, §5.2) is applied on the side where it converges fast,
/// x < (a + 1)/(a + b + 2), using the symmetry I_x(a, b) = 1 − I_{1−x}(b, a). The side computed
/// directly keeps full relative accuracy even when it is tiny, and so does its logarithm,
/// which stays finite when the value itself underflows.
///
/// - Parameters:
///   - x: The argument in 0...1; `y` is 1 − x, passed separately (with the logarithms) so
///     that callers who know them more accurately than `1 − x` do not lose digits.
/// - Returns: `lower` = I_x(a, b), `upper` = 1 − I_x(a, b), and their natural logarithms.
func regularizedIncompleteBeta(
    a: Double, b: Double, x: Double, y: Double, logX: Double, logY: Double
) -> (lower: Double, upper: Double, logLower: Double, logUpper: Double) {
    if x <= 0 { return (0, 1, -.infinity, 0) }
    if y <= 0 { return (1, 0, 0, -.infinity) }
    if x < (a + 1) / (a + b + 2) {
        let logValue = a * logX + b * logY - logBeta(a, b)
            + log(betaContinuedFraction(a: a, b: b, x: x) / a)
        let value = exp(logValue)
        return (value, 1 - value, logValue, log1p(-value))
    } else {
        let logValue = b * logY + a * logX - logBeta(a, b)
            + log(betaContinuedFraction(a: b, b: a, x: y) / b)
        let value = exp(logValue)
        return (1 - value, value, log1p(-value), logValue)
    }
}

/// Continued fraction for I_x(a, b) (Numerical Recipes `betacf`), modified Lentz evaluation.
/// It needs O(√max(a, b)) terms in the worst case, hence the generous iteration cap.
private func betaContinuedFraction(a: Double, b: Double, x: Double) -> Double {
    let tiny = 1e-300
    let tolerance = 2 * Double.ulpOfOne
    let maximumIterations = 100_000
    func guarded(_ value: Double) -> Double { abs(value) < tiny ? tiny : value }

    var c = 1.0
    var d = 1 / guarded(1 - (a + b) * x / (a + 1))
    var fraction = d
    for m in 1...maximumIterations {
        let mm = Double(m)
        let twoM = 2 * mm
        // Even step of the fraction.
        var coefficient = mm * (b - mm) * x / ((a - 1 + twoM) * (a + twoM))
        d = 1 / guarded(1 + coefficient * d)
        c = guarded(1 + coefficient / c)
        fraction *= d * c
        // Odd step.
        coefficient = -(a + mm) * (a + b + mm) * x / ((a + twoM) * (a + 1 + twoM))
        d = 1 / guarded(1 + coefficient * d)
        c = guarded(1 + coefficient / c)
        let delta = d * c
        fraction *= delta
        if abs(delta - 1) < tolerance { break }
    }
    return fraction
}
