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

/// Cases the evaluation's rare failures taught (taps from simulated trials, to 0.1 ms).
@Suite struct TrackerRecoveryTests {
    static func readings(_ times: [Double]) -> [TempoReading] {
        var tracker = TapTempoTracker()
        return times.map { tracker.tap(at: $0) }
    }

    static func near(_ reading: TempoReading, _ bpm: Double, within fraction: Double) -> Bool {
        reading.bpm.map { abs($0 / bpm - 1) <= fraction } ?? false
    }

    /// 180 → 90 BPM whose first slow interval is short (1.67 periods): the run of long
    /// intervals still re-locks at the third tap after the change.
    @Test func halvingWithAShortFirstInterval() {
        let times = [-0.0110, 0.3530, 0.6844, 1.0232, 1.3588, 1.7113, 2.0289, 2.3918,
                     2.9622, 3.6412, 4.3383, 4.9381, 5.6130, 6.2715]
        let readings = Self.readings(times)
        #expect(readings[8...9].allSatisfy { Self.near($0, 180, within: 0.05) })
        #expect(readings[10...].allSatisfy { Self.near($0, 90, within: 0.06) }, "\(readings.map { $0.bpm ?? 0 })")
    }

    /// 90 → 180 BPM where every other new tap lands on the old grid: re-locked by the third
    /// tap after the change.
    @Test func doublingWhoseTapsAlternateOnTheOldGrid() {
        let times = [0.0047, 0.6513, 1.3430, 2.0184, 2.6725, 3.3685, 4.0734, 4.7478,
                     5.1153, 5.4078, 5.7863, 6.0731, 6.4068, 6.7650, 7.1010, 7.4452]
        let readings = Self.readings(times)
        #expect(readings[10...].allSatisfy { Self.near($0, 180, within: 0.1) }, "\(readings.map { $0.bpm ?? 0 })")
    }

    /// At 60 BPM a late mis-tap passes as a skipped beat and the taps after it look off the
    /// grid: the mis-tap is dropped once three taps agree, and a double tap afterwards never
    /// produces a tempo out of range.
    @Test func aKeptMisTapIsDroppedLater() {
        let times = [-0.0051, 1.0387, 2.0478, 3.0365, 3.7986, 5.2673, 6.0639, 7.0537, 8.0591, 9.0349,
                     10.0519, 10.0902, 11.0504, 11.7371, 13.0358, 14.0452, 15.0654, 16.0072]
        let readings = Self.readings(times)
        #expect(readings.allSatisfy { ($0.bpm ?? 60) <= 300 })
        #expect(readings[8...].allSatisfy { Self.near($0, 60, within: 0.03) }, "\(readings.map { $0.bpm ?? 0 })")
    }

    /// At 180 BPM, two double skips in a row (three beats each) are skips, not 60 BPM.
    @Test func doubleSkipsAreNotAChange() {
        let times = [-0.0233, 0.3172, 0.6486, 1.0137, 1.3590, 1.6561, 2.0170, 2.3526,
                     2.6776, 3.0145, 3.3506, 3.6566, 3.9986, 5.0016, 6.0234, 6.3525]
        let readings = Self.readings(times)
        #expect(readings[2...].allSatisfy { !$0.reset && Self.near($0, 180, within: 0.05) }, "\(readings.map { $0.bpm ?? 0 })")
    }

    /// Three skipped beats in a row read as a halving, but the next tap, one old period on,
    /// takes it back.
    @Test func aChanceHalvingIsUndone() {
        let times = [0.0184, 0.3488, 0.6804, 1.0131, 1.3517, 1.7086, 2.0220, 2.3803,
                     2.6983, 3.3476, 3.7069, 4.0071, 4.6895, 5.4290, 6.0666, 6.3813, 6.7105]
        let readings = Self.readings(times)
        #expect(Self.near(readings[14], 90, within: 0.05))
        #expect(readings[15...].allSatisfy { Self.near($0, 180, within: 0.03) }, "\(readings.map { $0.bpm ?? 0 })")
        #expect(readings[15].tapsUsed > 10)
    }

    /// At 40 BPM a stray interval (0.87 periods, after 1.07) and its partial recovery (0.99)
    /// agree with each other, but the newest interval sits on the period: no change of tempo.
    @Test func aStrayIntervalAndItsRecoveryAreNotAChange() {
        let periods = [0.977, 1.026, 1.033, 1.027, 0.990, 1.027, 0.998, 0.950, 1.040, 1.021,
                       1.001, 1.073, 0.872, 0.993, 1.011, 1.037, 0.981, 1.019, 1.005]
        let times = periods.reduce(into: [0.0]) { $0.append($0.last! + 1.5 * $1) }
        let readings = Self.readings(times)
        #expect(readings[1...].allSatisfy { !$0.reset && Self.near($0, 40, within: 0.05) }, "\(readings.map { ($0.bpm ?? 0, $0.reset) })")
    }

