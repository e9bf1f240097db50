import Foundation
import Testing
@testable import TapOnsets
import TapAudio
import TapSim
import TapStatistics

/// A drum kit's soft hits under the ring of its loud ones are found by the spectral flux, and
/// tapping, however fast, is never taken for a kit.
@Suite struct DensePercussionTests {
    /// `Fixtures/drums`: 12.5 s of a General MIDI kit with its 54 note-on times.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/drums").path

    /// The hits found (an onset within `tolerance` of a note-on, one for one, in order) and the
    /// onsets that are no hit. The audible start lies 0–4 ms after the note-on.
    static func score(_ onsets: [Onset], hits: [Double], tolerance: Double = 0.010, lead: Double = 0.0036) -> (found: Int, false: Int) {
        var unmatched = onsets.map { $0.time - lead }
        var found = 0
        for hit in hits {
            if let index = unmatched.firstIndex(where: { abs($0 - hit) <= tolerance }) {
                unmatched.remove(at: index)
                found += 1
            }
        }
        return (found, unmatched.count)
    }

    /// The onset times of `Fixtures/drums/NAME.onsets.csv`.
    static func hits(_ name: String) throws -> [Double] {
        try String(contentsOfFile: fixtures + "/\(name).onsets.csv", encoding: .utf8)
            .split(separator: "\n").dropFirst().compactMap { Double($0) }
    }

    /// `Fixtures/drums/NAME.flac` as the detector finds it with the completion turned off.
    static func uncompleted(_ name: String) throws -> TapOnsetDetection {
        var plain = OnsetDetectorConfiguration.standard
        plain.completesDensePercussion = false
        return try detectTapOnsets(inFile: fixtures + "/\(name).flac", configuration: plain, bleed: .keep)
    }

    @Test func softHitsUnderTheRingAreFound() throws {
        let path = Self.fixtures + "/kit.flac"
        let hits = try Self.hits("kit")
        #expect(hits.count == 54)
        let alone = try Self.uncompleted("kit")
        let completed = try detectTapOnsets(inFile: path, bleed: .keep)
        #expect(alone.densePercussionOnsets == nil)
        #expect(DensePercussion.applies(to: alone.onsets, otherSounds: alone.otherOnsets.count), "the kit is not taken for one")
        let before = Self.score(alone.onsets, hits: hits), after = Self.score(completed.onsets, hits: hits)
        // Alone, the detector misses a quarter of the hits (41 of 54 found) and reports nothing
        // else; completed, it misses two or three, still reports nothing else, and each added
        // start lies within 10 ms.
        #expect(before.false == 0 && before.found <= 42, "alone: \(before.found) of 54, \(before.false) false")
        #expect(after.false == 0 && after.found >= 51, "completed: \(after.found) of 54, \(after.false) false")
        #expect(completed.densePercussionOnsets == completed.onsets.count - alone.onsets.count)
    }

    /// `Fixtures/drums/synth-kit.flac`: 8.5 s of a kit `Scripts/drum-synth` synthesised (four on
    /// the floor, open hats, 109.5 BPM), 36 onsets at the hits' first samples. The detector
    /// hears few of its hats, and its taps are the kicks and snares, 0.5 s and more apart and
    /// alike, so the kit test takes it for tapping: alone it finds 15 of the 36 within 50 ms.
    /// Assumed a kit (`assumesDensePercussion`, `--dense-percussion always`) it is completed
    /// from the flux: 31 found, nothing else.
    @Test func aKitTheTestTakesForTappingIsCompletedWhenAssumed() throws {
        let path = Self.fixtures + "/synth-kit.flac"
        let hits = try Self.hits("synth-kit")
        #expect(hits.count == 36)
        let auto = try detectTapOnsets(inFile: path, bleed: .keep)
        #expect(auto.densePercussionOnsets == nil, "the test takes this kit for tapping")
        var assumed = OnsetDetectorConfiguration.standard
        assumed.assumesDensePercussion = true
        let completed = try detectTapOnsets(inFile: path, configuration: assumed, bleed: .keep)
        #expect(completed.densePercussionOnsets != nil)
        let before = Self.score(auto.onsets, hits: hits, tolerance: 0.050, lead: 0)
        let after = Self.score(completed.onsets, hits: hits, tolerance: 0.050, lead: 0)
        #expect(before.found <= 18, "alone: \(before.found) of 36")
        #expect(after.found >= 29 && after.false <= 1, "assumed a kit: \(after.found) of 36, \(after.false) false")
        // Not completing wins over assuming.
        assumed.completesDensePercussion = false
        #expect(try detectTapOnsets(inFile: path, configuration: assumed, bleed: .keep) == auto)
    }

