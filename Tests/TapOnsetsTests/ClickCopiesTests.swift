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

    /// `profile` moved `distance` dB (root mean square over the six bands).
    func shifted(_ profile: [Double], by distance: Double) -> [Double] {
        zip(profile, [1.0, 1, 1, -1, -1, -1]).map { $0 + $1 * distance }
    }

    @Test func aLoneClickThatCopiesTheSetAsideOnesIsOne() {
        let lone = onset(9.765, profile: shifted(Self.clickProfile, by: 0.5), level: -39.8, centroid: 947)
        let tap = onset(9.1, profile: Self.tapProfile, level: -20, centroid: 1_500)
        #expect(ClickCopies.indices(in: [tap, lone], clicks: clicks) == [1])
    }

    @Test func aSoundOffInProfileLevelOrPitchIsNoCopy() {
        let cases: [(Onset, String)] = [
            (onset(9.765, profile: shifted(Self.clickProfile, by: 1.5), level: -39.8), "1.5 dB off in profile"),
            (onset(9.765, profile: Self.clickProfile, level: -38.0), "1.4 dB louder than the louder click"),
            (onset(9.765, profile: Self.clickProfile, level: -39.8, centroid: 1_030), "8 % higher in centroid"),
        ]
        for (sound, what) in cases {
            #expect(ClickCopies.indices(in: [sound], clicks: clicks).isEmpty, "\(what)")
        }
        // Within the bounds on each: a copy.
        let near = onset(9.765, profile: shifted(Self.clickProfile, by: 0.9), level: -39.0, centroid: 990)
        #expect(ClickCopies.indices(in: [near], clicks: clicks) == [0])
    }

    @Test func oneClickToCopyIsNotEnough() {
        let lone = onset(9.765, profile: Self.clickProfile, level: -39.6)
        #expect(ClickCopies.indices(in: [lone], clicks: Array(clicks.prefix(1))).isEmpty)
        // A heard click listed without features is not compared.
        var unmeasured = clicks
        unmeasured[1].features = nil
        #expect(ClickCopies.indices(in: [lone], clicks: unmeasured).isEmpty)
    }

    @Test func onlyTapsAreJudged() {
        let other = onset(9.765, profile: Self.clickProfile, level: -39.6, kind: .other)
        #expect(ClickCopies.indices(in: [other], clicks: clicks).isEmpty)
    }

    @Test func theCopyJoinsTheStimulusOnsets() {
        let taps = (0..<12).map { onset(2.3 + 0.674 * Double($0), profile: Self.tapProfile, level: -20, centroid: 1_500) }
        let lone = onset(2.3 + 0.674 * 12, profile: Self.clickProfile, level: -39.6)   // on the beat after the last tap
        let detection = TapOnsetDetection(onsets: taps + [lone], stimulusOnsets: clicks).classified(cut: 0.5)
        #expect(detection.onsets.count == 12)
        #expect(detection.stimulusOnsets.map(\.time) == [1.0, 1.674, lone.time])
        #expect(detection.stimulusOnsets.allSatisfy { $0.kind == .stimulus })
    }
}
