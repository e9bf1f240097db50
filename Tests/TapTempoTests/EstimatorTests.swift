import Testing
import TapTempo

@Suite struct EstimatorTests {
    static func feed(_ estimator: inout some TapTempoEstimator, _ times: [Double]) -> [TempoReading] {
        times.map { estimator.tap(at: $0) }
    }

    /// The classic recipe: the mean interval; a history cleared after 2 s without a tap, and
    /// thrown away (keeping the last tap) when an interval is more than 25 % off the mean.
    @Test func classicRecipe() {
        var classic = ClassicTapTempo()
        var readings = Self.feed(&classic, [0, 0.5, 1.0, 1.6])
        #expect(readings[0].bpm == nil && readings[1].bpm == 120)
        #expect(abs(readings[3].bpm! - 60 * 3 / 1.6) < 1e-9 && readings[3].tapsUsed == 4)
        readings = Self.feed(&classic, [2.05])  // 0.45 s against a mean of 0.533: within 25 %
        #expect(readings[0].reset == false)
        readings = Self.feed(&classic, [2.30])  // 0.25 s: a new tempo, from the last tap
        #expect(readings[0].reset && readings[0].bpm == 240 && readings[0].tapsUsed == 2)
        readings = Self.feed(&classic, [4.5])  // more than 2 s later: cleared
        #expect(readings[0].reset && readings[0].bpm == nil)
    }

    /// A double tap is dropped, not a reset; a skipped tap is recognised; the estimate is
    /// exact for exact taps.
    @Test func outliersAndSkipsDoNotReset() {
        var tracker = TapTempoTracker()
        let steady = (0..<8).map { Double($0) * 0.5 }
        var readings = Self.feed(&tracker, steady)
        #expect(abs(readings.last!.bpm! - 120) < 1e-9)
        readings = Self.feed(&tracker, [3.56, 4.0, 4.5, 5.5, 6.0])  // a double tap at 3.56, a skip at 5.0
        #expect(readings.allSatisfy { !$0.reset })
        #expect(readings.allSatisfy { abs($0.bpm! - 120) < 1e-9 })
        #expect(readings.last!.tapsUsed == 12 && readings.last!.confidence > 0.99)
    }

    /// Doubling re-locks at the second tap at the new tempo, halving at the third, a 30 %
    /// change at the second.
    @Test func tempoChangesRelock() {
        for (factor, taps) in [(2.0, 2), (0.5, 3), (1.3, 2), (1 / 1.3, 2)] {
            var tracker = TapTempoTracker()
            var times = (0..<8).map { Double($0) * 0.5 }
            for k in 1...6 { times.append(3.5 + Double(k) * 0.5 / factor) }
            let readings = Self.feed(&tracker, times)
            let first = readings[8...].firstIndex { abs($0.bpm! / (120 * factor) - 1) < 1e-6 }
            #expect(first.map { $0 - 7 } == taps, "×\(factor)")
            #expect(readings[(first ?? 8)...].allSatisfy { abs($0.bpm! / (120 * factor) - 1) < 1e-6 }, "×\(factor)")
        }
    }

    /// Out-of-range taps: a bounce faster than the range is ignored, a pause longer than the
    /// range restarts; no reading is ever NaN or infinite.
    @Test func rangeAndPauses() {
        var tracker = TapTempoTracker(minimumBPM: 30, maximumBPM: 300)
        var readings = Self.feed(&tracker, [0, 0.05, 0.5, 1.0])
        #expect(readings[1].bpm == nil && abs(readings[3].bpm! - 120) < 1e-9)
        readings = Self.feed(&tracker, [10, 10, 10.5])
        #expect(readings[0].reset && readings[0].bpm == nil)
        #expect(readings.allSatisfy { $0.bpm.map { $0.isFinite } ?? true })
        #expect(abs(readings[2].bpm! - 120) < 1e-9)
    }
}
