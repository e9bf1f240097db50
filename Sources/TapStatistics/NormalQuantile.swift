#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The quantile function (inverse CDF) of the standard normal distribution.
///
/// A starting value from Abramowitz & Stegun 26.2.23 (absolute error < 4.5·10⁻⁴) is polished
/// by Newton steps on `erfc` (for tail probabilities, in log space so that relative accuracy
/// holds far out in the tail) or on `erf` (near the median, so that tiny quantiles keep
/// their relative accuracy). The result is accurate to a few units in the last place.
///
/// - Parameter probability: Lower-tail probability in `0...1`; 0 and 1 give ∓∞.
/// - Returns: z with Φ(z) = probability.
public func standardNormalQuantile(_ probability: Double) -> Double {
    precondition(probability >= 0 && probability <= 1, "probability must lie in 0...1")
    if probability == 0.5 { return 0 }
    if probability == 0 { return -.infinity }
    if probability == 1 { return .infinity }
    // Work with the smaller tail u and the central mass c = 1 − 2u; both are exact here.
    let sign: Double = probability > 0.5 ? 1 : -1
    let tail = Swift.min(probability, 1 - probability)
    let central = abs(2 * probability - 1)
    let squareRootTwo = 2.0.squareRoot()

    let w = (-2 * log(tail)).squareRoot()
    var z = w - (2.515517 + w * (0.802853 + w * 0.010328))
        / (1 + w * (1.432788 + w * (0.189269 + w * 0.001308)))
    z = Swift.max(z, 0)
    for _ in 0..<50 {
        let density = exp(-0.5 * z * z) / (2 * Double.pi).squareRoot()
        let step: Double
        if central < tail {
            step = (central - erf(z / squareRootTwo)) / (2 * density)
        } else {
            let upper = 0.5 * erfc(z / squareRootTwo)
            step = (log(upper) - log(tail)) * upper / density
        }
        z += step
        if abs(step) <= 1e-15 * abs(z) { break }
    }
    return sign * z
}
