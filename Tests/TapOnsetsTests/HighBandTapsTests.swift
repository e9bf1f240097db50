import Foundation
import Testing
@testable import TapOnsets
import TapAudio
import TapTestSupport

/// Taps a high band hears where the band chosen heard none (`HighBandTaps`): added only where
/// the band chosen heard nothing tap-like on its own properties and no rule set a sound aside,
/// never twice within 40 ms; and the step runs only where other sounds are at least as many as
/// the taps, at a sample rate that has the band, with the band choice on.
@Suite struct HighBandTapsTests {
    /// An onset of the band chosen: `aboveMask` decides its own score (25 dB: clear, about 1;
    /// −5 dB: under the mask, about 0).
    func onset(_ time: Double, kind: OnsetKind, aboveMask: Double = 25, score: Double = 1) -> Onset {
        let features = OnsetFeatures(sustainedSNR: 20, attackDuration: 0.0015, aboveMaskDB: aboveMask, decayDB: -12,
                                     spectralCentroid: 1_500, spectralFlatness: 0.01, soundCentroid: 1_500,
                                     bandProfile: [-3, -3], onEarlierSound: false)
        return Onset(time: time, frame: Int(time * 48_000), peakTime: time + 0.001, strength: -20, snrDB: 25,
                     features: features, tapScore: score, kind: kind)
    }

    /// A tap of the high band.
    func heard(_ time: Double, score: Double = 0.95) -> Onset {
        var tap = onset(time, kind: .tap, score: score)
        tap.strength = -40
        return tap
    }

    /// Another sound of the high band, scoring under the cut there.
    func heardOther(_ time: Double, score: Double = 0.1) -> Onset {
        var sound = onset(time, kind: .other, score: score)
        sound.strength = -50
        return sound
    }

    /// A detection of the band chosen from its onsets in any order (each kind in time order).
    func detection(_ unordered: [Onset]) -> TapOnsetDetection {
        let onsets = unordered.sorted { $0.time < $1.time }
        return TapOnsetDetection(onsets: onsets.filter { $0.kind == .tap }, otherOnsets: onsets.filter { $0.kind == .other },
                                 stimulusOnsets: onsets.filter { $0.kind == .stimulus })
    }

    @Test func aTapIsAddedWhereTheBandChosenHeardNothingOrOnlyASoundUnderTheCut() {
        let chosen = detection([onset(1.0, kind: .tap), onset(2.0, kind: .tap),
                                onset(2.502, kind: .other, aboveMask: -5, score: 0.01)])
        #expect(TapScore.ownScore(chosen.otherOnsets[0].features!) < 0.5)
        let result = HighBandTaps.adding([heard(1.5), heard(2.5)], to: chosen, cut: 0.5)
        #expect(result.onsets.map(\.time) == [1.0, 1.5, 2.0, 2.5])
        #expect(result.highBandTaps == 2)
        // The other sound the tap at 2.5 s stands for leaves the list; the added taps keep
        // what the high band measured.
        #expect(result.otherOnsets.isEmpty)
        #expect(result.onsets.filter { $0.strength == -40 }.count == 2)
        #expect(result.onsets.allSatisfy { $0.kind == .tap })
        // ...and say so.
        #expect(result.onsets.map(\.highBandCutoff) == [nil, HighBandTaps.cutoff, nil, HighBandTaps.cutoff])
    }

    /// Whatever their own scores: a masked tap taken back by a rule and a click's leftover
    /// under its mask both score under the cut on their own. (A tap there also keeps the
    /// candidate out by the 40 ms gap; a stimulus onset only by its kind.)
    @Test func noTapIsAddedOnATapOrAStimulusOnsetOfTheBandChosen() {
        let chosen = detection([onset(1.0, kind: .tap, aboveMask: -5), onset(2.0, kind: .stimulus, aboveMask: -5)])
        let result = HighBandTaps.adding([heard(1.002), heard(1.998)], to: chosen, cut: 0.5)
        #expect(result.onsets.map(\.time) == [1.0])
        #expect(result.highBandTaps == 0)
        #expect(result.stimulusOnsets.map(\.time) == [2.0])
    }

