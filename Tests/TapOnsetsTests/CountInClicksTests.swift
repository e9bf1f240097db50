import Foundation
import Testing
@testable import TapOnsets

/// The clicks of a count-in, heard before the participant taps and masked by the taps after:
/// two alike sounds one beat apart whose grid the later taps keep, a steady asynchrony early,
/// are clicks; a participant's own first two taps are not.
@Suite struct CountInClicksTests {
    /// A sound over a background at `background` dBFS (its SNR is its level over that).
    func sound(_ time: Double, level: Double, centroid: Double = 2_000, background: Double = -72) -> Onset {
        let features = OnsetFeatures(sustainedSNR: 20, attackDuration: 0.002, aboveMaskDB: 15, decayDB: -10,
                                     spectralCentroid: centroid)
        return Onset(time: time, frame: Int(time * 44_100), peakTime: time + 0.002, strength: level,
                     snrDB: level - background, features: features)
    }

    /// Taps to a 0.5 s beat from `firstBeat` on, `asynchrony` early on average with a tapper's
    /// scatter (SD 15 ms) and levels varying over 12 dB.
    func taps(beats: Range<Int>, asynchrony: Double, seed: UInt64, beatOrigin: Double = 1.0, period: Double = 0.5,
              scatter: Double = 0.015) -> [Onset] {
        var random = TestRandom(state: seed)
        return beats.map { beat in
            sound(beatOrigin + Double(beat) * period - asynchrony + scatter * random.gaussian(),
                  level: -30 - 12 * random.uniform(), centroid: 1_500 + 1_000 * random.uniform())
        }
    }

    @Test func twoClicksBeforeTheTapsAreTheCountIn() {
        for seed in UInt64(1)...10 {
            let clicks = [sound(1.0, level: -52), sound(1.5, level: -52.4)]
            let onsets = clicks + taps(beats: 2..<30, asynchrony: 0.030, seed: seed)
            #expect(CountInClicks.indices(in: onsets) == [0, 1], "seed \(seed)")
        }
    }

    /// A tapper who scatters by 20 ms (SD) knows the beat's period from 24 taps to about
    /// 0.6 ms (one standard error), so in a few tasks in a hundred their fitted period lies
    /// more than 1 ms off the metronome's: the count-in is still found, its interval within
    /// three standard errors of their period. (With 1 ms as the only bound, 4 of these 100 were
    /// missed.)
    @Test func aCountInIsFoundBeforeATapperWhoScattersWidely() {
        var found = 0
        for seed in UInt64(1)...100 {
            let clicks = [sound(1.0, level: -52), sound(1.5, level: -52.4)]
            let onsets = clicks + taps(beats: 2..<30, asynchrony: 0.030, seed: seed, scatter: 0.020)
            if CountInClicks.indices(in: onsets) == [0, 1] { found += 1 }
        }
        #expect(found >= 99, "\(found) of 100")
    }

