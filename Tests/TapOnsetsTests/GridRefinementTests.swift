import Testing
@testable import TapOnsets

@Suite struct GridRefinementTests {
    /// The refinement as first written, with a division and libm's rounding per difference:
    /// the faster count must pick the very same period.
    func dividingRefine(_ period: Double, times: [Double]) -> Double {
        let sample = times.prefix(400)
        var differences: [Double] = []
        for i in sample.indices {
            var j = i + 1
            while j < sample.endIndex && j <= i + 16 && sample[j] - sample[i] <= 8.5 * period {
                differences.append(sample[j] - sample[i])
                j += 1
            }
        }
        func score(_ candidate: Double) -> Int {
            differences.filter { difference in
                let multiple = (difference / candidate).rounded()
                return multiple >= 1 && abs(difference - multiple * candidate) <= 0.0004
            }.count
        }
        var best = period, bestScore = -1
        for (step, steps) in [(0.0001, 30), (0.00001, 10)] {
            let origin = steps == 30 ? period : best
            for index in -steps...steps {
                let candidate = origin + Double(index) * step
                let value = score(candidate)
                if value > bestScore || (value == bestScore && abs(candidate - period) < abs(best - period)) {
                    bestScore = value
                    best = candidate
                }
            }
        }
        return best
    }

    @Test func refinedPeriodIsTheDividingOne() {
        var random = TestRandom(state: 17)
        for trial in 0..<60 {
            // Clicks (some hidden) with detector jitter, taps around them, and stray onsets.
            let period = 0.1 + 1.4 * random.uniform()
            var times: [Double] = []
            for k in 0..<120 {
                let click = 1.0 + Double(k) * period
                if random.uniform() > 0.3 { times.append(click + 0.0002 * random.gaussian()) }
                if random.uniform() > 0.2 { times.append(click - 0.03 + 0.02 * random.gaussian()) }
                if random.uniform() > 0.8 { times.append(click + period * random.uniform()) }
            }
            times.sort()
            for guess in [period, period * (1 + 0.004 * random.gaussian()), period / 2, period / 3, 0.004 + 0.01 * random.uniform()] {
                #expect(StimulusLockedOnsets.refine(guess, times: times) == dividingRefine(guess, times: times), "trial \(trial), guess \(guess)")
            }
        }
    }
}
