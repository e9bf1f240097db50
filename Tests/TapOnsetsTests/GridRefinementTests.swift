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

/// The clicks' grid is the coarser of two whenever the finer one's extra lines bring fewer than
/// two members beyond chance, for any whole ratio up to nine: a sixth of the click period (a
/// third of a popular half period) occurs among the candidates.
@Suite struct CoarserGridTests {
    typealias Grid = StimulusLockedOnsets.Grid

    /// Measured on a noise-click recording through automatic gain and AAC (150 probe onsets,
    /// 20 clicks every 0.678 s): the grid at a sixth held the 20 clicks and 4 chance members.
    static let ranked: [(grid: Grid, members: Int, excess: Double)] = [
        (Grid(phase: 1.008, period: 0.6779), 20, 19.56),
        (Grid(phase: 1.008, period: 0.6779 / 2), 20, 19.11),
        (Grid(phase: 1.008, period: 0.6779 / 3), 19, 18.51),
        (Grid(phase: 1.008, period: 0.6779 / 6), 24, 21.34),
    ]

    @Test func aSixthWithChanceMembersIsNotTheClicks() throws {
        let best = try #require(StimulusLockedOnsets.clicksGrid(among: Self.ranked))
        #expect(abs(best.grid.period - 0.6779) < 1e-9)
    }

    @Test func aSixthWhoseLinesClickStands() throws {
        var ranked = Self.ranked
        ranked[3] = (ranked[3].grid, 30, 27.3)   // clicks on the extra lines too (subdivisions)
        let best = try #require(StimulusLockedOnsets.clicksGrid(among: ranked))
        #expect(abs(best.grid.period - 0.6779 / 6) < 1e-9)
    }

    @Test func aTenthIsNotTakenForAFinerGrid() throws {
        // The rule looks at fractions up to a ninth (a third of a third); at a tenth the larger
        // excess wins.
        let ranked: [(grid: Grid, members: Int, excess: Double)] = [
            (Grid(phase: 0, period: 1.0), 20, 19.0), (Grid(phase: 0, period: 0.1), 21, 20.5)]
        let best = try #require(StimulusLockedOnsets.clicksGrid(among: ranked))
        #expect(abs(best.grid.period - 0.1) < 1e-9)
    }
}
