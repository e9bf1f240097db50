import Foundation
import Testing
@testable import TapOnsets
import TapAudio

/// A tap that sounded with its click was set aside as the click's leftover; where it spreads
/// its power like the recording's taps and unlike the other leftovers, it is a tap
/// (`TapScore.tapsOnClicks`, `TapOnsetDetection.classified(cut:)`).
@Suite struct TapsOnClicksTests {
    static let tapProfile = [-30.0, -2.5, -3.5, -30, -30, -30]
    static let clickProfile = [-30.0, -30, -12, -4, -3, -8]

    func onset(_ time: Double, profile: [Double] = tapProfile, strength: Double = -20, attack: Double = 0.0015,
               decay: Double = -12) -> Onset {
        let features = OnsetFeatures(sustainedSNR: 20, attackDuration: attack, aboveMaskDB: 20, decayDB: decay,
                                     spectralCentroid: 1_500, spectralFlatness: 0.01, soundCentroid: 1_500,
                                     bandProfile: profile, onEarlierSound: false)
        return Onset(time: time, frame: Int(time * 48_000), peakTime: time + 0.001, strength: strength, snrDB: 25,
                     features: features)
    }

    /// `profile` moved `distance` dB (root mean square over the six bands) from where it was.
    func shifted(_ profile: [Double], by distance: Double) -> [Double] {
        zip(profile, [1.0, 1, 1, -1, -1, -1]).map { $0 + $1 * distance }
    }

    /// Twelve taps every 0.6 s from 1 s, but for the one at index 5 (4.0 s).
    var taps: [Onset] { (0..<12).filter { $0 != 5 }.map { onset(1 + Double($0) * 0.6) } }

    /// Four leftovers of clicks that sound between the beats (at 0.3 s past them), alike.
    var leftovers: [Onset] { (0..<4).map { onset(1.3 + Double($0) * 1.2, profile: Self.clickProfile, strength: -40) } }

