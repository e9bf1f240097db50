import Foundation
import Testing
@testable import TapOnsets

/// A click heard alone where no tap masks it copies the clicks set aside, to the decibel; a
/// tap does not (`ClickCopies`).
@Suite struct ClickCopiesTests {
    static let clickProfile = [-5.9, -1.3, -30, -30, -30, -30]
    static let tapProfile = [-3.0, -15, -22, -6, -21, -30]

    func onset(_ time: Double, profile: [Double], level: Double, centroid: Double = 948, kind: OnsetKind = .tap) -> Onset {
        let features = OnsetFeatures(sustainedSNR: 30, attackDuration: 0.003, aboveMaskDB: 30, decayDB: -6,
                                     spectralCentroid: centroid, spectralFlatness: 0.001, soundCentroid: centroid,
                                     bandProfile: profile, onEarlierSound: false)
        return Onset(time: time, frame: Int(time * 48_000), peakTime: time + 0.003, strength: level, snrDB: 50,
                     features: features, kind: kind)
    }

    /// A count-in's two clicks, set aside.
    var clicks: [Onset] { [onset(1.0, profile: Self.clickProfile, level: -39.4), onset(1.674, profile: Self.clickProfile, level: -39.9)] }

    /// Twelve taps a beat apart from 2.3 s, at −20 dBFS (their median level).
    var taps: [Onset] { (0..<12).map { onset(2.3 + 0.674 * Double($0), profile: Self.tapProfile, level: -20, centroid: 1_500) } }

    /// The indices among `sounds` (after the taps) that copy the clicks.
    func copies(_ sounds: [Onset], clicks: [Onset]? = nil) -> Set<Int> {
        Set(ClickCopies.indices(in: taps + sounds, clicks: clicks ?? self.clicks).map { $0 - taps.count })
    }

    /// `profile` moved `distance` dB (root mean square over the six bands).
    func shifted(_ profile: [Double], by distance: Double) -> [Double] {
        zip(profile, [1.0, 1, 1, -1, -1, -1]).map { $0 + $1 * distance }
    }

    @Test func aLoneClickThatCopiesTheSetAsideOnesIsOne() {
        let lone = onset(9.765, profile: shifted(Self.clickProfile, by: 0.5), level: -39.8, centroid: 947)
        #expect(copies([lone]) == [0])
    }

    @Test func aSoundOffInProfileLevelOrPitchIsNoCopy() {
        let cases: [(Onset, String)] = [
            (onset(9.765, profile: shifted(Self.clickProfile, by: 1.5), level: -39.8), "1.5 dB off in profile"),
            (onset(9.765, profile: Self.clickProfile, level: -38.0), "1.4 dB louder than the louder click"),
            (onset(9.765, profile: Self.clickProfile, level: -39.8, centroid: 1_030), "8 % higher in centroid"),
        ]
        for (sound, what) in cases {
            #expect(copies([sound]).isEmpty, "\(what)")
        }
        // A tap just before a click sounds on into it: its whole sound's centroid is the
        // click's, its onset's is its own, and the onset's is compared.
        var intoAClick = onset(9.765, profile: Self.clickProfile, level: -39.8, centroid: 1_030)
        intoAClick.features?.soundCentroid = 948
        #expect(copies([intoAClick]).isEmpty)
        // Within the bounds on each: a copy.
        let near = onset(9.765, profile: shifted(Self.clickProfile, by: 0.9), level: -39.0, centroid: 990)
        #expect(copies([near]) == [0])
    }

