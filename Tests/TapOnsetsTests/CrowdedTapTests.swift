import Foundation
import Testing
@testable import TapOnsets
import TapAudio

/// Taps closer together than a tapper taps (`TapScore.judgeCrowds`): a sound unlike the taps
/// loses to one like them, the rhythm of the taps around a crowd says which of the others is
/// the tap, and sets aside a crowd that keeps no rhythm before the taps start or between two
/// beats.
@Suite struct CrowdedTapTests {
    /// A sound that every per-sound rule takes for a tap, with the taps' spectrum.
    func onset(_ time: Double, strength: Double = -20, attack: Double = 0.001) -> Onset {
        let features = OnsetFeatures(sustainedSNR: 25, attackDuration: attack, aboveMaskDB: 25, decayDB: -12,
                                     spectralCentroid: 1_000, spectralFlatness: 0.05)
        return Onset(time: time, frame: Int(time * 48_000), peakTime: time + 0.001, strength: strength, snrDB: 30, features: features)
    }

    /// Twelve taps every 0.6 s from 1 s, with a scatter of a few milliseconds.
    func taps(from start: Double = 1) -> [Onset] {
        (0..<12).map { onset(start + Double($0) * 0.6 + 0.004 * sin(Double($0) * 2.1)) }
    }

    func kinds(_ onsets: [Onset]) -> [Double: OnsetKind] {
        let scored = TapScore.classify(onsets.sorted { $0.time < $1.time }, cut: 0.5)
        return Dictionary(uniqueKeysWithValues: scored.map { ($0.time, $0.kind) })
    }

    /// Expects every one of `sounds` set aside and every one of `taps` kept.
    func expectSetAside(_ sounds: [Onset], among taps: [Onset], sourceLocation: SourceLocation = #_sourceLocation) {
        let result = kinds(taps + sounds)
        #expect(sounds.allSatisfy { result[$0.time] == .other }, sourceLocation: sourceLocation)
        #expect(taps.allSatisfy { result[$0.time] == .tap }, sourceLocation: sourceLocation)
    }

    @Test func aKeyPressedAndReleasedJustBeforeATapIsNoTap() {
        // Press 150 ms and release 75 ms before the seventh tap: three sounds each within
        // 100 ms of the next, so no isolated press–release pair; the press and the release
        // are off the rhythm, the tap is on it.
        let taps = taps(), tap = taps[6].time
        expectSetAside([onset(tap - 0.150, strength: -24), onset(tap - 0.075, strength: -27)], among: taps)
    }

    @Test func aWeakerSoundJustBeforeATapLosesToIt() {
        // 50 ms before the tap and 8 dB weaker: too loud under the tap for a release pair,
        // on the rhythm within its tolerance but 50 ms worse than the tap.
        var onsets = taps()
        let tap = onsets[5].time
        onsets.append(onset(tap - 0.050, strength: -28))
        let result = kinds(onsets)
        #expect(result[tap - 0.050] == .other)
        #expect(result[tap] == .tap)
    }

    @Test func aLouderSoundJustAfterATapIsLeftToTheOtherRules() {
        // A click 50 ms after the tap and 10 dB louder also lies on the rhythm: which of the two
        // the tapper meant is not the rhythm's to say, so neither is set aside by it.
        var onsets = taps()
        let tap = onsets[5].time
        onsets.append(onset(tap + 0.050, strength: -10))
        let result = kinds(onsets)
        #expect(result[tap] == .tap)
        #expect(result[tap + 0.050] == .tap)
    }

    @Test func aSlowSoundOnTheBeatLosesToATapOffIt() {
        // The tap 60 ms late and, on its beat, a sound 8 dB weaker (too weak under the tap for
        // a key's press and release) that builds up over 9 ms where the taps peak in 1 ms (a
        // syllable, a click heard through a gate a tap opened). The rhythm prefers the slow
        // sound and cannot set the tap aside (it is not 6 dB weaker); of two sounds too close
        // to both be taps, the one that sounds like the taps is the tap (`attackOutliers`,
        // `judgeCrowds`).
        var onsets = taps()
        let beat = onsets[5].time
        onsets[5] = onset(beat + 0.060)
        onsets.append(onset(beat, strength: -28, attack: 0.009))
        let result = kinds(onsets)
        #expect(result[beat + 0.060] == .tap)
        #expect(result[beat] == .other)
    }

    @Test func aSharperSoundJustAfterATapIsLeftToTheOtherRules() {
        // Taps that peak 8 ms after their start and a sound 50 ms after one that peaks in 1 ms:
        // peaking sooner than the taps is no sign of another sound, only a slower build-up is.
        var onsets = taps().map { onset($0.time, attack: 0.008) }
        let tap = onsets[5].time
        onsets.append(onset(tap + 0.050, strength: -10, attack: 0.001))
        let sorted = onsets.sorted { $0.time < $1.time }
        #expect(TapScore.attackOutliers(sorted, taps: Array(sorted.indices)).isEmpty)
        let result = kinds(onsets)
        #expect(result[tap] == .tap)
        #expect(result[tap + 0.050] == .tap)
    }

