import Foundation
import Testing
@testable import TapOnsets

/// Clicks a recording's processing scattered past the click grid and the copies' bounds still
/// sound alike to a few decibels and keep the metronome's period to a couple of milliseconds
/// (`ClickFamily`).
@Suite struct ClickFamilyTests {
    static let period = 0.56
    static let clickProfile = [-6.6, -1.6, -17.7, -15.9, -14.1, -24.5]
    static let tapProfile = [-3.0, -15, -22, -6, -21, -30]

    func onset(_ time: Double, profile: [Double], level: Double, centroid: Double = 1_430, kind: OnsetKind) -> Onset {
        let features = OnsetFeatures(sustainedSNR: 20, attackDuration: 0.001, aboveMaskDB: 20, decayDB: -6,
                                     spectralCentroid: centroid, spectralFlatness: 0.01, soundCentroid: centroid,
                                     bandProfile: profile, onEarlierSound: false)
        return Onset(time: time, frame: Int(time * 48_000), peakTime: time + 0.001, strength: level, snrDB: 30,
                     features: features, tapScore: kind == .tap ? 0.98 : 0.05, kind: kind)
    }

    /// Twenty taps a period apart from 1.5 s, 30 ms before the beats, at −20 dBFS (their
    /// median level).
    var taps: [Onset] {
        (0..<20).map { onset(1.5 + Self.period * Double($0) - 0.030, profile: Self.tapProfile, level: -20, centroid: 2_200, kind: .tap) }
    }

    /// Clicks heard alone, scored as other sounds, at the given beats (from 1.5 s), each
    /// `jitter` seconds off its beat in turn (+, −, +, …), `spread` dB apart in level in turn.
    func family(beats: [Int], jitter: Double = 0.0006, spread: Double = 2.5, kind: OnsetKind = .other,
                profile: [Double] = ClickFamilyTests.clickProfile) -> [Onset] {
        beats.enumerated().map { position, beat in
            let sign = position.isMultiple(of: 2) ? 1.0 : -1.0
            return onset(1.5 + Self.period * Double(beat) + sign * jitter, profile: profile, level: -36 + sign * spread / 2, kind: kind)
        }
    }

    /// A click at beat 14 that passed as a tap: 1 ms off the beat, 1.5 dB under the others'
    /// middle, its profile 1 dB from theirs.
    var loneClick: Onset {
        onset(1.5 + Self.period * 14 - 0.001, profile: shifted(Self.clickProfile, by: 1), level: -37.5, kind: .tap)
    }

    /// `profile` moved `distance` dB (root mean square over the bands that carry it).
    func shifted(_ profile: [Double], by distance: Double) -> [Double] {
        zip(profile, [1.0, -1, 0, 0, 0, 0]).map { $0 + $1 * distance }
    }

    /// The indices among `sounds` (after the taps, all sorted in time) that are family clicks,
    /// as times.
    func clicks(_ sounds: [Onset], taps: [Onset]? = nil) -> [Double] {
        let onsets = ((taps ?? self.taps) + sounds).sorted { $0.time < $1.time }
        return ClickFamily.indices(in: onsets).map { onsets[$0].time }.sorted()
    }

    @Test func aClickWithThreeHeardAloneAtWholePeriodsIsOne() {
        #expect(clicks(family(beats: [3, 9, 17]) + [loneClick]) == [loneClick.time])
        // Only sounds scored as taps are set aside: the others stay other sounds.
        #expect(clicks(family(beats: [3, 6, 9, 17, 20]) + [loneClick]) == [loneClick.time])
        // Two are not a family.
        #expect(clicks(family(beats: [3, 9]) + [loneClick]).isEmpty)
    }

    @Test func theFamilyKeepsThePeriodToTwoMilliseconds() {
        // 0.9 ms off their beats, each way in turn, and the click 1 ms off its own: within 2 ms
        // of a period one of them proposes.
        #expect(clicks(family(beats: [3, 9, 17], jitter: 0.0009) + [loneClick]) == [loneClick.time])
        // 2.5 ms off each way: scattered like a tapper's sounds.
        #expect(clicks(family(beats: [3, 9, 17], jitter: 0.0025) + [loneClick]).isEmpty)
        // Half a period off: not on the beat's grid at all.
        let offBeat = family(beats: [3, 9, 17]).map { var click = $0; click.time += Self.period / 2; return click }
        #expect(clicks(offBeat + [loneClick]).isEmpty)
    }