    /// An `other` sound whose own properties pass the cut was set aside by a rule (a release, a
    /// train, an outsider): that verdict stands. Farther than 3 ms it is another sound.
    @Test func aSoundARuleSetAsideKeepsItsVerdict() {
        let aside = onset(3.0, kind: .other, aboveMask: 25, score: 0.1)
        #expect(TapScore.ownScore(aside.features!) >= 0.5)
        let chosen = detection([onset(1.0, kind: .tap), aside])
        #expect(HighBandTaps.adding([heard(3.0025)], to: chosen, cut: 0.5).onsets.count == 1)
        let beyond = HighBandTaps.adding([heard(3.0035)], to: chosen, cut: 0.5)
        #expect(beyond.onsets.map(\.time) == [1.0, 3.0035])
        #expect(beyond.otherOnsets.map(\.time) == [3.0])
        // At a cut over its own score, the same sound counts as under the cut.
        #expect(HighBandTaps.adding([heard(3.0025)], to: chosen, cut: 1.01).onsets.count == 2)
    }

    /// No finger taps twice within 40 ms: of the band chosen's taps or of those added.
    @Test func noTapIsAddedWithinFortyMillisecondsOfAnother() {
        let chosen = detection([onset(1.0, kind: .tap)])
        let result = HighBandTaps.adding([heard(1.039), heard(1.5), heard(1.535)], to: chosen, cut: 0.5)
        #expect(result.onsets.map(\.time) == [1.0, 1.5])
        #expect(result.highBandTaps == 1)
        #expect(HighBandTaps.adding([heard(1.0405)], to: chosen, cut: 0.5).onsets.count == 2)
    }

    /// When the step runs: the high band's detection (here a stand-in) is asked only where the
    /// band chosen heard at least as many other sounds as taps, at a sample rate over 20 kHz,
    /// under a band chosen below 8 kHz and with the band choice on; it runs with an 8 kHz
    /// high-pass and no drum-kit completion, and only its taps scoring 0.9 or more are added
    /// (two taps make no rhythm, so no empty beat is filled).
    @Test func theHighBandRunsOnlyWhereOtherSoundsAreAsManyAsTheTaps() throws {
        let chosen = detection([onset(1.0, kind: .tap), onset(2.0, kind: .tap),
                                onset(1.2, kind: .other, aboveMask: -5, score: 0.01),
                                onset(1.7, kind: .other, aboveMask: -5, score: 0.01)])
        var asked: [OnsetDetectorConfiguration] = []
        let high = TapOnsetDetection(onsets: [heard(1.5, score: 0.95), heard(2.5, score: 0.85)])
        func run(_ detection: TapOnsetDetection, rate: Double = 48_000,
                 _ change: (inout OnsetDetectorConfiguration) -> Void = { _ in }) throws -> TapOnsetDetection {
            var configuration = OnsetDetectorConfiguration.standard
            change(&configuration)
            return try HighBandTaps.completed(detection, sampleRate: rate, configuration: configuration) {
                (configuration: OnsetDetectorConfiguration) throws(AudioError) in
                asked.append(configuration)
                return high
            }
        }
        let result = try run(chosen)
        #expect(result.onsets.map(\.time) == [1.0, 1.5, 2.0])
        #expect(result.highBandTaps == 1)
        let configuration = try #require(asked.first)
        #expect(configuration.highPassCutoff == HighBandTaps.cutoff && !configuration.completesDensePercussion)
        // Fewer other sounds than taps, a rate of 20 kHz, the band choice off, a band chosen at
        // 8 kHz already, a stimulus file's bleed subtracted, a drum kit completed: not asked,
        // and the detection is returned as it was.
        var fewer = chosen
        fewer.otherOnsets.removeLast()
        var banded = chosen
        banded.detectionBand = DetectionBand(cutoff: 8000, contrastDB: 30, configuredContrastDB: 20)
        var subtracted = chosen
        subtracted.stimulusBleed = StimulusBleedReport(status: .removed)
        var kit = chosen
        kit.densePercussionOnsets = 3
        asked = []
        #expect(try run(fewer) == fewer)
        #expect(try run(chosen, rate: 20_000) == chosen)
        #expect(try run(chosen) { $0.choosesDetectionBand = false } == chosen)
        #expect(try run(banded) == banded)
        #expect(try run(subtracted) == subtracted)
        #expect(try run(kit) == kit)
        #expect(asked.isEmpty)
        // Under a band chosen at 4 kHz, and where no tap but other sounds were heard, it runs.
        banded.detectionBand = DetectionBand(cutoff: 4000, contrastDB: 30, configuredContrastDB: 20)
        #expect(try run(banded).highBandTaps == 1)
        #expect(try run(detection(chosen.otherOnsets)).highBandTaps == 1)
        #expect(try run(TapOnsetDetection(onsets: [])) == TapOnsetDetection(onsets: []))
        #expect(asked.count == 2)
    }