    /// Six held-back taps none of which are an interval in range apart (bounces) restart the
    /// history instead of locking on them; taps at one instant never give a NaN period, and a
    /// pause still restarts afterwards.
    @Test func aLostLockNeverLocksOutOfRange() {
        var readings = Self.readings([0, 0.5, 1, 1.5, 2, 2.05, 2.10, 2.15, 2.20, 2.25, 2.30])
        #expect(readings.allSatisfy { $0.bpm.map { (30...300).contains($0) } ?? true }, "\(readings.map { $0.bpm ?? 0 })")
        readings = Self.readings([0, 0.5, 1, 1.5, 2] + Array(repeating: 2.2, count: 6) + [10, 10.5, 11, 11.5])
        #expect(readings.allSatisfy { $0.bpm.map { (30...300).contains($0) } ?? true })
        #expect(abs(readings.last!.bpm! - 120) < 1e-6, "\(readings.map { $0.bpm ?? 0 })")
    }

    /// The three-interval rule never re-locks outside the range, and readings stay within it.
    @Test func threeIntervalRelocksStayInRange() {
        let fast = (0...8).map { Double($0) * 0.4 } + [3.355, 3.51, 3.665]
        #expect(Self.readings(fast).allSatisfy { ($0.bpm ?? 150) <= 300 })
        let slow = (0...8).map { Double($0) } + [10.45, 12.9, 15.35]
        #expect(Self.readings(slow).allSatisfy { ($0.bpm ?? 60) >= 30 })
        #expect(Self.readings([0, 2.4])[1].bpm == 30)
    }

    /// Bounces before the first interval do not leave the recent-tap memory too long for the
    /// re-lock rules: 120 → 60 BPM still re-locks by the third slow tap.
    @Test func bouncesAtTheStartDoNotDisableRelocks() {
        let readings = Self.readings([0, 0.05, 0.10, 0.15, 0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 6, 7])
        #expect(readings[12...].allSatisfy { Self.near($0, 60, within: 0.05) }, "\(readings.map { $0.bpm ?? 0 })")
    }

    /// A re-lock to a faster tempo is not taken back by one tap at the old period (only a
    /// slowing, which a run of skips can fake, is): the taps that follow at 120 BPM re-lock.
    @Test func aFasterRelockIsNotUndone() {
        let readings = Self.readings((0...8).map { Double($0) * 0.5 } + [4.35, 4.7, 5.2, 5.7, 6.2])
        #expect(readings[10].reset && Self.near(readings[10], 171.4, within: 0.01))
        #expect(Self.near(readings[11], 171.4, within: 0.01))
        #expect(readings[12...].allSatisfy { Self.near($0, 120, within: 0.03) }, "\(readings.map { ($0.bpm ?? 0, $0.reset) })")
    }

    /// A late first tap makes the first interval short; the next, 1.5 of it, is not taken as a
    /// skip: by the fourth tap the tempo is 120, not 240.
    @Test func aShortFirstIntervalIsNotTheGrid() {
        let times = [0.1739, 0.4903, 0.9735, 1.4818, 1.5617, 1.9359, 2.4478, 2.9348, 3.4590, 3.9513]
        let readings = Self.readings(times)
        #expect(readings[3...].allSatisfy { Self.near($0, 120, within: 0.1) }, "\(readings.map { ($0.bpm ?? 0, $0.tapsUsed, $0.reset) })")
    }

    /// Taps 5e-324 s apart gave the baselines an infinite tempo; no estimator reads one now.
    @Test func noEstimatorReadsAnInfiniteTempo() {
        let estimators: [any TapTempoEstimator] = [ClassicTapTempo(), IntervalTapTempo(.median), IntervalTapTempo(.interquartileMean),
                                                   TapTempoTracker()]
        for var estimator in estimators {
            for time in [0.0, Double.leastNonzeroMagnitude, 0.5, 1.0] {
                let reading = estimator.tap(at: time)
                #expect(reading.bpm.map(\.isFinite) != false, "\(type(of: estimator)) at \(time): \(reading.bpm ?? 0)")
            }
        }
    }
}