    /// The participant's own first two taps, even when they sound alike and come 15 dB softer
    /// than the rest (a hesitant start), are rarely taken for a count-in: their interval must
    /// match the later taps' period to 1 ms or three standard errors of it (about 1.3 ms
    /// here), which an interval between two taps scattered by 15 ms (SD) does by chance in
    /// about 5 % of tappers (normal approximation), and those later taps must then sit 5 ms
    /// or more off the grid. Of 400 such simulated tappers, 12 lose their first two taps (3 %;
    /// 10 with 1 ms as the only bound); the bound is 4 %. Taps at the level of the rest are
    /// never taken (the clicks lie 10 dB under the taps), unless they stand 10 dB lower over
    /// their background than the rest over theirs (a louder background before the task): then
    /// only the timing tells, and 11 of 400 are taken. Soft first taps that build up 3 ms apart
    /// (their period may then lie up to 2 ms off, as a gated count-in's) are taken in 22 of
    /// 400 (5.5 %); the bound is 7 %. Soft first taps at levels up to 12 dB apart, alike within
    /// the count-in's 6 dB in about half the tappers, are taken in 5 of 400 (4 with the 2 dB
    /// bound before session 32, 9 with 9 dB); the bound is 7. Docs/algorithms.md states this
    /// cost.
    @Test func aParticipantsFirstTwoTapsAreRarelyTakenForClicks() {
        var flaggedSoft = 0, flaggedAtLevel = 0, flaggedOverALouderBackground = 0, flaggedSoftBuiltUpUnlike = 0
        var flaggedSoftAnyLevels = 0
        var levels = TestRandom(state: 401)
        for seed in UInt64(1)...400 {
            var onsets = taps(beats: 0..<30, asynchrony: 0.030, seed: seed)
            func setLevels(_ first: Double, _ second: Double, background: Double = -72) {
                onsets[0].strength = first
                onsets[1].strength = second
                onsets[0].snrDB = first - background
                onsets[1].snrDB = second - background
            }
            let centroid = onsets[0].features?.spectralCentroid
            onsets[1].features?.spectralCentroid = centroid
            setLevels(onsets[0].strength, onsets[0].strength + 0.5)
            if !CountInClicks.indices(in: onsets).isEmpty { flaggedAtLevel += 1 }
            // At the level of the rest, but over a background 14 dB louder than theirs (talk
            // before the task): now under the later taps by their height over it.
            setLevels(onsets[0].strength, onsets[0].strength + 0.5, background: -58)
            if !CountInClicks.indices(in: onsets).isEmpty { flaggedOverALouderBackground += 1 }
            // Soft, at levels 12 dB apart at most, as the later taps' are: alike within
            // ``CountInClicks/levelSpreadDB`` in about half the tappers.
            setLevels(-52, -52 - 12 * levels.uniform())
            if !CountInClicks.indices(in: onsets).isEmpty { flaggedSoftAnyLevels += 1 }
            setLevels(-52, -52.5)
            if !CountInClicks.indices(in: onsets).isEmpty { flaggedSoft += 1 }
            // Soft, and building up 3 ms apart: the period may then lie up to 2 ms off.
            onsets[1].features?.attackDuration = 0.005
            if !CountInClicks.indices(in: onsets).isEmpty { flaggedSoftBuiltUpUnlike += 1 }
        }
        #expect(flaggedAtLevel == 0)
        #expect(flaggedSoft <= 16, "\(flaggedSoft) of 400")
        #expect(flaggedSoftAnyLevels <= 7, "\(flaggedSoftAnyLevels) of 400")
        #expect(flaggedSoftBuiltUpUnlike <= 28, "\(flaggedSoftBuiltUpUnlike) of 400")
        #expect(flaggedOverALouderBackground <= 16, "\(flaggedOverALouderBackground) of 400")
    }

    /// A gain control (a phone's) raises the quiet second before the first tap, clicks and
    /// background together: the clicks come out a few dB under the taps and a few dB apart as
    /// the gain moves, while their height over the background stays about 16 dB under the taps'. A
    /// lossy codec also moves their centroids apart by up to 16 %. Still a count-in; clicks
    /// raised as high over their background as the taps stand over theirs are not.
    @Test func aCountInRaisedByAGainControlIsFound() {
        for seed in UInt64(1)...10 {
            let later = taps(beats: 2..<30, asynchrony: 0.030, seed: seed)
            let raised = [sound(1.0, level: -38, centroid: 2_000, background: -58),
                          sound(1.5, level: -41, centroid: 2_300, background: -61.5)]
            #expect(CountInClicks.indices(in: raised + later) == [0, 1], "seed \(seed)")
            let asHighAsTheTaps = [sound(1.0, level: -38, background: -76), sound(1.5, level: -41, background: -79)]
            #expect(CountInClicks.indices(in: asHighAsTheTaps + later).isEmpty, "seed \(seed)")
        }
    }

    /// A noise gate opens on each click of a count-in and takes the first part of one more
    /// than of the other (seed 1's `gated-dev-1`: 2.75 and 8.65 ms from start to peak): the
    /// starts move, and the clicks' interval lies off the later taps' period by more than 1 ms
    /// and three standard errors (1.7–1.8 ms in seeds 1 and 103; 1.5 ms here). Up to their
    /// difference in build-up, at most 2 ms, it still agrees.
    @Test func aGatedCountInWhoseClicksBuildUpUnlikeIsFound() {
        func click(_ time: Double, attack: Double) -> Onset {
            var onset = sound(time, level: -52)
            onset.features?.attackDuration = attack
            return onset
        }
        for seed in UInt64(1)...10 {
            let later = taps(beats: 2..<30, asynchrony: 0.030, seed: seed, scatter: 0.005)
            let gated = [click(1.0, attack: 0.00275), click(1.4985, attack: 0.00865)]
            #expect(CountInClicks.indices(in: gated + later) == [0, 1], "seed \(seed)")
            // Built up alike, or 2.5 ms off (beyond the 2 ms cap), they are taps.
            let alike = [click(1.0, attack: 0.00275), click(1.4985, attack: 0.00275)]
            #expect(CountInClicks.indices(in: alike + later).isEmpty, "seed \(seed)")
            let farOff = [click(1.0, attack: 0.00275), click(1.5025, attack: 0.020)]
            #expect(CountInClicks.indices(in: farOff + later).isEmpty, "seed \(seed)")
        }
    }