    /// Taps every 0.6 s from 1 s, but for the beats numbered `empty`.
    static func steadyTaps(count: Int = 12, leaving empty: Set<Int> = []) -> [Double] {
        (0..<count).filter { !empty.contains($0) }.map { 1.0 + 0.6 * Double($0) }
    }

    /// The tolerance is 0.15 of the 0.6 s interval, 90 ms, and a sound must lie within half
    /// of it, 45 ms, of the empty beat (4.0 s); it becomes a tap at the cut, whatever its score.
    @Test func aSoundOfTheHighBandFillsTheEmptyBeatOfASteadyRhythm() throws {
        let taps = Self.steadyTaps(leaving: [5])
        let filled = HighBandTaps.emptyBeatTaps([heardOther(3.93, score: 0.2), heardOther(4.004)], taps: taps, cut: 0.5)
        #expect(filled.map(\.time) == [4.004])
        let tap = try #require(filled.first)
        #expect(tap.kind == .tap && tap.tapScore == 0.5)
        #expect(HighBandTaps.emptyBeatTaps([heardOther(4.004)], taps: taps, cut: 0.7).map(\.tapScore) == [0.7])
        #expect(HighBandTaps.emptyBeatTaps([heard(4.004, score: 0.95)], taps: taps, cut: 0.5).map(\.tapScore) == [0.95])
        #expect(HighBandTaps.emptyBeatTaps([heard(4.044)], taps: taps, cut: 0.5).count == 1)
        #expect(HighBandTaps.emptyBeatTaps([heard(4.046)], taps: taps, cut: 0.5).isEmpty)
        #expect(HighBandTaps.emptyBeatTaps([heard(3.956)], taps: taps, cut: 0.5).count == 1)
        #expect(HighBandTaps.emptyBeatTaps([heard(3.954)], taps: taps, cut: 0.5).isEmpty)
        // Of two near the beat, neither (which is the tap is not known); where no beat is
        // empty, none.
        #expect(HighBandTaps.emptyBeatTaps([heard(3.99), heard(4.02)], taps: taps, cut: 0.5).isEmpty)
        #expect(HighBandTaps.emptyBeatTaps([heard(3.94), heard(4.02)], taps: taps, cut: 0.5).map(\.time) == [4.02])
        #expect(HighBandTaps.emptyBeatTaps([heard(4.0)], taps: Self.steadyTaps(), cut: 0.5).isEmpty)
    }

