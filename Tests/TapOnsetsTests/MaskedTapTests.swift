import Foundation
import Testing
@testable import TapOnsets
import TapAudio

/// A tap under speech, music or a loud sound's tail rises too little over what it sits on to
/// score as a tap; where it sounds like the recording's taps and fills the one empty beat of
/// a steady rhythm, it is one (`TapScore.maskedTaps`).
@Suite struct MaskedTapTests {
    static let tapProfile = [-30.0, -2.5, -3.5, -30, -30, -30]
    static let speechProfile = [-2.0, -6.6, -8.9, -17, -26, -28]

    func onset(_ time: Double, aboveMask: Double = 25, onEarlierSound: Bool = false, profile: [Double] = tapProfile,
               decay: Double = -12, strength: Double = -20) -> Onset {
        let features = OnsetFeatures(sustainedSNR: 20, attackDuration: 0.0015, aboveMaskDB: aboveMask, decayDB: decay,
                                     spectralCentroid: 1_500, spectralFlatness: 0.01, soundCentroid: 1_500,
                                     bandProfile: profile, onEarlierSound: onEarlierSound)
        return Onset(time: time, frame: Int(time * 48_000), peakTime: time + 0.001, strength: strength, snrDB: 25,
                     features: features)
    }

    /// Twelve taps every 0.6 s from 1 s, but for the one at `missing` (its index).
    func taps(missing: Int) -> [Onset] {
        (0..<12).filter { $0 != missing }.map { onset(1 + Double($0) * 0.6) }
    }

    func scored(_ onsets: [Onset]) -> [Double: Onset] {
        let scored = TapScore.classify(onsets.sorted { $0.time < $1.time }, cut: 0.5)
        return Dictionary(uniqueKeysWithValues: scored.map { ($0.time, $0) })
    }

    /// 1 dB over the speech it sits on, where 2.5 dB are asked of a sound on an earlier one.
    func masked(_ time: Double, profile: [Double] = tapProfile, decay: Double = -12) -> Onset {
        onset(time, aboveMask: 1, onEarlierSound: true, profile: profile, decay: decay, strength: -30)
    }

    @Test func aMaskedTapInTheEmptyBeatIsATap() throws {
        let alone = try #require(scored([masked(4.0)])[4.0])
        #expect(alone.kind == .other, "without the rhythm it is no tap: \(alone.tapScore)")
        // A decay near its boundary keeps the score off 1, so the score taken is measured.
        let result = try #require(scored(taps(missing: 5) + [masked(4.0, decay: -1.6)])[4.0])
        #expect(result.kind == .tap)
        // It takes the score it would have clear of the mask.
        let clear = try #require(scored(taps(missing: 5) + [onset(4.0, decay: -1.6, strength: -30)])[4.0])
        #expect(clear.tapScore < 0.7)
        #expect(abs(result.tapScore - clear.tapScore) < 1e-9, "\(result.tapScore) against \(clear.tapScore)")
    }

    @Test func theScoresDoNotDependOnTheCut() {
        let onsets = (taps(missing: 5) + [masked(4.0)]).sorted { $0.time < $1.time }
        let scores = { (cut: Double) in TapScore.classify(onsets, cut: cut).map(\.tapScore) }
        #expect(scores(0.05) == scores(0.5))
        #expect(scores(0.9) == scores(0.5))
    }

    @Test func withFewerThanEightTapsNoBeatIsFilled() {
        let seven = (0..<8).filter { $0 != 5 }.map { onset(1 + Double($0) * 0.6) }
        #expect(scored(seven + [masked(4.0)])[4.0]?.kind == .other)
    }

    @Test func aMaskedSoundSpreadUnlikeTheTapsStaysOther() {
        #expect(scored(taps(missing: 5) + [masked(4.0, profile: Self.speechProfile)])[4.0]?.kind == .other)
        // 9.5 dB from the taps' profile (root mean square over the six bands), over the 8 dB
        // bound; 7 dB is within it.
        let shifted = { (distance: Double) in zip(Self.tapProfile, [1.0, 1, 1, -1, -1, -1]).map { $0 + $1 * distance } }
        #expect(scored(taps(missing: 5) + [masked(4.0, profile: shifted(9.5))])[4.0]?.kind == .other)
        #expect(scored(taps(missing: 5) + [masked(4.0, profile: shifted(7))])[4.0]?.kind == .tap)
    }