    /// A noise gate that opens on each click moves its detected start by up to the gate's
    /// attack: the gated count-ins of the robustness corpus's seeds 401–416, 21–32 dB under the
    /// taps, lay 2.7–5.1 ms off the taps' period. Clicks 21 dB or more under the later taps (by
    /// level and over the background) agree within 6 ms; 14 dB under, within the usual bounds
    /// only; 8 ms off, not at all.
    @Test func aCountInFarUnderTheTapsAgreesWithinSixMilliseconds() {
        for seed in UInt64(1)...10 {
            let later = taps(beats: 2..<30, asynchrony: 0.030, seed: seed, scatter: 0.005)
            let far = [sound(1.0, level: -62), sound(1.504, level: -62.5)]
            #expect(CountInClicks.indices(in: far + later) == [0, 1], "seed \(seed)")
            let tooFarOff = [sound(1.0, level: -62), sound(1.508, level: -62.5)]
            #expect(CountInClicks.indices(in: tooFarOff + later).isEmpty, "seed \(seed)")
            let nearer = [sound(1.0, level: -50), sound(1.504, level: -50.4)]
            #expect(CountInClicks.indices(in: nearer + later).isEmpty, "seed \(seed)")
        }
    }

    /// What ``CountInClicks/farPeriodAgreement`` costs: a participant whose first two taps
    /// come 24 dB softer than the rest (sixteen times softer in amplitude) and sound alike
    /// loses them to a count-in where their interval lies within 6 ms of the later taps' period
    /// and the later taps then sit 5 ms or more off the grid it spans: in about one tapper in
    /// six (normal approximation). Of 400 simulated tappers, at most a quarter.
    @Test func firstTapsFarUnderTheRestAreTheCostOfTheFarBound() {
        var flagged = 0
        for seed in UInt64(1)...400 {
            var onsets = taps(beats: 0..<30, asynchrony: 0.030, seed: seed)
            let centroid = onsets[0].features?.spectralCentroid
            onsets[1].features?.spectralCentroid = centroid
            for index in 0..<2 {
                onsets[index].strength = -60 - 0.5 * Double(index)
                onsets[index].snrDB = onsets[index].strength + 72
            }
            if !CountInClicks.indices(in: onsets).isEmpty { flagged += 1 }
        }
        #expect(flagged <= 100, "\(flagged) of 400")
    }

    /// A noise gate opens a different way on each click: the two clicks of seed 97's
    /// `gated-dev-2` peak 5.0 dB apart, and stand 4.7 dB apart over the background. Still a
    /// count-in; 8 dB apart, not.
    @Test func aGatedCountInWhoseClicksPeakApartIsFound() {
        for seed in UInt64(1)...10 {
            let later = taps(beats: 2..<30, asynchrony: 0.030, seed: seed)
            let apart = [sound(1.0, level: -52), sound(1.5, level: -57)]
            #expect(CountInClicks.indices(in: apart + later) == [0, 1], "seed \(seed)")
            let farApart = [sound(1.0, level: -52), sound(1.5, level: -60)]
            #expect(CountInClicks.indices(in: farApart + later).isEmpty, "seed \(seed)")
        }
    }

    /// A count-in of a bar: every click on the grid of the first two that sounds like them.
    @Test func aCountInOfFourClicksIsSetAsideWhole() {
        let clicks = (0..<4).map { sound(1.0 + 0.5 * Double($0), level: -52 - 0.3 * Double($0)) }
        let onsets = clicks + taps(beats: 4..<40, asynchrony: 0.030, seed: 4)
        #expect(CountInClicks.indices(in: onsets) == [0, 1, 2, 3])
    }