    /// A quiet click's bands that carry little of it hold the noise and scatter; only the
    /// bands that carry either sound (−12 dB of its power or more) are compared, so a
    /// difference there is not diluted over the quiet ones. A sound that puts power where the
    /// clicks have none carries that band, and differs there. Where one band carries the
    /// clicks, the whole profiles are compared.
    @Test func aQuietClicksNoiseFilledBandsDoNotHideTheCopy() {
        let noisy = onset(9.765, profile: [-5.7, -1.4, -22, -26, -18, -30], level: -39.8)
        #expect(copies([noisy]) == [0])
        let offWhereItCarries = onset(9.765, profile: [-7.6, -1.4, -30, -30, -30, -30], level: -39.8)
        #expect(copies([offWhereItCarries]).isEmpty)
        let anotherBand = onset(9.765, profile: [-5.9, -1.3, -30, -8, -30, -30], level: -39.8)
        #expect(copies([anotherBand]).isEmpty)
        let oneBand = [-17.2, -0.2, -15.1, -30, -30, -30]
        let oneBandClicks = [onset(1.0, profile: oneBand, level: -39.4), onset(1.674, profile: oneBand, level: -39.9)]
        let oneBandCopy = onset(9.765, profile: [-17.3, -0.2, -14.7, -30, -30, -30], level: -39.8)
        #expect(copies([oneBandCopy], clicks: oneBandClicks) == [0])
    }

    @Test func oneClickToCopyIsNotEnough() {
        let lone = onset(9.765, profile: Self.clickProfile, level: -39.6)
        #expect(copies([lone], clicks: Array(clicks.prefix(1))).isEmpty)
        // A heard click listed without features is not compared.
        var unmeasured = clicks
        unmeasured[1].features = nil
        #expect(copies([lone], clicks: unmeasured).isEmpty)
    }

    /// Judged by score, not by the cut: a sound under the reference score is no tap to set
    /// aside; one over it is judged whatever kind the cut gave it.
    @Test func onlyTapsAtTheReferenceScoreAreJudged() {
        var under = onset(9.765, profile: Self.clickProfile, level: -39.6, kind: .other)
        under.tapScore = 0.3
        #expect(copies([under]).isEmpty)
        var over = under
        over.tapScore = 0.7
        #expect(copies([over]) == [0])
    }

    /// A tapper whose taps are as alike as clicks (a key, a pad), some of them set aside with
    /// their clicks: the taps at their own level are no copies of those.
    @Test func tapsAsAlikeAsClicksAreNoCopies() {
        let setAsideTaps = [onset(1.0, profile: Self.tapProfile, level: -20, centroid: 1_500),
                            onset(1.674, profile: Self.tapProfile, level: -20.3, centroid: 1_500)]
        #expect(ClickCopies.indices(in: taps, clicks: setAsideTaps).isEmpty)
        // 10 dB under the taps' median level a copy may lie; 9 dB under, it may not.
        let clicksAt = { (level: Double) in [self.onset(1.0, profile: Self.clickProfile, level: level),
                                             self.onset(1.674, profile: Self.clickProfile, level: level)] }
        #expect(copies([onset(9.765, profile: Self.clickProfile, level: -30)], clicks: clicksAt(-30)) == [0])
        #expect(copies([onset(9.765, profile: Self.clickProfile, level: -29)], clicks: clicksAt(-29)).isEmpty)
    }

    @Test func withFewerThanEightTapsNothingIsACopy() {
        let lone = onset(9.765, profile: Self.clickProfile, level: -39.6)
        // Six taps and the lone click: seven sounds at the reference score.
        #expect(ClickCopies.indices(in: Array(taps.prefix(6)) + [lone], clicks: clicks).isEmpty)
        #expect(ClickCopies.indices(in: Array(taps.prefix(7)) + [lone], clicks: clicks) == [7])
    }

    @Test func theCopyJoinsTheStimulusOnsets() {
        let lone = onset(2.3 + 0.674 * 12, profile: Self.clickProfile, level: -39.6)   // on the beat after the last tap
        let detection = TapOnsetDetection(onsets: taps + [lone], stimulusOnsets: clicks).classified(cut: 0.5)
        #expect(detection.onsets.count == 12)
        #expect(detection.stimulusOnsets.map(\.time) == [1.0, 1.674, lone.time])
        #expect(detection.stimulusOnsets.allSatisfy { $0.kind == .stimulus })
    }
}
