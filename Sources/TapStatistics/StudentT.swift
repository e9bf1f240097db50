#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The quantile function (inverse CDF) of Student's t distribution.
///
/// - One and two degrees of freedom use the closed forms t = cot(πu) and
///   t = (1 − 2u)/√(2u(1 − u)) for the smaller tail u.
/// - Up to 2·10⁴ degrees of freedom, G. W. Hill's approximation (Algorithm 396, *Comm. ACM*
///   13(10), 1970) gives a start that Newton's method polishes on log t against the log of the
///   exact tail (or central) probability, computed from the regularized incomplete beta
///   function P(|T| > t) = I_{ν/(ν+t²)}(ν/2, ½).
/// - Above that, where the beta continued fraction grows slow and loses digits to
///   cancellation, the Cornish–Fisher expansion about the normal quantile (Abramowitz &
///   Stegun 26.7.5, terms to ν⁻⁴) takes over; infinite ν gives the normal quantile.
///
/// Measured against 30-digit references over random (ν, p) with 1 ≤ ν ≤ 2·10⁵ and
/// 10⁻¹⁰⁰ ≤ p: relative error at most 1.4·10⁻¹³, typically 10⁻¹⁵ (the largest errors sit
/// just above ν = 2·10⁴ in the far tail; at p = 10⁻³⁰⁰ there they reach ~10⁻¹¹).
///
/// - Parameters:
///   - probability: Lower-tail probability in `0...1`; 0 and 1 give ∓∞.
///   - degreesOfFreedom: ν > 0 (not necessarily an integer); `.infinity` is allowed.
/// - Returns: t with P(T ≤ t) = probability, e.g. 2.228138852 for (0.975, 10).
public func studentTQuantile(probability: Double, degreesOfFreedom: Double) -> Double {
    precondition(probability >= 0 && probability <= 1, "probability must lie in 0...1")
    precondition(degreesOfFreedom > 0, "degrees of freedom must be positive")
    let df = degreesOfFreedom
    if probability == 0.5 { return 0 }
    if probability == 0 { return -.infinity }
    if probability == 1 { return .infinity }
    if df == .infinity { return standardNormalQuantile(probability) }

    let sign: Double = probability > 0.5 ? 1 : -1
    // The smaller tail u is exact; so is the central mass c = 1 − 2u whenever c < u, the
    // case in which it (rather than u) steers the iteration.
    let tail = Swift.min(probability, 1 - probability)
    let central = abs(2 * probability - 1)

    if df == 1 {
        return sign * (central < tail ? tan(0.5 * Double.pi * central) : 1 / tan(Double.pi * tail))
    }
    if df == 2 {
        return sign * central / (2 * tail * (1 - tail)).squareRoot()
    }
    if df > 2e4 {
        return sign * cornishFisherT(normalQuantile: -standardNormalQuantile(tail), df: df)
    }
    let start = hillStudentTQuantile(twoSidedProbability: 2 * tail, df: df)
    return sign * newtonRefinedStudentT(start: start, tail: tail, central: central, df: df)
}

/// Pieces of the t distribution at |t| in log space: log P(T > |t|), log P(|T| < |t|) and the
/// log density.
struct StudentTLogProbabilities {
    var logUpperTail: Double
    var logCentral: Double
    var logDensity: Double

    init(absoluteT: Double, df: Double) {
        // With r = t²/ν: x = r/(1 + r), y = 1/(1 + r). log y = −log1p(r) stays accurate
        // when multiplied by ν/2 for large ν; r itself may overflow, its logarithm may not.
        let logR = 2 * log(absoluteT) - log(df)
        let r = absoluteT * absoluteT / df
        let log1pR = r.isFinite ? log1p(r) : logR
        let logX = (r > 0 && r.isFinite ? log(r) : logR) - log1pR
        let x = r.isFinite ? r / (1 + r) : 1
        let y = r.isFinite ? 1 / (1 + r) : exp(-log1pR)
        let beta = regularizedIncompleteBeta(a: 0.5, b: 0.5 * df, x: x, y: y,
                                             logX: logX, logY: -log1pR)
        logUpperTail = beta.logUpper - log(2.0)
        logCentral = beta.logLower
        logDensity = -0.5 * (df + 1) * log1pR - 0.5 * log(df) - logBeta(0.5 * df, 0.5)
    }
}