    /// A sound that peaks more than 4 ms after its start is no tap's contact (a syllable just
    /// before the tap, the tap its peak), and one without features is not known to be one.
    @Test func onlyASoundThatPeaksSoonFillsABeat() {
        let taps = Self.steadyTaps(leaving: [5])
        var slow = heard(4.0)
        slow.features?.attackDuration = 0.0041
        #expect(HighBandTaps.emptyBeatTaps([slow], taps: taps, cut: 0.5).isEmpty)
        slow.features?.attackDuration = 0.0039
        #expect(HighBandTaps.emptyBeatTaps([slow], taps: taps, cut: 0.5).count == 1)
        slow.features = nil
        #expect(HighBandTaps.emptyBeatTaps([slow], taps: taps, cut: 0.5).isEmpty)
    }

    /// Two beats lost in a row (a gap of three intervals) are both filled, at a third and two
    /// thirds of the gap; three in a row are not.
    @Test func twoEmptyBeatsInARowAreFilledButNotThree() {
        let sounds = [heard(4.01, score: 0.1), heard(4.59, score: 0.1), heard(5.2, score: 0.1)]
        #expect(HighBandTaps.emptyBeatTaps(sounds, taps: Self.steadyTaps(leaving: [5, 6]), cut: 0.5).map(\.time) == [4.01, 4.59])
        #expect(HighBandTaps.emptyBeatTaps(sounds, taps: Self.steadyTaps(leaving: [5, 6, 7]), cut: 0.5).isEmpty)
        // Nor is a gap that is not a whole number of intervals (1.67 here: two, but 0.2 s off).
        let offTheBeat = Self.steadyTaps(leaving: [5]).map { $0 > 4 ? $0 - 0.2 : $0 }
        #expect(HighBandTaps.emptyBeatTaps([heard(3.9)], taps: offTheBeat, cut: 0.5).isEmpty)
    }

    /// Where the intervals around scatter by more than the tolerance, or fewer than eight taps
    /// make a rhythm, no beat is known to be empty.
    @Test func noBeatIsFilledWhereTheRhythmIsUnsteadyOrTheTapsFew() {
        // Intervals of 0.45 and 0.75 s in turn: their median is 0.6 s and the gap of 1.2 s two
        // of it, but their robust SD, 0.22 s, is past the 90 ms tolerance.
        let unsteady = [1.0, 1.75, 2.2, 2.95, 3.4, 4.6, 5.05, 5.8, 6.25, 7.0]
        #expect(HighBandTaps.emptyBeatTaps([heard(4.0)], taps: unsteady, cut: 0.5).isEmpty)
        let few = Self.steadyTaps(count: 8, leaving: [5])
        #expect(few.count == 7)
        #expect(HighBandTaps.emptyBeatTaps([heard(4.0)], taps: few, cut: 0.5).isEmpty)
        #expect(HighBandTaps.emptyBeatTaps([heard(4.0)], taps: Self.steadyTaps(count: 9, leaving: [5]), cut: 0.5).count == 1)
    }

