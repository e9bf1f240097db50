import Foundation
import TapAudio

/// How much an onset sounds like a finger tap, from its ``OnsetFeatures`` and from the other
/// sounds of the same recording, on a scale of 0 to 1.
///
/// The score is the product of four memberships, each the degree (0–1) to which one
/// property looks like a tap's, a logistic curve that is 0.5 at its boundary:
///
/// | property | boundary | why |
/// |---|---|---|
/// | sustained SNR (first 10 ms over the floor) | ``sustainedSNRBoundary`` dB | noise excursions are brief |
/// | peak over the mask of earlier sounds | ``maskBoundary`` dB | a tap's own ringing and rattle stay under it |
/// | attack (start to power peak) | ``attackBoundary`` s | taps peak within milliseconds |
/// | level under the recording's taps | ``levelRange`` dB | background blips far below every tap |
///
/// A score of 0.5 therefore means one property sits at its boundary and the others are
/// clearly tap-like; the default cut (``OnsetDetectorConfiguration/minimumTapScore``) is 0.5.
/// The level membership compares the onset's peak with the recording's reference level, the
/// second-loudest onset that passes the other three: a tap 30 dB quieter than that is still
/// scored 1, a blip 50 dB under it is scored near 0.
public enum TapScore {
    /// Sustained SNR at which the membership is 0.5, dB.
    public static let sustainedSNRBoundary = 4.0
    /// Peak over the mask at which the membership is 0.5, dB.
    public static let maskBoundary = 1.5
    /// Decay (``OnsetFeatures/decayDB``) at which the membership is 0.5, dB.
    public static let decayBoundary = -1.0
    /// Attack duration at which the membership is 0.5, seconds.
    public static let attackBoundary: Seconds = 0.020
    /// How far under the reference level the level membership is 0.5, dB.
    public static let levelRange = 40.0

    /// The memberships of the four properties an onset has on its own (SNR, mask, attack,
    /// decay).
    static func ownScore(_ features: OnsetFeatures) -> Double {
        logistic((features.sustainedSNR - sustainedSNRBoundary) / 0.7)
            * logistic((features.aboveMaskDB - maskBoundary) / 0.8)
            * logistic((attackBoundary - features.attackDuration) / 0.002)
            * logistic((decayBoundary - features.decayDB) / 1.0)
    }

    /// The level membership of a peak at `strength` dBFS against the `reference` level.
    static func levelScore(strength: Double, reference: Double) -> Double {
        logistic((strength - (reference - levelRange)) / 2.0)
    }

    /// Scores and classifies every onset with features (others keep score 1 and their kind):
    /// ``OnsetKind/tap`` at or above `cut`, ``OnsetKind/other`` below.
    public static func classify(_ onsets: [Onset], cut: Double) -> [Onset] {
        let own = onsets.map { $0.features.map(ownScore) ?? 1 }
        let candidates = onsets.indices.filter { own[$0] >= 0.5 }.map { onsets[$0].strength }.sorted(by: >)
        let reference = candidates.count >= 2 ? candidates[1] : candidates.first
        return onsets.indices.map { index in
            var onset = onsets[index]
            guard onset.features != nil else { return onset }
            let level = reference.map { levelScore(strength: onset.strength, reference: $0) } ?? 1
            onset.tapScore = own[index] * level
            onset.kind = onset.tapScore >= cut ? .tap : .other
            return onset
        }
    }

    private static func logistic(_ x: Double) -> Double { 1 / (1 + exp(-x)) }
}