    @Test func aLeftoverSpreadLikeTheTapsAndUnlikeTheOthersIsTaken() {
        let suspects = TapScore.tapsOnClicks(leftovers + [onset(4.0)], tapProfile: Self.tapProfile)
        #expect(suspects == [4])
        // 4 dB from the taps is within the bound, 6 dB is not.
        #expect(TapScore.tapsOnClicks(leftovers + [onset(4.0, profile: shifted(Self.tapProfile, by: 4))],
                                      tapProfile: Self.tapProfile) == [4])
        #expect(TapScore.tapsOnClicks(leftovers + [onset(4.0, profile: shifted(Self.tapProfile, by: 6))],
                                      tapProfile: Self.tapProfile).isEmpty)
    }

    @Test func aLeftoverNoLouderThanTheOthersStays() {
        // The leftovers peak at −40 dBFS: a tap on a click adds at least as much again (3 dB).
        #expect(TapScore.tapsOnClicks(leftovers + [onset(4.0, strength: -38.5)], tapProfile: Self.tapProfile).isEmpty)
        #expect(TapScore.tapsOnClicks(leftovers + [onset(4.0, strength: -36.5)], tapProfile: Self.tapProfile) == [4])
    }

    @Test func leftoversAlikeStayLeftoversHoweverTheTapsSound() {
        // Three leftovers that sound like the taps and like each other: what every click
        // leaves, not three taps.
        let alike = (0..<3).map { onset(2.0 + Double($0) * 1.2, profile: shifted(Self.tapProfile, by: 0.5 * Double($0))) }
        #expect(TapScore.tapsOnClicks(leftovers + alike, tapProfile: Self.tapProfile).isEmpty)
        // Two alike do not vouch for each other: both are taken.
        #expect(TapScore.tapsOnClicks(leftovers + Array(alike.prefix(2)), tapProfile: Self.tapProfile) == [4, 5])
    }

    @Test func withTooFewMeasuredLeftoversNoneIsTaken() {
        #expect(TapScore.tapsOnClicks(Array(leftovers.prefix(1)) + [onset(4.0)], tapProfile: Self.tapProfile).isEmpty)
        // Three measured (the one judged among them) are enough.
        #expect(TapScore.tapsOnClicks(Array(leftovers.prefix(2)) + [onset(4.0)], tapProfile: Self.tapProfile) == [2])
        // A leftover without features (a heard click itself) is not measured.
        var unmeasured = Array(leftovers.prefix(2))
        unmeasured[1].features = nil
        #expect(TapScore.tapsOnClicks(unmeasured + [onset(4.0)], tapProfile: Self.tapProfile).isEmpty)
    }

    @Test func aSoundWithoutAFiniteLevelIsNotMeasured() {
        // Not measured, so two leftovers and the tap are too few; nothing traps on the NaN.
        var unmeasured = Array(leftovers.prefix(3))
        unmeasured[2].strength = .nan
        #expect(TapScore.tapsOnClicks(unmeasured + [onset(4.0)], tapProfile: Self.tapProfile) == [3])
        unmeasured[1].strength = -.infinity
        #expect(TapScore.tapsOnClicks(unmeasured + [onset(4.0)], tapProfile: Self.tapProfile).isEmpty)
        let detection = TapOnsetDetection(onsets: taps, stimulusOnsets: unmeasured + [onset(4.0)]).classified(cut: 0.5)
        #expect(detection.onsets.count == 11)
    }

    @Test func theTakenTapJoinsTheTapsAndTheLeftoversStay() throws {
        let detection = TapOnsetDetection(onsets: taps, stimulusOnsets: leftovers + [onset(4.0)]).classified(cut: 0.5)
        #expect(detection.onsets.map(\.time).contains(4.0))
        #expect(detection.onsets.count == 12)
        #expect(detection.stimulusOnsets.map(\.time) == leftovers.map(\.time))
        #expect(detection.stimulusOnsets.allSatisfy { $0.kind == .stimulus })
    }

    @Test func aSuspectThatDoesNotScoreAsATapStaysALeftover() throws {
        // Sounding like the taps and over the leftovers, but building up over 30 ms: a suspect
        // whose attack keeps it under the cut among the sounds.
        let slow = onset(4.0, strength: -30, attack: 0.030)
        #expect(TapScore.tapsOnClicks(leftovers + [slow], tapProfile: Self.tapProfile) == [4])
        let detection = TapOnsetDetection(onsets: taps, stimulusOnsets: leftovers + [slow]).classified(cut: 0.5)
        #expect(detection.onsets.count == 11)
        #expect(detection.otherOnsets.isEmpty)
        #expect(detection.stimulusOnsets.map(\.time).contains(4.0))
        // Of two suspects (with the taps at 4.0 and 5.8 s missing), the one that scores as a
        // tap is taken and the other goes back.
        let tapsBut2 = (0..<12).filter { $0 != 5 && $0 != 8 }.map { onset(1 + Double($0) * 0.6) }
        let both = TapOnsetDetection(onsets: tapsBut2, stimulusOnsets: leftovers + [slow, onset(5.8)]).classified(cut: 0.5)
        #expect(both.onsets.map(\.time).contains(5.8) && !both.onsets.map(\.time).contains(4.0))
        #expect(both.stimulusOnsets.map(\.time).contains(4.0) && !both.stimulusOnsets.map(\.time).contains(5.8))
    }

    @Test func withFewerThanEightTapsNoLeftoverIsTaken() {
        let seven = Array(taps.prefix(7))
        let detection = TapOnsetDetection(onsets: seven, stimulusOnsets: leftovers + [onset(8.0)]).classified(cut: 0.5)
        #expect(detection.onsets.count == 7)
    }

    @Test func theTapsDoNotDependOnTheCut() throws {
        // A suspect whose decay (−1.6 dB, near the −1 dB boundary) scores it about 0.65: a tap
        // at the default cut, other at 0.9, but taken back at either.
        let detection = TapOnsetDetection(onsets: taps, stimulusOnsets: leftovers + [onset(4.0, decay: -1.6)])
        let taken = try #require(detection.classified(cut: 0.5).onsets.first { $0.time == 4.0 })
        #expect(taken.tapScore > 0.5 && taken.tapScore < 0.9)
        let scores = { (cut: Double) in detection.classified(cut: cut).allOnsets.map(\.tapScore) }
        #expect(scores(0.05) == scores(0.5))
        #expect(scores(0.9) == scores(0.5))
        #expect(detection.classified(cut: 0.9).otherOnsets.map(\.time) == [4.0])
    }

    /// Taps every 0.6 s from 1 s but for those at `missing` (indices), and three leftovers that
    /// sound like the taps and like each other at the missing beats: a tapper who tapped on
    /// three clicks.
    func tapsOnThreeClicks(missing: [Int]) -> (taps: [Onset], onClicks: [Onset]) {
        let taps = (0..<16).filter { !missing.contains($0) }.map { onset(1 + Double($0) * 0.6) }
        let onClicks = missing.enumerated().map { position, beat in
            onset(1 + Double(beat) * 0.6 + 0.001, profile: shifted(Self.tapProfile, by: 0.5 * Double(position)))
        }
        return (taps, onClicks)
    }

    @Test func tapsOnSeveralClicksAreTakenWhereEachFillsAnEmptyBeat() {
        let (taps, onClicks) = tapsOnThreeClicks(missing: [4, 8, 12])
        // Alone they vouch for each other (each resembles the other two) and stay set aside.
        #expect(TapScore.tapsOnClicks(leftovers + onClicks, tapProfile: Self.tapProfile).isEmpty)
        // In the empty beats of the taps' rhythm, nearer the taps than the leftovers, taken.
        let rhythm = TapScore.singleBeatIntervals(TapScore.localIntervals(taps, anchors: Array(taps.indices), voidedBy: []))
        let fills = { TapScore.fillsAnEmptyBeat($0, tapTimes: taps.map(\.time), intervals: rhythm) }
        #expect(TapScore.tapsOnClicks(leftovers + onClicks, tapProfile: Self.tapProfile, isInEmptyBeat: fills) == [4, 5, 6])
        // The whole classification takes them back, and the clicks' leftovers stay.
        let detection = TapOnsetDetection(onsets: taps, stimulusOnsets: leftovers + onClicks).classified(cut: 0.5)
        #expect(detection.onsets.count == 16)
        #expect(detection.stimulusOnsets.map(\.time) == leftovers.map(\.time))
    }

    @Test func alikeSoundsNearerTheSetAsideSoundsThanTheTapsStay() {
        // When most set-aside sounds sound like the taps (their median profile is the taps'),
        // sounds that resemble each other in empty beats are what the clicks leave.
        let (taps, onClicks) = tapsOnThreeClicks(missing: [4, 8, 12])
        let tapLike = (0..<3).map { onset(1.3 + Double($0) * 1.2, profile: shifted(Self.tapProfile, by: 0.3), strength: -40) }
        let rhythm = TapScore.singleBeatIntervals(TapScore.localIntervals(taps, anchors: Array(taps.indices), voidedBy: []))
        let fills = { TapScore.fillsAnEmptyBeat($0, tapTimes: taps.map(\.time), intervals: rhythm) }
        #expect(TapScore.tapsOnClicks(tapLike + onClicks, tapProfile: Self.tapProfile, isInEmptyBeat: fills).isEmpty)
    }

    @Test func anEmptyBeatHasNoTapWithinAnIntervalAndANeighbourOnTheBeat() {
        let taps = (0..<16).filter { ![4, 9, 10].contains($0) }.map { 1 + Double($0) * 0.6 }
        let onsets = taps.map { onset($0) }
        let rhythm = TapScore.singleBeatIntervals(TapScore.localIntervals(onsets, anchors: Array(onsets.indices), voidedBy: []))
        // The gap's intervals (1.2 s, 1.8 s) are not beats of the rhythm.
        #expect(rhythm.intervals.allSatisfy { abs($0 - 0.6) < 1e-9 })
        let fills = { TapScore.fillsAnEmptyBeat($0, tapTimes: taps, intervals: rhythm) }
        #expect(fills(3.4))                  // the missing beat 4
        #expect(fills(3.4 + 0.08))           // within the tolerance (0.09 s)
        #expect(!fills(3.4 + 0.11))          // beyond it
        #expect(!fills(3.1))                 // half a beat: a tap 0.3 s away
        #expect(!fills(1.601))               // a beat with its tap
        #expect(fills(6.4) && fills(7.0))    // beats 9 and 10 in a row: each has a neighbour on the beat
        #expect(!fills(0.5) && !fills(10.5)) // no tap on one side
        // An unsteady rhythm (intervals of 0.4, 0.6 and 0.8 s: median 0.6 s, robust SD 0.3 s)
        // has no empty beats, even one interval from both taps around it.
        let intervals = [0.4, 0.6, 0.8, 0.4, 1.2, 0.8, 0.4, 0.6, 0.8, 0.4, 0.6, 0.8]
        let unsteady = intervals.reduce(into: [1.0]) { times, interval in times.append(times.last! + interval) }
        let unsteadyOnsets = unsteady.map { onset($0) }
        let unsteadyRhythm = TapScore.singleBeatIntervals(TapScore.localIntervals(unsteadyOnsets, anchors: Array(unsteadyOnsets.indices),
                                                                                  voidedBy: []))
        #expect(!TapScore.fillsAnEmptyBeat(unsteady[4] + 0.6, tapTimes: unsteady, intervals: unsteadyRhythm))
    }

    @Test func ofThreeEmptyBeatsInARowTheMiddleOneIsNotFilled() {
        let taps = (0..<16).filter { ![4, 5, 6].contains($0) }.map { 1 + Double($0) * 0.6 }
        let onsets = taps.map { onset($0) }
        let rhythm = TapScore.singleBeatIntervals(TapScore.localIntervals(onsets, anchors: Array(onsets.indices), voidedBy: []))
        let fills = { TapScore.fillsAnEmptyBeat($0, tapTimes: taps, intervals: rhythm) }
        #expect(fills(3.4) && !fills(4.0) && fills(4.6))
    }

    @Test func theMarginOverTheSetAsideSoundsMedianIsTwoDecibels() {
        // Three alike sounds 0, 0.5 and 1 dB from the taps' profile, and four leftovers D dB
        // from it along the same line: the set-aside sounds' median lies D dB from the taps.
        // The sound 1 dB from the taps lies D − 1 dB from that median: taken at D = 4.1 (3.1 ≥
        // 1 + 2), not at D = 3.9.
        let onClicks = [0.0, 0.5, 1.0].enumerated().map { position, distance in
            onset(4.0 + 1.2 * Double(position), profile: shifted(Self.tapProfile, by: distance))
        }
        func leftovers(_ distance: Double) -> [Onset] {
            (0..<4).map { onset(1.3 + Double($0) * 1.2, profile: shifted(Self.tapProfile, by: distance), strength: -40) }
        }
        let everywhere: (Double) -> Bool = { _ in true }
        let far = TapScore.tapsOnClicks(leftovers(4.1) + onClicks, tapProfile: Self.tapProfile, isInEmptyBeat: everywhere)
        let near = TapScore.tapsOnClicks(leftovers(3.9) + onClicks, tapProfile: Self.tapProfile, isInEmptyBeat: everywhere)
        #expect(far == [4, 5, 6])
        #expect(near == [4, 5])
        // Not in an empty beat, none of them.
        #expect(TapScore.tapsOnClicks(leftovers(4.1) + onClicks, tapProfile: Self.tapProfile).isEmpty)
    }

    @Test func aTapWithoutAFiniteTimeDoesNotStopTheRhythm() {
        // A tap a script made without a time is another sound, and the rhythm is read from
        // the others: the taps on the three clicks are still taken.
        var (taps, onClicks) = tapsOnThreeClicks(missing: [4, 8, 12])
        taps[0].time = .nan
        let detection = TapOnsetDetection(onsets: taps, stimulusOnsets: leftovers + onClicks).classified(cut: 0.5)
        #expect(onClicks.allSatisfy { onClick in detection.onsets.contains { $0.time == onClick.time } })
        #expect(detection.otherOnsets.count { $0.time.isNaN } == 1 && detection.onsets.allSatisfy { $0.time.isFinite })
    }
}