    /// `Fixtures/drums/groove-kit.flac`: 9 s of a synthesised kit (sixteenth-note hats with
    /// ghost notes, 95.3 BPM), 54 onsets. The detector scores most of its hats as other sounds;
    /// its taps, mostly the kicks and snares, pass the first kit test for tapping, but they rise
    /// little over what still rings and keep no steady interval, so the kit is completed by
    /// default as a groove: 23 of the 54 found within 50 ms alone, 43 completed, nothing else.
    @Test func aGroovesDrumsAloneAreCompleted() throws {
        let hits = try Self.hits("groove-kit")
        #expect(hits.count == 54)
        let alone = try Self.uncompleted("groove-kit")
        let pressed = TapScore.pressedTaps(alone.onsets + alone.otherOnsets)
        #expect(!DensePercussion.applies(to: alone.onsets, otherSounds: alone.otherOnsets.count, pressedTaps: pressed),
                "the first test takes it for tapping")
        #expect(DensePercussion.soundsLikeAGroove(alone.onsets, otherSounds: alone.otherOnsets, pressedTaps: pressed))
        #expect(DensePercussion.steadyShare(of: alone.onsets) < 0.5, "\(DensePercussion.steadyShare(of: alone.onsets))")
        let completed = try detectTapOnsets(inFile: Self.fixtures + "/groove-kit.flac", bleed: .keep)
        #expect(completed.densePercussionOnsets != nil)
        let before = Self.score(alone.onsets, hits: hits, tolerance: 0.050, lead: 0)
        let after = Self.score(completed.onsets, hits: hits, tolerance: 0.050, lead: 0)
        #expect(before.found <= 25 && before.false == 0, "alone: \(before.found) of 54, \(before.false) false")
        #expect(after.found >= 40 && after.false <= 1, "completed: \(after.found) of 54, \(after.false) false")
    }

    /// `count` taps at `intervals` (cycled), `aboveMask` dB over the mask and losing `decay` dB
    /// after their first 10 ms (a drum's 3 by default).
    static func taps(intervals: [Double], count: Int = 24, aboveMask: Double = 8, decay: Double = -3) -> [Onset] {
        var time = 1.0
        return (0..<count).map { index in
            defer { time += intervals[index % intervals.count] }
            let features = OnsetFeatures(sustainedSNR: 15, attackDuration: 0.002, aboveMaskDB: aboveMask, decayDB: decay,
                                         soundCentroid: 2000)
            return Onset(time: time, frame: Int(time * 48_000), peakTime: time + 0.002, strength: -20, snrDB: 15,
                         features: features, tapScore: 1, kind: .tap)
        }
    }

    /// `count` other sounds between `taps` (in time order), as a kit's hats sound: the n-th in
    /// the interval after tap n (cycled), at half of it, then at 0.3, 0.7, 0.4 and 0.6 of it on
    /// later rounds; or, `withTheTaps`, 30 ms after each tap in turn, as a metronome's clicks
    /// come after the taps aimed at them.
    static func otherSounds(_ count: Int, among taps: [Onset], withTheTaps: Bool = false) -> [Onset] {
        let fractions = [0.5, 0.3, 0.7, 0.4, 0.6]
        let intervals = taps.count - 1
        return (0..<count).map { index in
            let tap = taps[index % intervals], next = taps[index % intervals + 1]
            let time = withTheTaps ? tap.time + 0.030
                : tap.time + fractions[(index / intervals) % fractions.count] * (next.time - tap.time)
            return Onset(time: time, frame: Int(time * 48_000), peakTime: time + 0.002, strength: -30, snrDB: 8,
                         tapScore: 0.2, kind: .other)
        }.sorted { $0.time < $1.time }
    }

    /// A groove needs all of its parts: taps that rise little over the mask, ring, keep no
    /// steady interval, and come with other sounds (a kit's hats), at least 12 of them. Take
    /// any one away and it is tapping.
    @Test func aGrooveNeedsLowRisesNoSteadyBeatAndOtherSounds() {
        // A groove's kicks and snares: 0.3, 0.45, 0.15 and 0.6 s apart in turn.
        let intervals = [0.30, 0.45, 0.15, 0.60]
        let groove = Self.taps(intervals: intervals)
        func isAGroove(_ taps: [Onset], _ others: Int, pressedTaps: Int = 0) -> Bool {
            DensePercussion.soundsLikeAGroove(taps, otherSounds: Self.otherSounds(others, among: taps), pressedTaps: pressedTaps)
        }
        #expect(DensePercussion.steadyShare(of: groove) == 0)
        #expect(isAGroove(groove, 30))
        #expect(isAGroove(groove, 12) && !isAGroove(groove, 11), "at least half as many other sounds as taps")
        #expect(isAGroove(groove, 144) && !isAGroove(groove, 145), "at most six times as many (speech)")
        #expect(!isAGroove(Self.taps(intervals: intervals, aboveMask: 12.5), 30))
        #expect(isAGroove(Self.taps(intervals: intervals, decay: -7), 30))
        #expect(!isAGroove(Self.taps(intervals: intervals, decay: -7.5), 30), "taps that die away are a finger's")
        #expect(isAGroove(Self.taps(intervals: intervals, count: 12), 12))
        #expect(!isAGroove(Self.taps(intervals: intervals, count: 11), 12))
        #expect(!isAGroove(groove, 30, pressedTaps: 12), "keys, not drums")
        // A tapper 0.5 s apart, up to 30 ms off, who missed two taps: steady, so no groove
        // among fewer other sounds than a steady groove brings, however quiet the taps.
        let jitter = [0.02, -0.03, 0.01, 0.025, -0.015, 0.0, -0.02, 0.03]
        var tapper = Self.taps(intervals: jitter.map { 0.5 + $0 })
        tapper.remove(at: 7)
        tapper.remove(at: 15)
        #expect(DensePercussion.steadyShare(of: tapper) >= 0.75, "\(DensePercussion.steadyShare(of: tapper))")
        #expect(!isAGroove(tapper, 18), "0.82 other sounds per tap")
        // A tempo ramp from 0.6 to 0.4 s: the local median follows it.
        let ramp = Self.taps(intervals: (0..<23).map { 0.6 - 0.2 * Double($0) / 22 })
        #expect(DensePercussion.steadyShare(of: ramp) == 1)
    }

    /// A groove may keep a steady beat (a four-on-the-floor kick) where its hats bring at
    /// least 0.85 other sounds per tap and sound between its drums. Taps kept as steady among
    /// as many clicks that come with them are a tapper's, aimed at a metronome.
    @Test func aSteadyGrooveNeedsItsHatsBetweenItsDrums() {
        let jitter = [0.004, -0.006, 0.002, 0.005, -0.003, 0.0, -0.004, 0.006]
        let fourOnTheFloor = Self.taps(intervals: jitter.map { 0.55 + $0 })
        #expect(DensePercussion.steadyShare(of: fourOnTheFloor) == 1)
        let hats = Self.otherSounds(24, among: fourOnTheFloor)
        #expect(DensePercussion.shareWithTheTaps(hats, taps: fourOnTheFloor) == 0)
        #expect(DensePercussion.soundsLikeAGroove(fourOnTheFloor, otherSounds: hats))
        // 21 other sounds per 24 taps is 0.875, 20 is 0.83.
        #expect(DensePercussion.soundsLikeAGroove(fourOnTheFloor, otherSounds: Array(hats.prefix(21))))
        #expect(!DensePercussion.soundsLikeAGroove(fourOnTheFloor, otherSounds: Array(hats.prefix(20))))
        #expect(!DensePercussion.soundsLikeAGroove(Self.taps(intervals: jitter.map { 0.55 + $0 }, decay: -7.5), otherSounds: hats),
                "taps that die away are a finger's")
        let clicks = Self.otherSounds(23, among: fourOnTheFloor, withTheTaps: true)
        #expect(DensePercussion.shareWithTheTaps(clicks, taps: fourOnTheFloor) == 1)
        #expect(!DensePercussion.soundsLikeAGroove(fourOnTheFloor, otherSounds: clicks), "a metronome's clicks")
        // Half the clicks with the taps, half between: the bound.
        let half = Array(clicks.prefix(12)) + Array(hats.suffix(12))
        #expect(DensePercussion.shareWithTheTaps(half, taps: fourOnTheFloor) == 0.5)
        #expect(!DensePercussion.soundsLikeAGroove(fourOnTheFloor, otherSounds: half.sorted { $0.time < $1.time }))
        let fewer = Array(clicks.prefix(11)) + Array(hats.suffix(13))
        #expect(DensePercussion.soundsLikeAGroove(fourOnTheFloor, otherSounds: fewer.sorted { $0.time < $1.time }))
    }

    /// Quiet, sloppy tapping among many knocks and coughs (TapSim: taps 6–12 dB over the
    /// noise, asynchronies with a 35 ms SD, a distractor a second) is no groove. Its taps can
    /// rise as little over the mask as a kit's drums, come with as many other sounds and keep
    /// as unsteady an interval once knocks pass for taps and quiet taps are missed, but they
    /// do not ring: here the decay alone stands between them and the flux.
    @Test func quietSloppyTappingAmongOtherSoundsIsNoGroove() {
        var configuration = SimulationConfiguration()
        configuration.channels = 1
        configuration.snrRange = 6...12
        configuration.asynchronySD = 0.035
        configuration.distractorRate = 1
        var likeAGrooveButTheDecay = 0
        for seed in [21, 22, 23] as [UInt64] {
            for track in 1...2 {
                let task = simulateTask(user: 1, track: track, configuration: configuration, seed: seed)
                let signal = Signal(samples: task.samples, sampleRate: task.sampleRate)
                var plain = OnsetDetectorConfiguration.standard
                plain.completesDensePercussion = false
                let alone = detectTapOnsets(in: signal, configuration: plain)
                #expect(alone == detectTapOnsets(in: signal), "seed \(seed) track \(track)")
                if let decay = DensePercussion.grooveDecayDB(alone.onsets, otherSounds: alone.otherOnsets,
                                                             pressedTaps: TapScore.pressedTaps(alone.onsets + alone.otherOnsets)) {
                    likeAGrooveButTheDecay += 1
                    #expect(decay < DensePercussion.shallowestGrooveDecayDB - 1)
                }
            }
        }
        #expect(likeAGrooveButTheDecay >= 1, "the case is put to the test")
    }

    /// Taps heard among more than twice as many other sounds (speech, a keyboard's releases,
    /// music) are no kit, however close together and unalike they are: the flux would take the
    /// other sounds for hits. The kit's own taps pass with up to twice their number of other
    /// sounds and not with one more.
    @Test func tapsAmongManyOtherSoundsAreNoKit() throws {
        let kit = try Self.uncompleted("kit")
        let taps = kit.onsets.count
        #expect(kit.otherOnsets.count < taps, "the kit's detector hears fewer other sounds than taps")
        #expect(DensePercussion.applies(to: kit.onsets, otherSounds: 2 * taps))
        #expect(!DensePercussion.applies(to: kit.onsets, otherSounds: 2 * taps + 1))
    }

    /// Taps on a keyboard, each with its release 70 ms later, are no kit however close together
    /// and unalike they sound (a phone's processing spreads their spectra as widely as a kit's):
    /// the flux would take every release for a hit. The kit's own hits seldom start such a pair.
    @Test func aKeyboardsTapsWithTheirReleasesAreNoKit() throws {
        // 24 taps 0.42 s apart whose sound centroids alternate over two octaves, 15 dB over the
        // mask, each followed 70 ms later by its release 4 dB weaker (scored as another sound).
        func sound(at time: Double, strength: Double, centroid: Double, kind: OnsetKind) -> Onset {
            let features = OnsetFeatures(sustainedSNR: 20, attackDuration: 0.002, aboveMaskDB: 15, decayDB: -12,
                                         soundCentroid: centroid)
            return Onset(time: time, frame: Int(time * 48_000), peakTime: time + 0.002, strength: strength, snrDB: 25,
                         features: features, tapScore: kind == .tap ? 1 : 0.1, kind: kind)
        }
        let times = (0..<24).map { 1 + 0.42 * Double($0) }
        let taps = times.enumerated().map { sound(at: $1, strength: -15, centroid: $0 % 2 == 0 ? 1000 : 4000, kind: .tap) }
        let releases = times.map { sound(at: $0 + 0.070, strength: -19, centroid: 2000, kind: .other) }
        #expect(TapScore.pressedTaps(taps + releases) == taps.count)
        #expect(DensePercussion.applies(to: taps, otherSounds: releases.count), "without the pairs it looks like a kit")
        #expect(!DensePercussion.applies(to: taps, otherSounds: releases.count, pressedTaps: TapScore.pressedTaps(taps + releases)))
        // Half the taps pressed is enough; one fewer is not.
        #expect(!DensePercussion.applies(to: taps, otherSounds: releases.count, pressedTaps: taps.count / 2))
        #expect(DensePercussion.applies(to: taps, otherSounds: releases.count, pressedTaps: taps.count / 2 - 1))

        let kit = try Self.uncompleted("kit")
        let pressed = TapScore.pressedTaps(kit.onsets + kit.otherOnsets)
        #expect(Double(pressed) < 0.25 * Double(kit.onsets.count), "the kit: \(pressed) of \(kit.onsets.count) hits start a pair")
        #expect(DensePercussion.applies(to: kit.onsets, otherSounds: kit.otherOnsets.count, pressedTaps: pressed))
    }

    /// A metronome played with the kit, its file given: its bleed is subtracted before
    /// detection, and the flux, which reads the recording as it is, would hear the clicks again
    /// with nothing to mark them, so the kit is not completed. Without the file, the click grid
    /// marks the clicks and the kit is completed around them.
    @Test func notCompletedAfterAStimulusFilesSubtraction() throws {
        let kit = try Signal(contentsOf: Self.fixtures + "/kit.flac")
        let rate = kit.sampleRate
        // 1 kHz clicks every 0.37 s, off the kit's beat, about as loud as its snare.
        var clicks = [Float](repeating: 0, count: kit.samples.count)
        for start in stride(from: Int(0.6 * rate), to: clicks.count - Int(0.05 * rate), by: Int(0.37 * rate)) {
            for offset in 0..<Int(0.03 * rate) {
                let t = Double(offset) / rate
                clicks[start + offset] = Float(0.3 * exp(-t / 0.005) * sin(2 * .pi * 1000 * t))
            }
        }
        let stimulus = Signal(samples: clicks, sampleRate: rate)
        let delay = Int(0.002 * rate)   // the acoustic path: 2 ms, at 0.8 of the level
        let mixed = Signal(samples: kit.samples.indices.map { $0 >= delay ? kit.samples[$0] + 0.8 * clicks[$0 - delay] : kit.samples[$0] },
                           sampleRate: rate)
        let withFile = detectTapOnsets(in: mixed, bleed: .cancel, stimulus: StimulusInput(signal: stimulus))
        #expect(withFile.stimulusBleed?.status == .removed)
        #expect(DensePercussion.applies(to: withFile.onsets, otherSounds: withFile.otherOnsets.count),
                "the kit is still a kit once the clicks are subtracted")
        #expect(withFile.densePercussionOnsets == nil)
        // Nor when the recording is assumed a kit: the flux would hear the clicks all the same.
        var assumed = OnsetDetectorConfiguration.standard
        assumed.assumesDensePercussion = true
        #expect(detectTapOnsets(in: mixed, configuration: assumed, bleed: .cancel, stimulus: StimulusInput(signal: stimulus)) == withFile)
        let withoutFile = detectTapOnsets(in: mixed, bleed: .cancel)
        #expect(withoutFile.densePercussionOnsets != nil)
    }

    /// Tapping at 2.4–6.7 taps a second (TapSim: varied taps, knocks, coughs, noise) keeps the
    /// detector's own onsets, untouched.
    @Test(arguments: [16, 17, 18] as [UInt64])
    func fastTappingIsNoKit(seed: UInt64) {
        var configuration = SimulationConfiguration()
        configuration.tempoRange = 0.15...0.42
        configuration.channels = 1
        for track in 1...2 {
            let task = simulateTask(user: 1, track: track, configuration: configuration, seed: seed)
            let signal = Signal(samples: task.samples, sampleRate: task.sampleRate)
            var plain = OnsetDetectorConfiguration.standard
            plain.completesDensePercussion = false
            let detection = detectTapOnsets(in: signal)
            #expect(detection.densePercussionOnsets == nil, "seed \(seed) track \(track)")
            #expect(detection == detectTapOnsets(in: signal, configuration: plain), "seed \(seed) track \(track)")
        }
    }
}