    @Test func theFamilySoundsAlikeAndLiesUnderTheTaps() {
        #expect(clicks(family(beats: [3, 9, 17], spread: 5.5) + [loneClick]).isEmpty, "4.3 dB from the louder ones")
        #expect(clicks(family(beats: [3, 9, 17], profile: shifted(Self.clickProfile, by: 3.1)) + [loneClick]).isEmpty,
                "2.1 dB off in profile")
        var higher = loneClick
        higher.features?.spectralCentroid = 1_600
        #expect(clicks(family(beats: [3, 9, 17]) + [higher]).isEmpty, "12 % higher in centroid")
        // The sound 9.5 dB under the taps (the median of theirs, −20 dBFS): as loud as a quiet tap.
        var loud = loneClick
        loud.strength = -29.5
        #expect(clicks(family(beats: [3, 9, 17], spread: 1).map { var click = $0; click.strength += 6.5; return click } + [loud]).isEmpty)
        // Its family 9–10 dB under the taps, the sound 10.5 dB under: alike in level, but they
        // are as loud as quiet taps.
        var quieter = loneClick
        quieter.strength = -30.5
        let louder = family(beats: [3, 9, 17], spread: 1).map { var click = $0; click.strength += 6.5; return click }
        #expect(clicks(louder + [quieter]).isEmpty)
        let under = family(beats: [3, 9, 17], spread: 1).map { var click = $0; click.strength += 5; return click }
        #expect(clicks(under + [quieter]) == [quieter.time])
    }

    /// The family lies within 10 s of the sound: a period need not hold across a long recording.
    @Test func theFamilyIsSoughtWithinTenSeconds() {
        let late = onset(1.5 + Self.period * 40 - 0.001, profile: Self.clickProfile, level: -36, kind: .tap)
        let longTaps = (0..<60).map { onset(1.5 + Self.period * Double($0) - 0.030, profile: Self.tapProfile, level: -20,
                                            centroid: 2_200, kind: .tap) }
        #expect(clicks(family(beats: [2, 5, 9]) + [late], taps: longTaps).isEmpty, "17 s and more before it")
        #expect(clicks(family(beats: [31, 35, 47]) + [late], taps: longTaps) == [late.time])
    }

    /// Sounds the score took for taps vouch for no family less than 15 dB under the taps (the
    /// family here lies 14.75–17.25 dB under them): at least three in four of it were scored as
    /// other sounds.
    @Test func mostOfTheFamilyWasScoredAsOtherSounds() {
        let mixed = family(beats: [3, 9]) + family(beats: [17], kind: .tap)
        #expect(clicks(mixed + [loneClick]).isEmpty, "two of three")
        // Three of four: the sound scored as a tap among them is a click too.
        let mostly = family(beats: [3, 9, 11]) + family(beats: [17], kind: .tap)
        #expect(clicks(mostly + [loneClick]) == [mostly[3].time, loneClick.time].sorted())
    }

    /// Through a noise gate that opens on each click, every click heard alone scores as a
    /// tap: a family 15 dB or more under the taps (sound and clicks) is taken all the same,
    /// each of its clicks for the others; 3 dB nearer the taps, it is not.
    @Test func aFamilyFarUnderTheTapsNeedsNoOtherSounds() {
        let heardAsTaps = family(beats: [3, 9, 17], jitter: 0, spread: 1, kind: .tap) + [loneClick]
        #expect(clicks(heardAsTaps) == heardAsTaps.map(\.time).sorted())
        let nearer = heardAsTaps.map { click in
            var louder = click
            louder.strength += 3
            return louder
        }
        #expect(clicks(nearer).isEmpty)
    }

    /// The family's period is the metronome's, which the taps keep: clicks 10 % slower than
    /// the taps' median interval are not sought.
    @Test func theFamilyKeepsTheTapsPeriod() {
        let slower = [2, 5, 9].map { onset(loneClick.time + 1.1 * Self.period * Double($0), profile: Self.clickProfile, level: -36,
                                           kind: .other) }
        #expect(clicks(slower + [loneClick]).isEmpty)
        let onTheBeat = [2, 5, 9].map { onset(loneClick.time + Self.period * Double($0), profile: Self.clickProfile, level: -36,
                                              kind: .other) }
        #expect(clicks(onTheBeat + [loneClick]) == [loneClick.time])
    }

    /// The sound lies on the family's grid itself, fitted on the family's clicks alone: a
    /// period stretched within the slack does not carry the grid to a sound off it.
    @Test func theSoundLiesOnTheFamilysGrid() {
        let exact = family(beats: [3, 9, 17], jitter: 0)
        var late = loneClick
        late.time = 1.5 + Self.period * 14 + 0.003
        #expect(clicks(exact + [late]).isEmpty)
        late.time = 1.5 + Self.period * 14 + 0.0015
        #expect(clicks(exact + [late]) == [late.time])
        // A family on one side: three clicks a beat apart, the sound 11 beats on, 20 ms late
        // (a tapper's asynchrony) on a period 1.6 ms longer, within the slack.
        let oneSide = family(beats: [1, 2, 3], jitter: 0)
        late.time = 1.5 + Self.period * 14 + 0.020
        #expect(clicks(oneSide + [late]).isEmpty)
        late.time = 1.5 + Self.period * 14 + 0.001
        #expect(clicks(oneSide + [late]) == [late.time])
    }

    /// Each family click is on a beat of its own: two sounds on one beat are one.
    @Test func twoSoundsOnOneBeatAreOne() {
        let doubled = family(beats: [3, 9], jitter: 0) + [onset(1.5 + Self.period * 9 + 0.0015, profile: Self.clickProfile, level: -36,
                                                                  kind: .other)]
        #expect(clicks(doubled + [loneClick]).isEmpty)
    }

    /// Too few taps to measure the recording by, taps too close together to be tapping a
    /// metronome's beat, or a sound without a band profile: none.
    @Test func noFamilyWithoutTheTapsToMeasureBy() {
        // Six taps and the sound itself: seven scored as taps.
        #expect(clicks(family(beats: [3, 9, 17]) + [loneClick], taps: Array(taps.prefix(6))).isEmpty)
        #expect(clicks(family(beats: [3, 9, 17]) + [loneClick], taps: Array(taps.prefix(7))) == [loneClick.time])
        let fast = (0..<40).map { onset(1.5 + 0.2 * Double($0) - 0.03, profile: Self.tapProfile, level: -20, centroid: 2_200, kind: .tap) }
        let fastFamily = [3, 9, 17].map { onset(loneClick.time + 0.2 * Double($0 - 14), profile: Self.clickProfile, level: -36, kind: .other) }
        #expect(clicks(fastFamily + [loneClick], taps: fast).isEmpty)
        var unmeasured = loneClick
        unmeasured.features = nil
        #expect(clicks(family(beats: [3, 9, 17]) + [unmeasured]).isEmpty)
    }

    /// Quiet taps that sound alike scatter around the beat by tens of milliseconds: no family.
    @Test func quietTapsThatSoundAlikeAreNoFamily() {
        let offsets = [-0.041, -0.012, -0.027, -0.006, -0.035, -0.019, -0.048, -0.022]
        let quiet = offsets.enumerated().map { index, offset in
            onset(1.5 + Self.period * Double(2 * index + 1) + offset, profile: Self.clickProfile, level: -36,
                  kind: index.isMultiple(of: 2) ? .tap : .other)
        }
        #expect(clicks(quiet).isEmpty)
    }

    @Test func settingAsideMovesTheClicksToTheStimulus() {
        let sounds = (taps + family(beats: [3, 9, 17]) + [loneClick]).sorted { $0.time < $1.time }
        var heardClick = onset(1.5 + Self.period * 20, profile: Self.clickProfile, level: -36, kind: .stimulus)
        heardClick.features = nil
        var detection = TapOnsetDetection(onsets: sounds.filter { $0.kind == .tap }, otherOnsets: sounds.filter { $0.kind == .other },
                                          stimulusOnsets: [heardClick], cancelledClicks: 3, duration: 20, clippedRuns: 2)
        detection.densePercussionOnsets = 1
        detection.detectionBand = DetectionBand(cutoff: 2_000, contrastDB: 30, configuredContrastDB: 20)
        let setAside = detection.settingAsideClickFamilies()
        #expect(setAside.onsets.map(\.time) == taps.map(\.time))
        #expect(setAside.stimulusOnsets.map(\.time) == [loneClick.time, heardClick.time])
        #expect(setAside.stimulusOnsets.allSatisfy { $0.kind == .stimulus })
        #expect(setAside.otherOnsets == detection.otherOnsets)
        #expect(setAside.cancelledClicks == 3 && setAside.duration == 20 && setAside.clippedRuns == 2)
        #expect(setAside.densePercussionOnsets == 1 && setAside.detectionBand == detection.detectionBand)
        // Nothing to set aside: the detection as it was.
        let plain = TapOnsetDetection(onsets: taps)
        #expect(plain.settingAsideClickFamilies() == plain)
    }
}