    /// Through the step: the high band's sounds at the two empty beats (4.0 and 6.4 s) are
    /// added, scoring under 0.9 there (one of its taps, one of its other sounds), and their
    /// equal off the beat is not; the same two rules as for a clear tap judge them: an `other`
    /// sound of the band chosen within 3 ms that passes the cut on its own properties keeps
    /// its verdict, and one under it is replaced. Where the band chosen heard a tap 30 ms
    /// before a beat, the beat is not empty.
    @Test func theStepFillsTheEmptyBeatsWithTheHighBandsSounds() throws {
        let taps = Self.steadyTaps(leaving: [5, 9]).map { onset($0, kind: .tap) }
        let others = taps.map { onset($0.time + 0.3, kind: .other, aboveMask: -5, score: 0.01) }
        let high = TapOnsetDetection(onsets: [heard(6.402, score: 0.6)], otherOnsets: [heardOther(2.85), heardOther(4.003)])
        func run(_ chosen: TapOnsetDetection) throws -> TapOnsetDetection {
            try HighBandTaps.completed(chosen, sampleRate: 48_000, configuration: .standard) {
                (_: OnsetDetectorConfiguration) throws(AudioError) in high
            }
        }
        let result = try run(detection(taps + others))
        #expect(result.onsets.count == taps.count + 2)
        #expect(result.onsets.filter { $0.highBandCutoff != nil }.map(\.time) == [4.003, 6.402])
        #expect(result.onsets.allSatisfy { $0.kind == .tap })
        let underTheCut = onset(4.004, kind: .other, aboveMask: -5, score: 0.01)
        let replaced = try run(detection(taps + others + [underTheCut]))
        #expect(replaced.onsets.filter { $0.highBandCutoff != nil }.map(\.time) == [4.003, 6.402])
        #expect(!replaced.otherOnsets.contains { $0.time == 4.004 })
        let setAside = onset(4.004, kind: .other, aboveMask: 25, score: 0.1)
        #expect(try run(detection(taps + others + [setAside])).onsets.filter { $0.highBandCutoff != nil }.map(\.time) == [6.402])
        // A tap 43 ms before the beat fills it: the beat is not empty. (Far enough from the high
        // band's sound at 4.003 s, 46 ms, that the 40 ms rule of `adding` alone would not refuse
        // it. One more other sound, so that they are still as many as the taps.)
        let nearATap = try run(detection(taps + others + [onset(3.957, kind: .tap), onset(7.6, kind: .other, aboveMask: -5, score: 0.01)]))
        #expect(nearATap.onsets.filter { $0.highBandCutoff != nil }.map(\.time) == [6.402])
    }

    /// A tap under voiced speech sits among its glottal pulses, which the band chosen sets
    /// aside as a train whatever their own properties: where the rhythm asks for a tap, the
    /// high band's sound there stands for the pulse it lies on. A sound set aside alone on its
    /// own properties keeps its verdict (`theStepFillsTheEmptyBeatsWithTheHighBandsSounds`).
    @Test func aBeatsSoundStandsForAGlottalPulseOfTheBandChosen() throws {
        let taps = Self.steadyTaps(leaving: [5]).map { onset($0, kind: .tap) }
        let others = taps.map { onset($0.time + 0.3, kind: .other, aboveMask: -5, score: 0.01) }
        let train = [3.985, 4.002, 4.019].map { onset($0, kind: .other, aboveMask: 25, score: 0.1) }
        let chosen = detection(taps + others + train)
        #expect(TapScore.trainMembers(chosen.allOnsets).count == 3)
        let high = TapOnsetDetection(onsets: [], otherOnsets: [heardOther(4.0025)])
        let result = try HighBandTaps.completed(chosen, sampleRate: 48_000, configuration: .standard) {
            (_: OnsetDetectorConfiguration) throws(AudioError) in high
        }
        #expect(result.onsets.filter { $0.highBandCutoff != nil }.map(\.time) == [4.0025])
        #expect(result.otherOnsets.filter { $0.time > 3.9 && $0.time < 4.1 }.map(\.time) == [3.985, 4.019])
        // The high band's clear taps (not asked for by the rhythm) keep the pulses' verdict.
        #expect(HighBandTaps.adding([heard(4.0025)], to: chosen, cut: 0.5).highBandTaps == 0)
    }