    /// A stray sound among the later taps (a knock 200 ms after the last) does not hide the
    /// count-in: the period is fitted on the taps on the beat only.
    @Test func aStraySoundDoesNotHideTheCountIn() {
        var onsets = [sound(1.0, level: -52), sound(1.5, level: -52.4)] + taps(beats: 2..<30, asynchrony: 0.030, seed: 6)
        onsets.append(sound(onsets.last!.time + 0.2, level: -30))
        #expect(CountInClicks.indices(in: onsets) == [0, 1])
    }

    /// Only the taps just after the count-in are examined: over a long task a grid spanned by
    /// one interval 0.3 ms off drifts by a period, and the taps of its later minutes would
    /// hide the count-in.
    @Test func aLongTaskKeepsItsCountIn() {
        let onsets = [sound(1.0, level: -52), sound(1.5003, level: -52.4)] + taps(beats: 2..<1_000, asynchrony: 0.030, seed: 8)
        #expect(CountInClicks.indices(in: onsets) == [0, 1])
    }

    /// Clicks set aside before (on the click grid, or by this rule) come before the first tap:
    /// the rule does not run again.
    @Test func noCountInAfterStimulusOnsets() {
        let onsets = [sound(1.0, level: -52), sound(1.5, level: -52.4)] + taps(beats: 2..<30, asynchrony: 0.030, seed: 9)
        #expect(CountInClicks.indices(in: onsets, stimulusTimes: [0.5]).isEmpty)
        #expect(CountInClicks.indices(in: onsets, stimulusTimes: [1.0, 1.5]) == [0, 1])
    }

    /// Sounds unlike each other (8 dB apart, or an octave apart in centroid) are no count-in,
    /// nor are two sounds whose interval is not the taps' beat, nor a metronome as loud as the
    /// taps (a loudspeaker's).
    @Test func unlikeSoundsOrAnotherIntervalAreNoCountIn() {
        let later = taps(beats: 2..<30, asynchrony: 0.030, seed: 7)
        #expect(CountInClicks.indices(in: [sound(1.0, level: -52), sound(1.5, level: -60)] + later).isEmpty)
        #expect(CountInClicks.indices(in: [sound(1.0, level: -52), sound(1.5, level: -52, centroid: 4_000)] + later).isEmpty)
        #expect(CountInClicks.indices(in: [sound(1.0, level: -52), sound(1.49, level: -52)] + later).isEmpty)
        // 3 ms off the beat: only the period check tells.
        #expect(CountInClicks.indices(in: [sound(1.0, level: -52), sound(1.497, level: -52)] + later).isEmpty)
        #expect(CountInClicks.indices(in: [sound(1.0, level: -36), sound(1.5, level: -36)] + later).isEmpty)
        // Too few later taps to show their phase.
        #expect(CountInClicks.indices(in: [sound(1.0, level: -52), sound(1.5, level: -52)] + later.prefix(5)).isEmpty)
    }

    /// One of the two clicks scored under the cut (an `other` sound): it still starts the
    /// count-in with the first tap when the two sound alike, and both are set aside.
    @Test func aCountInWhoseClickScoredUnderTheCutIsFound() {
        for clickScoredLow in [0, 1] {
            var clicks = [sound(1.0, level: -52), sound(1.5, level: -52.4)]
            clicks[clickScoredLow].kind = .other
            let onsets = clicks + taps(beats: 2..<30, asynchrony: 0.030, seed: 3)
            #expect(CountInClicks.indices(in: onsets) == [0, 1], "click \(clickScoredLow) scored low")
        }
        // Without the later taps' beat, an `other` sound like the first tap is no click.
        var stray = sound(0.7, level: -52)
        stray.kind = .other
        let later = taps(beats: 2..<30, asynchrony: 0.030, seed: 3)
        var soft = later
        soft[0].strength = -52
        #expect(CountInClicks.indices(in: [stray] + soft).isEmpty)
    }

    /// An `other` sound unlike the clicks (a knock) does not stand in for one.
    @Test func otherSoundsAreSkipped() {
        var knock = sound(0.4, level: -20)
        knock.kind = .other
        let onsets = [knock, sound(1.0, level: -52), sound(1.5, level: -52.4)] + taps(beats: 2..<30, asynchrony: 0.030, seed: 2)
        #expect(CountInClicks.indices(in: onsets) == [1, 2])
    }
}
