import Foundation
import TapAudio

/// How much an onset sounds like a finger tap, from its ``OnsetFeatures`` and from the other
/// sounds of the same recording, on a scale of 0 to 1.
///
/// The score is the product of the memberships, each the degree (0–1) to which one
/// property looks like a tap's, a logistic curve that is 0.5 at its boundary:
///
/// | property | boundary | why |
/// |---|---|---|
/// | sustained SNR (first 10 ms over the floor) | ``sustainedSNRBoundary`` dB | noise excursions are brief |
/// | peak over the mask of earlier sounds | ``maskBoundary`` dB | a tap's own ringing and rattle stay under it |
/// | attack (start to power peak) | ``attackBoundary`` s | taps peak within milliseconds |
/// | decay, not above | ``decayBoundary`` dB | coughs and speech are sustained |
/// | decay, not below | ``shortestDecayBoundary`` dB | keys and electronic clicks are over within 10 ms |
/// | level under the recording's taps | ``levelRange`` dB | background blips far below every tap |
///
/// Two sounds forming a press–release pair (``pressReleasePairs(_:own:)``) have their
/// scores multiplied by ``pairFactor``. A score of 0.5 therefore means one property sits at
/// its boundary and the others are clearly tap-like; the default cut
/// (``OnsetDetectorConfiguration/minimumTapScore``) is 0.5. The level membership compares the
/// onset's peak with the recording's reference level, the second-loudest onset that passes
/// the others: a tap 30 dB quieter than that is still scored 1, a blip 50 dB under it is
/// scored near 0.
public enum TapScore {
    /// Sustained SNR at which the membership is 0.5, dB.
    public static let sustainedSNRBoundary = 4.0
    /// Peak over the mask at which the membership is 0.5, dB.
    public static let maskBoundary = 1.5
    /// Decay (``OnsetFeatures/decayDB``) at which the membership is 0.5, dB.
    public static let decayBoundary = -1.0
    /// Decay under which a sound is too short for a tap, dB: a click that is over within
    /// 10 ms (a key, an electronic click) rather than a contact that rings.
    public static let shortestDecayBoundary = -35.0
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
            * logistic((features.decayDB - shortestDecayBoundary) / 2.0)
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
        let paired = pressReleasePairs(onsets, own: own)
        return onsets.indices.map { index in
            var onset = onsets[index]
            guard onset.features != nil else { return onset }
            let level = reference.map { levelScore(strength: onset.strength, reference: $0) } ?? 1
            onset.tapScore = own[index] * level * (paired.contains(index) ? pairFactor : 1)
            onset.kind = onset.tapScore >= cut ? .tap : .other
            return onset
        }
    }

    /// Shortest and longest gap from a key's press to its release, seconds.
    public static let pairGap: ClosedRange<Seconds> = 0.040...0.100
    /// How much weaker than the press a release sounds, dB.
    public static let pairReleaseDrop: ClosedRange<Double> = 3...25
    /// The factor a press–release pair's scores are multiplied by.
    public static let pairFactor = 0.1

    /// Decay at or under which both sounds of a pair must lie: short clicks, as keys make
    /// (a tap rings longer, and a tap followed by a metronome click is no pair).
    public static let pairMaximumDecay = -25.0

    /// Indices of onsets forming press–release pairs: two short sounds (decay at most
    /// ``pairMaximumDecay``) ``pairGap`` apart, the second ``pairReleaseDrop`` weaker, with no
    /// other sound within ``pairGap`` before the first or after the second. Taps come at least
    /// 150 ms apart, so two sounds this close are not two taps; a roll of equal strokes (a
    /// drummer's) is no pair.
    static func pressReleasePairs(_ onsets: [Onset], own: [Double]) -> Set<Int> {
        // Every sound that stands out of the noise takes part.
        let heard = onsets.indices.filter { ($0 < own.count) && (onsets[$0].features?.sustainedSNR ?? 0) >= sustainedSNRBoundary }
        var paired = Set<Int>()
        for (position, first) in heard.enumerated() where position + 1 < heard.count {
            let second = heard[position + 1]
            let gap = onsets[second].time - onsets[first].time
            let drop = onsets[first].strength - onsets[second].strength
            guard pairGap.contains(gap), pairReleaseDrop.contains(drop),
                  let firstDecay = onsets[first].features?.decayDB, let secondDecay = onsets[second].features?.decayDB,
                  max(firstDecay, secondDecay) <= pairMaximumDecay else { continue }
            let isolatedBefore = position == 0 || onsets[first].time - onsets[heard[position - 1]].time > pairGap.upperBound
            let isolatedAfter = position + 2 >= heard.count || onsets[heard[position + 2]].time - onsets[second].time > pairGap.upperBound
            if isolatedBefore && isolatedAfter { paired.formUnion([first, second]) }
        }
        return paired
    }

    private static func logistic(_ x: Double) -> Double { 1 / (1 + exp(-x)) }
}
