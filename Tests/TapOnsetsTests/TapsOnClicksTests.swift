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
}
