import Testing
import TapMatching

/// Degenerate inputs and the contract of the result.
@Suite struct EdgeCaseTests {
    @Test func emptyInputsGiveEmptyResults() {
        let none = matchTouches([], toOnsets: [])
        #expect(none.pairs.isEmpty && none.latencyEstimate == nil && none.drift == nil)
        #expect(none.tolerance == MatchingConfiguration.default.maximumTolerance)

        let noOnsets = matchTouches([1, 2, 3], toOnsets: [])
        #expect(noOnsets.pairs.isEmpty)
        #expect(noOnsets.unmatchedTouchIndices == [0, 1, 2])
        #expect(noOnsets.unmatchedOnsetIndices.isEmpty)

        let noTouches = matchTouches([], toOnsets: [1, 2])
        #expect(noTouches.pairs.isEmpty)
        #expect(noTouches.unmatchedOnsetIndices == [0, 1])
        #expect(noTouches.latencyEstimate == nil)
    }

    @Test func oneTouchOneOnset() {
        let result = matchTouches([1.020], toOnsets: [1.000])
        #expect(result.pairs == [
            MatchedPair(touchIndex: 0, onsetIndex: 0, touchTime: 1.020, onsetTime: 1.000),
        ])
        #expect(abs(result.pairs[0].latency - 0.020) < 1e-12)
        #expect(abs((result.latencyEstimate ?? 0) - 0.020) < 1e-12)
        #expect(result.unmatchedTouchIndices.isEmpty && result.unmatchedOnsetIndices.isEmpty)
        // Too few pairs to judge the spread: the maximum tolerance stays.
        #expect(result.tolerance == MatchingConfiguration.default.maximumTolerance)
    }

    @Test func oneTouchPrefersItsOwnSoundToLaterBleed() {
        // Equal evidence for latencies 25 ms and −5 ms: the earlier onset (the tap itself
        // comes before the click it anticipated) wins the tie.
        let result = matchTouches([1.025], toOnsets: [1.000, 1.030])
        #expect(result.pairs.map(\.onsetIndex) == [0])
        #expect(result.unmatchedOnsetIndices == [1])
    }

    @Test func onsetOutsideTheLatencyRangeIsNotPaired() {
        // Latency 300 ms is beyond the default +150 ms.
        let result = matchTouches([1.300], toOnsets: [1.000])
        #expect(result.pairs.isEmpty)
        #expect(result.unmatchedTouchIndices == [0] && result.unmatchedOnsetIndices == [0])
        #expect(result.latencyEstimate == nil)
    }

    @Test func nonFiniteTimesAreNeverPaired() {
        let touches = [1.015, .nan, 2.015, .infinity, 3.015]
        let onsets = [-.infinity, 1.0, 2.0, .nan, 3.0]
        let result = matchTouches(touches, toOnsets: onsets)
        #expect(result.pairs.map(\.touchIndex) == [0, 2, 4])
        #expect(result.pairs.map(\.onsetIndex) == [1, 2, 4])
        #expect(result.unmatchedTouchIndices == [1, 3])
        #expect(result.unmatchedOnsetIndices == [0, 3])
        #expect(result.pairs.allSatisfy { abs($0.latency - 0.015) < 1e-9 })
    }

    @Test func unsortedInputGivesTheSamePairsByIndex() {
        let session = SyntheticSession(Scenario.noisy(taps: 200), seed: 31)
        let sorted = matchTouches(session.touches, toOnsets: session.onsets)
        // Reverse both inputs: index k becomes count − 1 − k.
        let reversed = matchTouches(session.touches.reversed(), toOnsets: session.onsets.reversed())
        let n = session.touches.count, m = session.onsets.count
        let mapped = reversed.pairs.map {
            MatchedPair(
                touchIndex: n - 1 - $0.touchIndex, onsetIndex: m - 1 - $0.onsetIndex,
                touchTime: $0.touchTime, onsetTime: $0.onsetTime)
        }
        #expect(mapped == sorted.pairs)
        #expect(reversed.latencyEstimate == sorted.latencyEstimate)
    }

    @Test func exactPresetPairsFrameExactTimestamps() {
        // MIDI-like events stamped on the audio clock at 48 kHz, plus unrelated onsets.
        let frame = 1.0 / 48000
        let taps = (0..<100).map { 0.5 + Double($0) * 0.41 }
        let touches = taps.map { ($0 / frame).rounded() * frame }
        var onsets = taps.map { ($0 / frame).rounded() * frame + frame }
        // An echo 3 ms after every other tap: in the search range, outside the tolerance.
        onsets += taps.enumerated().filter { $0.offset % 2 == 0 }.map { $0.element + 0.003 }
        onsets.sort()
        let result = matchTouches(touches, toOnsets: onsets, configuration: .exact)
        #expect(result.pairs.count == 100)
        #expect(result.pairs.allSatisfy { abs($0.latency + frame) < 1e-9 })
        #expect(result.tolerance == 0.002)
        #expect(result.drift == nil)
    }

    @Test func resultIsDeterministic() {
        let session = SyntheticSession(Scenario.noisy(taps: 300), seed: 32)
        let a = matchTouches(session.touches, toOnsets: session.onsets)
        let b = matchTouches(session.touches, toOnsets: session.onsets)
        #expect(a == b)
    }

    @Test func presetsHaveTheirDocumentedValues() {
        let d = MatchingConfiguration.default
        #expect(d.latencyRange == -0.050 ... 0.150)
        #expect(d.maximumTolerance == 0.040 && d.minimumTolerance == 0.020)
        #expect(d.toleranceFactor == 4 && d.searchHalfWidth == 0.005)
        #expect(d.estimatesDrift && d.minimumPairsForDrift == 10 && d.minimumSpanForDrift == 20)
        #expect(MatchingConfiguration.exact.latencyRange == -0.005 ... 0.005)
        #expect(MatchingConfiguration.exact.maximumTolerance == 0.002)
        #expect(!MatchingConfiguration.exact.estimatesDrift)
        #expect(MatchingConfiguration.tapIt.latencyRange.contains(0.015))
    }
}