    @Test func aKeysReleaseStaysOther() {
        // A press 60 ms before, itself masked and spread unlike the taps: the second sound of
        // the pair is a release, which no rhythm takes back.
        let press = onset(3.94, aboveMask: 1, onEarlierSound: true, profile: Self.speechProfile, strength: -30)
        #expect(scored(taps(missing: 5) + [press, masked(4.0)])[4.0]?.kind == .other)
    }

    @Test func aTapAmongSpeechPulsesFillsItsBeat() throws {
        // Two glottal pulses 20 and 40 ms after it make a train of three, whose members score a
        // tenth; the tap among them still fills the beat.
        let pulses = [4.02, 4.04].map { onset($0, aboveMask: 1, onEarlierSound: true, profile: Self.speechProfile, strength: -30) }
        let result = scored(taps(missing: 5) + [masked(4.0)] + pulses)
        #expect(result[4.0]?.kind == .tap)
        #expect(result[4.02]?.kind == .other && result[4.04]?.kind == .other)
    }

    @Test func aMaskedSoundThatDoesNotDecayStaysOther() {
        // A syllable holds its level: the mask is not the only thing that keeps it out.
        #expect(scored(taps(missing: 5) + [masked(4.0, decay: 2)])[4.0]?.kind == .other)
    }

    @Test func aMaskedSoundOffTheEmptyBeatStaysOther() {
        // 0.15 of an interval is 90 ms: 120 ms early is off the beat.
        #expect(scored(taps(missing: 5) + [masked(3.88)])[3.88]?.kind == .other)
    }

    @Test func aMaskedSoundBetweenTwoTapsOneIntervalApartStaysOther() {
        // No beat is empty: a sound in the middle of an interval is no tap however it sounds.
        #expect(scored(taps(missing: 99) + [masked(4.3)])[4.3]?.kind == .other)
    }

    @Test func ofTwoMaskedSoundsInOneBeatTheEarlierFillsIt() throws {
        // The later one scores higher and lies nearer the beat; the earlier still fills it, as
        // a tap comes before the ringing or the tail it starts.
        let result = scored(taps(missing: 5) + [masked(3.97, decay: -1.6), masked(4.005)])
        #expect(result[3.97]?.kind == .tap)
        #expect(result[4.005]?.kind == .other)
    }

    @Test func anUnsteadyRhythmFillsNoBeat() throws {
        // Intervals of 0.5 and 0.7 s in turn (median 0.6 s, robust SD 0.15 s, over the 90 ms
        // tolerance) around an empty beat whose sound lies 0.6 s from the taps on either side.
        let intervals = [0.5, 0.7, 0.5, 0.7, 0.5, 0.6, 0.6, 0.5, 0.7, 0.5, 0.7]
        let times = intervals.reduce(into: [1.0]) { $0.append($0.last! + $1) }
        let filled = times[6]
        let onsets = times.filter { $0 != filled }.map { onset($0) } + [masked(filled)]
        #expect(scored(onsets)[filled]?.kind == .other)
        // The same beat in a steady rhythm is filled.
        let steady = (0..<12).map { 1 + Double($0) * 0.6 }
        #expect(scored(steady.filter { $0 != steady[6] }.map { onset($0) } + [masked(steady[6])])[steady[6]]?.kind == .tap)
    }
}

/// A sound that rose out of an earlier one and spreads its power further from the taps than
/// a masked tap may is a suspect of the outsider rule (`TapScore.ridingOutliers`): off the
/// rhythm it is set aside, on it a tap, and an anchor still.
@Suite struct RidingSoundTests {
    let helper = MaskedTapTests()

