import TapTestSupport
import Testing
@testable import TapMatching

/// The order-preserving assignment against exhaustive search, and its invariants.
@Suite struct AssignmentTests {
    /// Best (count, sum of squares) over all order-preserving one-to-one matchings, by
    /// exhaustive recursion: feasible only for a handful of events.
    static func bruteForce(_ touches: [Double], _ onsets: [Double], tolerance: Double)
        -> (count: Int, squares: Double)
    {
        func best(_ i: Int, _ firstOnset: Int) -> (count: Int, squares: Double) {
            guard i < touches.count else { return (0, 0) }
            var result = best(i + 1, firstOnset)  // touch i unpaired
            for j in firstOnset..<onsets.count {
                let r = touches[i] - onsets[j]
                guard abs(r) <= tolerance else { continue }
                let rest = best(i + 1, j + 1)
                let candidate = (rest.count + 1, rest.squares + r * r)
                if candidate.0 > result.count
                    || (candidate.0 == result.count && candidate.1 < result.squares)
                {
                    result = candidate
                }
            }
            return result
        }
        return best(0, 0)
    }

    @Test func matchesExhaustiveSearchOnSmallInstances() {
        var rng = SplitMix64(seed: 7)
        let tolerance = 0.02
        for _ in 0..<2000 {
            let n = Int(rng.uniform() * 7), m = Int(rng.uniform() * 8)
            // 0.1 s of events: many overlapping, crossing candidates.
            let touches = (0..<n).map { _ in rng.uniform() * 0.1 }.sorted()
            let onsets = (0..<m).map { _ in rng.uniform() * 0.1 }.sorted()
            let candidates = CandidatePairs(
                touches: touches, onsets: onsets, model: .constant(0), tolerance: tolerance)
            let pairs = OrderPreservingAssignment(
                candidates: candidates, onsetCount: onsets.count).pairs
            let expected = Self.bruteForce(touches, onsets, tolerance: tolerance)
            let squares = pairs.reduce(0.0) {
                let r = touches[$1.touch] - onsets[$1.onset]
                return $0 + r * r
            }
            #expect(pairs.count == expected.count)
            #expect(abs(squares - expected.squares) <= 1e-12)
            #expect(pairs.allSatisfy { abs(touches[$0.touch] - onsets[$0.onset]) <= tolerance })
            #expect(zip(pairs, pairs.dropFirst()).allSatisfy {
                $0.touch < $1.touch && $0.onset < $1.onset
            })
        }
    }

    @Test func candidatesFollowADriftingModel() {
        let model = LatencyModel(offset: 0.010, slope: 1e-3, referenceTime: 100)
        let onsets = [0.0, 100.0, 200.0]
        let touches = onsets.map { $0 + model.latency(at: $0) }  // −90 ms, 10 ms, 110 ms late
        let candidates = CandidatePairs(
            touches: touches, onsets: onsets, model: model, tolerance: 0.001)
        #expect(candidates.touch == [0, 1, 2] && candidates.onset == [0, 1, 2])
        #expect(candidates.residual.allSatisfy { abs($0) < 1e-12 })
    }

    @Test(arguments: [UInt64(41), 42, 43])
    func resultsPreserveOrderAndStayWithinTolerance(seed: UInt64) {
        // A hostile session: dense random clutter on both sides, fast tapping.
        var spec = Scenario.noisy(taps: 400)
        spec.interval = 0.25
        spec.distractorFraction = 0.5
        spec.spuriousTouchFraction = 0.3
        let session = SyntheticSession(spec, seed: seed)
        let result = matchTouches(session.touches, toOnsets: session.onsets)
        let pairs = result.pairs
        #expect(pairs.count > 300)
        #expect(zip(pairs, pairs.dropFirst()).allSatisfy {
            $0.touchIndex < $1.touchIndex && $0.onsetIndex < $1.onsetIndex
        })
        for pair in pairs {
            let model = result.modelLatency(at: pair.onsetTime) ?? .nan
            #expect(abs(pair.latency - model) <= result.tolerance + 1e-9)
        }
        #expect(result.tolerance >= MatchingConfiguration.default.minimumTolerance)
        #expect(result.tolerance <= MatchingConfiguration.default.maximumTolerance)
        // Every index appears exactly once across pairs and unmatched lists.
        let touchIndices = pairs.map(\.touchIndex) + result.unmatchedTouchIndices
        let onsetIndices = pairs.map(\.onsetIndex) + result.unmatchedOnsetIndices
        #expect(touchIndices.sorted() == Array(session.touches.indices))
        #expect(onsetIndices.sorted() == Array(session.onsets.indices))
    }

    @Test func robustLineIgnoresOutliers() throws {
        let x = (0..<100).map { Double($0) }
        var y = x.map { 0.015 + 20e-6 * $0 }
        for k in stride(from: 0, to: 100, by: 10) { y[k] -= 0.030 }  // 10 % bleed-like outliers
        let fit = try #require(RobustLineFit(x: x, y: y, start: .constant(0.015)))
        #expect(abs(fit.slope - 20e-6) < 1e-12)
        #expect(abs(fit.model.latency(at: 0) - 0.015) < 1e-12)
    }

    @Test func medianAndSpread() {
        #expect(median([]) == nil)
        #expect(median([3, 1, 2]) == 2)
        #expect(median([4, 1, 3, 2]) == 2.5)
        #expect(abs(scaledMAD([1, 2, 3, 4, 100], center: 3) - 1.4826) < 1e-12)
    }
}