/// P(T ≤ t) for Student's t with `df` degrees of freedom (finite, positive).
func studentTCDF(_ t: Double, degreesOfFreedom df: Double) -> Double {
    if t == 0 { return 0.5 }
    if t.isInfinite { return t > 0 ? 1 : 0 }
    let upper = exp(StudentTLogProbabilities(absoluteT: abs(t), df: df).logUpperTail)
    return t > 0 ? 1 - upper : upper
}

/// Safeguarded Newton iteration on s = log t. In these coordinates the tails of t are close
/// to straight lines (power laws), so steps are nearly exact even for small ν; a bracket
/// collected along the way turns a wild step into bisection.
private func newtonRefinedStudentT(start: Double, tail: Double, central: Double, df: Double) -> Double {
    let useTail = tail <= central
    let logTarget = log(useTail ? tail : central)
    var s = start.isFinite && start > 0 ? log(start) : 0
    var lowerBound = -Double.infinity
    var upperBound = Double.infinity
    for _ in 0..<100 {
        let t = exp(s)
        let pieces = StudentTLogProbabilities(absoluteT: t, df: df)
        let logValue = useTail ? pieces.logUpperTail : pieces.logCentral
        let residual = logValue - logTarget
        if residual == 0 { break }
        // t is too small when the tail is still too big or the central mass too small.
        let tooSmall = useTail ? residual > 0 : residual < 0
        if tooSmall { lowerBound = Swift.max(lowerBound, s) } else { upperBound = Swift.min(upperBound, s) }
        // d(log F)/ds = ± t f(t) / F(t).
        let slope = (useTail ? -1.0 : 1.0) * exp(s + pieces.logDensity - logValue + (useTail ? 0 : log(2.0)))
        var next = s - residual / slope
        if !next.isFinite || abs(next - s) > 2 { next = s + (tooSmall ? 2 : -2) }
        if next <= lowerBound || next >= upperBound {
            next = lowerBound.isFinite && upperBound.isFinite
                ? 0.5 * (lowerBound + upperBound)
                : s + (tooSmall ? 2 : -2)
        }
        let step = next - s
        s = next
        if abs(step) <= Swift.max(1e-15, 4 * s.ulp) { break }
    }
    return exp(s)
}

/// Hill (1970), Algorithm 396 "Student's t-quantiles": an approximation for ν ≥ 1 from the
/// two-sided probability P = 2u, used here only as a starting value.
private func hillStudentTQuantile(twoSidedProbability p: Double, df: Double) -> Double {
    let a = 1 / (df - 0.5)
    let b = 48 / (a * a)
    var c = ((20_700 * a / b - 98) * a - 16) * a + 96.36
    let d = ((94.5 / (b + c) - 3) / b + 1) * (a * Double.pi / 2).squareRoot() * df
    var y = pow(d * p, 2 / df)
    if y > 0.05 + a || !(y > 0) || !y.isFinite {
        // Asymptotic inverse expansion about the normal deviate of P/2.
        let x = standardNormalQuantile(0.5 * p)
        y = x * x
        if df < 5 { c += 0.3 * (df - 4.5) * (x + 0.6) }
        c = (((0.05 * d * x - 5) * x - 7) * x - 2) * x + b + c
        y = (((((0.4 * y + 6.3) * y + 36) * y + 94.5) / c - y - 3) / b + 1) * x
        y = expm1(a * y * y)
    } else {
        // Small P: expansion of the tail.
        y = ((1 / (((df + 6) / (df * y) - 0.089 * d - 0.822) * (df + 2) * 3)
              + 0.5 / (df + 4)) * y - 1) * (df + 1) / (df + 2) + 1 / y
    }
    return (df * y).squareRoot()
}

/// Cornish–Fisher expansion of the t quantile in powers of 1/ν (Abramowitz & Stegun 26.7.5).
private func cornishFisherT(normalQuantile z: Double, df: Double) -> Double {
    let z2 = z * z
    let g1 = z * (z2 + 1) / 4
    let g2 = z * ((5 * z2 + 16) * z2 + 3) / 96
    let g3 = z * (((3 * z2 + 19) * z2 + 17) * z2 - 15) / 384
    let g4 = z * ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) / 92_160
    return z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df
}