    /// `rise` dB over what it rose out of (the mask asks 2.5; 5 dB is a syllable's), `distance`
    /// dB from the taps' profile.
    func riding(_ time: Double, distance: Double, rise: Double = 5, onEarlierSound: Bool = true) -> Onset {
        let profile = zip(MaskedTapTests.tapProfile, [1.0, 1, 1, -1, -1, -1]).map { $0 + $1 * distance }
        return helper.onset(time, aboveMask: rise, onEarlierSound: onEarlierSound, profile: profile)
    }

    @Test func aRidingSoundSpreadUnlikeTheTapsOffTheBeatIsNotATap() {
        #expect(helper.scored(helper.taps(missing: 99) + [riding(3.7, distance: 8.5)])[3.7]?.kind == .other)
        // Within the 8 dB it sounds like the taps, and off the beat too it stays one; so does a
        // sound as far off that rose out of the background.
        #expect(helper.scored(helper.taps(missing: 99) + [riding(3.7, distance: 7.5)])[3.7]?.kind == .tap)
        #expect(helper.scored(helper.taps(missing: 99) + [riding(3.7, distance: 9.5, onEarlierSound: false)])[3.7]?.kind == .tap)
        // 6 dB or more over what it rose out of, it is heard on its own.
        #expect(helper.scored(helper.taps(missing: 99) + [riding(3.7, distance: 9.5, rise: 6.5)])[3.7]?.kind == .tap)
        #expect(helper.scored(helper.taps(missing: 99) + [riding(3.7, distance: 9.5, rise: 5.5)])[3.7]?.kind == .other)
    }

    @Test func aRidingSoundSpreadUnlikeTheTapsOnTheBeatIsATap() {
        #expect(helper.scored(helper.taps(missing: 5) + [riding(4.0, distance: 9.5)])[4.0]?.kind == .tap)
    }

    @Test func ridingSoundsStayAnchors() {
        // Taps at 3.4 and 5.2 s silent, riding sounds in place of those at 4.0 and 4.6 s: each
        // has only the other one interval away.
        let onsets = (0..<12).filter { !(4...7).contains($0) }.map { helper.onset(1 + Double($0) * 0.6) }
            + [riding(4.0, distance: 9.5), riding(4.6, distance: 9.5)]
        let result = helper.scored(onsets)
        #expect(result[4.0]?.kind == .tap && result[4.6]?.kind == .tap)
    }
}

/// No finger taps twice within 40 ms (`TapScore.tooSoonAfterATap`): of two taps closer than
/// that, the later, a click left in after the tap or its rattle, is set aside.
@Suite struct TooSoonAfterATapTests {
    let helper = MaskedTapTests()

    @Test func aLoudSoundTwentyMillisecondsAfterATapIsNotATap() {
        let click = helper.onset(4.02, strength: -10)
        let result = helper.scored(helper.taps(missing: 99) + [click])
        #expect(result[4.02]?.kind == .other)
        #expect(result[4.0]?.kind == .tap)
    }

    @Test func aRunIsJudgedAgainstTheTapKept() {
        // 20 ms after the tap, then 25 ms after that: the third is 45 ms after the tap kept.
        let onsets = (helper.taps(missing: 99) + [helper.onset(4.02, strength: -10), helper.onset(4.045, strength: -10)])
            .sorted { $0.time < $1.time }
        let scores = onsets.map { _ in 1.0 }
        let tooSoon = TapScore.tooSoonAfterATap(onsets, scores: scores).map { onsets[$0].time }
        #expect(tooSoon == [4.02])
    }

    @Test func fortyMillisecondsAfterIsNotTooSoon() {
        // From 40 ms on, the crowds' rule and the rhythm judge: this rule leaves the score.
        func tooSoon(after gap: Double) -> [Double] {
            let onsets = (helper.taps(missing: 99) + [helper.onset(4.0 + gap, strength: -10)]).sorted { $0.time < $1.time }
            return TapScore.tooSoonAfterATap(onsets, scores: onsets.map { _ in 1.0 }).map { onsets[$0].time }
        }
        #expect(tooSoon(after: 0.039) == [4.039])
        #expect(tooSoon(after: 0.040).isEmpty)
    }
}