    /// The same for a syllable's pulses that fall in and out of each other's masks, too few
    /// over them to make a train (`TapScore.syllablePulses`): the loudest pulse scores as a
    /// tap on its own properties, and the high band's sound in the empty beat stands for it.
    @Test func aBeatsSoundStandsForASyllablePulseUnderTheMask() throws {
        let taps = Self.steadyTaps(leaving: [5]).map { onset($0, kind: .tap) }
        let others = taps.map { onset($0.time + 0.3, kind: .other, aboveMask: -5, score: 0.01) }
        // Pulses 18 ms apart, the third (on the beat) the loudest by 2 dB, 4 dB over its mask
        // and dying away by 2 dB only.
        let syllable = zip([3.964, 3.982, 4.000, 4.018], [(0.5, -3.0), (-1, -4), (4, -2), (-2, -3)]).map { time, shape in
            var pulse = onset(time, kind: .other, aboveMask: shape.0, score: 0.1)
            pulse.features?.decayDB = shape.1
            pulse.strength = time == 4.000 ? -18 : -20
            return pulse
        }
        let chosen = detection(taps + others + syllable)
        #expect(TapScore.trainMembers(chosen.allOnsets).isEmpty)
        #expect(TapScore.ownScore(syllable[2].features!) >= 0.5)
        let high = TapOnsetDetection(onsets: [], otherOnsets: [heardOther(4.0025)])
        let result = try HighBandTaps.completed(chosen, sampleRate: 48_000, configuration: .standard) {
            (_: OnsetDetectorConfiguration) throws(AudioError) in high
        }
        #expect(result.onsets.filter { $0.highBandCutoff != nil }.map(\.time) == [4.0025])
        #expect(!result.otherOnsets.contains { $0.time == 4.000 })
    }

    @Test func theMessageCountsTheTapsAdded() {
        #expect(HighBandTaps.message(added: 0) == nil)
        #expect(HighBandTaps.message(added: 1)?.hasPrefix("1 tap heard with a high-pass at 8000 Hz") == true)
        #expect(HighBandTaps.message(added: 3)?.hasPrefix("3 taps heard") == true)
    }
}

/// The step on whole recordings: taps under low-pitched music so loud that the configured band
/// hears only a few of them (too few for the band choice) are found with the 8 kHz high-pass;
/// where it does not apply, the detection is that of the band chosen.
extension HighBandTapsTests {
    static let tapTimes = TapsUnderMusic.tapTimes

    static func hits(_ onsets: [Onset]) -> Int {
        tapTimes.filter { truth in onsets.contains { abs($0.time - truth) <= 0.010 } }.count
    }

    static func loudMusic() -> Signal {
        Signal(samples: TapsUnderMusic.recording(musicLevel: 0.03), sampleRate: TapsUnderMusic.sampleRate)
    }

    @Test func tapsUnderLoudMusicAreHeardInTheHighBand() {
        let signal = Self.loudMusic()
        var fixed = OnsetDetectorConfiguration.standard
        fixed.choosesDetectionBand = false
        let configured = detectTapOnsets(in: signal, configuration: fixed)
        #expect(configured.onsets.count < DetectionBandChoice.leastTaps)
        #expect(configured.highBandTaps == 0)
        let detection = detectTapOnsets(in: signal)
        #expect(detection.detectionBand == nil)
        #expect(Self.hits(detection.onsets) == Self.tapTimes.count)
        #expect(detection.onsets.count == Self.tapTimes.count)
        #expect(detection.highBandTaps == Self.tapTimes.count - configured.onsets.count)
        // Each added tap lies where the tap starts (the high-passed contact), within 1 ms.
        #expect(detection.onsets.allSatisfy { onset in Self.tapTimes.contains { abs($0 - onset.time) <= 0.001 } })
    }

    /// Louder still, the configured band hears no tap at all, only the music's notes: the step
    /// runs there too and hears every tap.
    @Test func evenWhereTheConfiguredBandHearsNoTap() {
        let signal = Signal(samples: TapsUnderMusic.recording(musicLevel: 0.05), sampleRate: TapsUnderMusic.sampleRate)
        var fixed = OnsetDetectorConfiguration.standard
        fixed.choosesDetectionBand = false
        let configured = detectTapOnsets(in: signal, configuration: fixed)
        #expect(configured.onsets.isEmpty && !configured.otherOnsets.isEmpty)
        let detection = detectTapOnsets(in: signal)
        #expect(detection.highBandTaps == Self.tapTimes.count)
        #expect(Self.hits(detection.onsets) == Self.tapTimes.count && detection.onsets.count == Self.tapTimes.count)
    }
}