    @Test func keysPressedBeforeTheTapsStartAreNoTaps() {
        // Two keys pressed and released in quick succession a second before the first tap,
        // none of them one interval before it: one crowd of four, no isolated pair.
        expectSetAside([0.80, 0.86, 0.93, 1.01].map { onset($0, strength: -22) }, among: taps(from: 2))
    }

    /// Two keys pressed and released before the first tap, the first press one interval before
    /// it (seed 109 `keyboard-dev-1`: four sounds 81–95 ms apart, the first 0.62 s before the
    /// first tap, all far flatter than the taps). A crowd that sounds unlike the taps in every
    /// member loses whole there, whatever the rhythm; with one member that sounds like them,
    /// the rhythm still chooses it.
    @Test func keysUnlikeTheTapsBeforeThemLoseWholeThoughOneKeepsTheRhythm() {
        func key(_ time: Double) -> Onset {
            var made = onset(time, strength: -22)
            made.features?.spectralFlatness = 0.6
            return made
        }
        func ringingKey(_ time: Double) -> Onset {
            var made = onset(time, strength: -22)
            made.features?.decayDB = -2
            return made
        }
        let keys = [1.40, 1.48, 1.575, 1.66].map(key)
        expectSetAside(keys, among: taps(from: 2))
        // Keys that ring on where the taps die away (unlike the taps in shape), and a crowd of
        // both kinds, as in seed 109 (two members far flatter, two unlike in centroid).
        expectSetAside([1.40, 1.48, 1.575, 1.66].map(ringingKey), among: taps(from: 2))
        expectSetAside([key(1.40), ringingKey(1.48), key(1.575), ringingKey(1.66)], among: taps(from: 2))
        var onTheRhythm = keys
        onTheRhythm[0] = onset(1.40, strength: -22)
        let result = kinds(taps(from: 2) + onTheRhythm)
        #expect(result[1.40] == .tap)
        #expect(onTheRhythm.dropFirst().allSatisfy { result[$0.time] == .other })
        // After the last tap (7.6 s) the same crowd is not set aside whole: the member one
        // interval after it stays a tap.
        let after = kinds(taps() + [7.60, 7.68, 7.775, 7.86].map { key($0 + 0.6) })
        #expect(after[8.2] == .tap)
    }

    @Test func keysBetweenTwoBeatsAreNoTaps() {
        // Two presses and their releases in one gap between steady taps: four sounds 60–70 ms
        // apart, none one interval from a tap, between two taps one interval apart.
        let taps = taps(), gap = taps[4].time
        expectSetAside([0.20, 0.26, 0.33, 0.39].map { onset(gap + $0, strength: -23) }, among: taps)
    }

    @Test func aWeakerSoundNotClearlyFurtherFromTheRhythmIsLeftToTheOtherRules() {
        // The tap 15 ms late and a sound 10 dB weaker 30 ms early: the weaker fits the rhythm
        // worse, but by 15 ms, under 5 % of the 0.6 s interval (30 ms).
        var onsets = taps()
        let beat = onsets[5].time
        onsets[5] = onset(beat + 0.015)
        onsets.append(onset(beat - 0.030, strength: -30))
        let result = kinds(onsets)
        #expect(result[beat + 0.015] == .tap)
        #expect(result[beat - 0.030] == .tap)
    }

    @Test func theLastTapsHeardWithTheirClicksStayTaps() {
        // The last two taps are each followed 50 ms later by a click 8 dB louder (no
        // press–release pair). The last tap has no anchor one interval before it (the tap
        // there is in a crowd too), so no member of its crowd keeps the rhythm; after the last
        // anchor such a crowd is not set aside.
        var onsets = taps()
        let last = onsets[11].time, beforeLast = onsets[10].time
        onsets += [onset(beforeLast + 0.050, strength: -12), onset(last + 0.050, strength: -12)]
        let result = kinds(onsets)
        #expect(result[beforeLast] == .tap)
        #expect(result[last] == .tap)
    }

    @Test func crowdsThatAreTheRuleChooseNothing() {
        // Eight of the twelve taps each come 55 ms after a sound 8 dB weaker (too loud under
        // the tap for a press–release pair): 16 of the 20 sounds are in crowds, so the taps are
        // taken as what this recording's taps sound like, and the rhythm chooses nothing. Were
        // the crowds judged, the four taps outside them would set aside the first weak sound.
        var onsets = taps()
        let early = onsets[4...].map { onset($0.time - 0.055, strength: -28) }
        onsets += early
        let result = kinds(onsets)
        #expect(result.count == 20)
        #expect(result.values.allSatisfy { $0 == .tap })
    }

    @Test func theNearestElementOfASortedArray() {
        let times = [1.0, 2.0, 4.0]
        #expect([Double]().nearest(to: 3) == nil)
        #expect(times.nearest(to: 0) == 1)
        #expect(times.nearest(to: 2.9) == 2)
        #expect(times.nearest(to: 3.1) == 4)
        #expect(times.nearest(to: 9) == 4)
    }
}
