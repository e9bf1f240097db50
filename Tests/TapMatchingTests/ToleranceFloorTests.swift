import Testing
import TapMatching

/// The adaptive tolerance's floor: a task's few dozen pairs give a noisy MAD, and a genuine
/// pair in the latency distribution's tail must still be paired, while a touch with nothing
/// near its expected onset stays alone.
@Suite struct ToleranceFloorTests {
    /// Thirty taps 0.65 s apart whose latencies cluster tightly (robust SD about 2 ms) around
    /// 17.5 ms, except one at `outlier` seconds.
    func task(outlier: Double) -> (touches: [Double], onsets: [Double]) {
        let spread = [-0.002, 0.001, 0.0025, -0.001, 0.0, 0.002, -0.0025, 0.0015, -0.0015, 0.0005]
        let onsets = (0..<30).map { 1.0 + 0.65 * Double($0) }
        let touches = onsets.indices.map { index in
            onsets[index] + (index == 14 ? outlier : 0.0175 + spread[index % spread.count])
        }
        return (touches, onsets)
    }

    @Test func aTouchAtZeroLatencyIsPairedWithItsTap() {
        // 17.5 ms from the model: beyond 4 robust SDs (about 9 ms) and beyond a 15 ms floor.
        let (touches, onsets) = task(outlier: 0)
        let result = matchTouches(touches, toOnsets: onsets)
        #expect(result.pairs.count == 30, "unmatched touches \(result.unmatchedTouchIndices)")
        #expect(result.tolerance >= 0.0175)
    }

    @Test func aTouchFarFromAnyOnsetStaysUnpaired() {
        // A touch 45 ms after its tap's slot and 605 ms before the next: nothing within the
        // tolerance of the model.
        let (touches, onsets) = task(outlier: 0.045)
        let result = matchTouches(touches, toOnsets: onsets)
        #expect(result.pairs.count == 29)
        #expect(result.unmatchedTouchIndices == [14])
        #expect(result.unmatchedOnsetIndices == [14])
    }
}
