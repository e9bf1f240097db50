#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// P(X ≤ `successes`) for X binomial with `trials` trials, each a success with `probability`:
/// the regularized incomplete beta I₁₋ₚ(n − k, k + 1) (Abramowitz & Stegun 26.5.24), exact to
/// the last digits where a sum of terms would lose them in its tail.
public func binomialCDF(atMost successes: Int, trials: Int, probability: Double) -> Double {
    guard successes >= 0 else { return 0 }
    guard successes < trials, probability > 0 else { return 1 }
    guard probability < 1 else { return 0 }
    return regularizedIncompleteBeta(a: Double(trials - successes), b: Double(successes + 1), x: 1 - probability,
                                     y: probability, logX: log1p(-probability), logY: log(probability)).lower
}
