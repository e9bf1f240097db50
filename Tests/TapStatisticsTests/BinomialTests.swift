import Foundation
import Testing
@testable import TapStatistics

@Suite struct BinomialTests {
    /// The sum of the binomial terms, with the coefficients built up exactly.
    func directSum(atMost successes: Int, trials: Int, probability p: Double) -> Double {
        var coefficient = 1.0, total = 0.0
        for k in 0...successes {
            if k > 0 { coefficient *= Double(trials - k + 1) / Double(k) }
            total += coefficient * pow(p, Double(k)) * pow(1 - p, Double(trials - k))
        }
        return total
    }

    @Test func agreesWithTheSumOfItsTerms() {
        for trials in [1, 4, 9, 18, 44] {
            for successes in 0..<trials {
                for probability in [0.05, 0.3, 0.5, 0.727, 0.95] {
                    let expected = directSum(atMost: successes, trials: trials, probability: probability)
                    let value = binomialCDF(atMost: successes, trials: trials, probability: probability)
                    #expect(abs(value - expected) <= 1e-12 * max(1, expected) + 1e-300,
                            "n \(trials), k \(successes), p \(probability): \(value) against \(expected)")
                }
            }
        }
        #expect(abs(binomialCDF(atMost: 1, trials: 4, probability: 0.5) - 5.0 / 16) < 1e-15)
        #expect(abs(binomialCDF(atMost: 0, trials: 10, probability: 0.9) - pow(0.1, 10)) < 1e-24)
    }

    @Test func edges() {
        #expect(binomialCDF(atMost: 4, trials: 4, probability: 0.3) == 1)
        #expect(binomialCDF(atMost: -1, trials: 4, probability: 0.3) == 0)
        #expect(binomialCDF(atMost: 2, trials: 4, probability: 0) == 1)
        #expect(binomialCDF(atMost: 2, trials: 4, probability: 1) == 0)
        #expect(binomialCDF(atMost: 0, trials: 0, probability: 0.5) == 1)
    }
}
