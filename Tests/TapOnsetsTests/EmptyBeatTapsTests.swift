import Foundation
import Testing
@testable import TapOnsets
import TapAudio

/// A tap that rings long scores as a sustained sound however loud it is; where it spreads its
/// power like the recording's taps and fills a beat their rhythm leaves empty, it is a tap
/// (`TapScore.tapsInEmptyBeats`, `TapOnsetDetection.fillingEmptyBeats(cut:)`).
@Suite struct EmptyBeatTapsTests {
    static let tapProfile = [-30.0, -2.5, -3.5, -30, -30, -30]
    static let knockProfile = [-30.0, -30, -12, -4, -3, -8]

    func onset(_ time: Double, profile: [Double] = tapProfile, score: Double = 0.2, strength: Double = -20) -> Onset {
        let features = OnsetFeatures(sustainedSNR: 20, attackDuration: 0.0015, aboveMaskDB: 20, decayDB: 1,
                                     spectralCentroid: 1_500, spectralFlatness: 0.01, soundCentroid: 1_500,
                                     bandProfile: profile, onEarlierSound: false)
        var onset = Onset(time: time, frame: Int(time * 48_000), peakTime: time + 0.001, strength: strength, snrDB: 25,
                          features: features)
        onset.tapScore = score
        onset.kind = score >= 0.5 ? .tap : .other
        return onset
    }

    /// `profile` moved `distance` dB (root mean square over the six bands) from where it was.
    func shifted(_ profile: [Double], by distance: Double) -> [Double] {
        zip(profile, [1.0, 1, 1, -1, -1, -1]).map { $0 + $1 * distance }
    }

    /// Twelve taps every 0.6 s from 1 s, but for those at `missing` (indices; 5 is 4.0 s).
    func taps(missing: Set<Int> = [5]) -> [Onset] {
        (0..<12).filter { !missing.contains($0) }.map { onset(1 + Double($0) * 0.6, score: 0.99) }
    }

    /// `TapScore.tapsInEmptyBeats` with nothing heard but the taps.
    func taken(_ candidates: [Onset], taps: [Onset]) -> [Int] {
        TapScore.tapsInEmptyBeats(candidates: candidates, taps: taps, heard: [])
    }

    /// Eight knocks between the beats (0.3 s past them), unlike the taps.
    var knocks: [Onset] { (0..<8).map { onset(1.3 + Double($0) * 0.6, profile: Self.knockProfile) } }

    @Test func aSoundLikeTheTapsInTheEmptyBeatIsATap() {
        #expect(taken(knocks + [onset(4.0)], taps: taps()) == [8])
        // Within 8 dB of the taps' median profile, not beyond.
        #expect(taken(knocks + [onset(4.0, profile: shifted(Self.tapProfile, by: 7.5))],
                      taps: taps()) == [8])
        #expect(taken(knocks + [onset(4.0, profile: shifted(Self.tapProfile, by: 8.5))],
                      taps: taps()).isEmpty)
        // Knocks are no taps wherever they sound: one in the empty beat stays a knock.
        #expect(taken(knocks + [onset(4.0, profile: Self.knockProfile)], taps: taps()).isEmpty)
    }

    @Test func aBlipFarUnderTheTapsIsNoTap() {
        // The taps peak at −20 dBFS: 39 dB under them is within the level range, 41 dB is not.
        #expect(taken([onset(4.0, strength: -59)], taps: taps()) == [0])
        #expect(taken([onset(4.0, strength: -61)], taps: taps()).isEmpty)
    }

    @Test func onlyInABeatTheTapsLeftEmpty() {
        // Off the beat (0.3 s from the beats each side), or in a beat with its tap.
        #expect(taken([onset(4.3)], taps: taps()).isEmpty)
        #expect(taken([onset(2.8)], taps: taps()).isEmpty)
        // Within 15 % of the interval of the beat, not beyond.
        #expect(taken([onset(4.08)], taps: taps()) == [0])
        #expect(taken([onset(4.1)], taps: taps()).isEmpty)
        // No reference without eight taps (seven give no median profile), and no rhythm where
        // the taps do not keep one.
        let seven = Array(taps().prefix(7))
        #expect(taken([onset(4.0)], taps: seven).isEmpty)
        let unsteady = taps().enumerated().map { index, tap in onset(tap.time + (index.isMultiple(of: 2) ? 0.12 : -0.12), score: 0.99) }
        #expect(taken([onset(4.0)], taps: unsteady).isEmpty)
    }

    @Test func oneSoundFillsOneBeat() {
        // The tap and what rings after it in the same beat: the earlier only.
        #expect(taken([onset(4.05), onset(3.98)], taps: taps()) == [1])
        // Two empty beats in a row are each filled.
        #expect(taken([onset(4.6), onset(4.0)], taps: taps(missing: [5, 6])) == [1, 0])
    }

    @Test func aSoundAsNearTheOtherSoundsAsTheTapsStays() {
        // Eight other sounds 1 dB from the taps' profile: the recording's other sounds sound
        // like its taps, and a sound 0.5 dB from the taps is not 2 dB nearer them.
        let alike = (0..<8).map { onset(1.3 + Double($0) * 0.6, profile: shifted(Self.tapProfile, by: 1)) }
        #expect(taken(alike + [onset(4.0, profile: shifted(Self.tapProfile, by: -0.5))],
                      taps: taps()).isEmpty)
        // Eight measured with itself (seven others) are enough; seven with itself are too few to
        // say what else sounds here, and it is taken.
        #expect(taken(Array(alike.prefix(7)) + [onset(4.0, profile: shifted(Self.tapProfile, by: -0.5))],
                      taps: taps()).isEmpty)
        #expect(taken(Array(alike.prefix(6)) + [onset(4.0, profile: shifted(Self.tapProfile, by: -0.5))],
                      taps: taps()) == [6])
    }

    @Test func soundsWithoutAPlaceOrAProfileAreNotCandidates() {
        var unplaced = onset(4.0)
        unplaced.time = .nan
        var unmeasured = onset(4.0)
        unmeasured.features = nil
        var silent = onset(4.0)
        silent.strength = -.infinity
        #expect(taken([unplaced, unmeasured, silent], taps: taps()).isEmpty)
        var withUnplacedTap = taps()
        withUnplacedTap[0].time = .infinity
        #expect(taken([onset(4.0)], taps: withUnplacedTap) == [0])
    }

    @Test func theTapsMedianLevelAndTheBandDetectedInJudge() {
        // Two taps at 0 dBFS, the others at −20: 40 dB under the median (−20), not under
        // their mean (−16.4) nor the loudest.
        let varied = taps().enumerated().map { index, tap in
            var tap = tap
            tap.strength = index < 2 ? 0 : -20
            return tap
        }
        #expect(taken([onset(4.0, strength: -59)], taps: varied) == [0])
        #expect(taken([onset(4.0, strength: -61)], taps: varied).isEmpty)
        // Taps the 8 kHz band added, profiled over fewer bands, keep the rhythm but are not the
        // reference: with three of them among the taps the rule still runs.
        let withHighBand = taps().enumerated().map { index, tap in
            guard index.isMultiple(of: 4) else { return tap }
            var high = onset(tap.time, profile: [-1, -6], score: 0.95)
            high.highBandCutoff = 8_000
            return high
        }
        #expect(taken([onset(4.0)], taps: withHighBand) == [0])
        // Nor is a candidate of the high band.
        var highCandidate = onset(4.0)
        highCandidate.highBandCutoff = 8_000
        #expect(taken([highCandidate], taps: taps()).isEmpty)
    }

    @Test func aBeatWithASoundReportedAsATapIsNotEmpty() {
        // A sound under the reference score reported as a tap (a lower cut, a drum kit's flux
        // hit) keeps its beat.
        #expect(TapScore.tapsInEmptyBeats(candidates: [onset(4.0)], taps: taps(), heard: [4.03]).isEmpty)
        #expect(TapScore.tapsInEmptyBeats(candidates: [onset(4.0)], taps: taps(), heard: [3.4, 4.6]) == [0])
    }

    @Test func theTakenSoundJoinsTheTapsAtTheReferenceScore() throws {
        let click = onset(4.3, score: 1)
        let withOthers = TapOnsetDetection(onsets: taps(), otherOnsets: knocks + [onset(4.0, score: 0.25)], stimulusOnsets: [click])
        let filled = withOthers.fillingEmptyBeats(cut: 0.5)
        #expect(filled.onsets.count == 12)
        #expect(filled.otherOnsets.map(\.time) == knocks.map(\.time))
        #expect(filled.stimulusOnsets == [click])
        let taken = try #require(filled.onsets.first { $0.time == 4.0 })
        #expect(taken.kind == .tap && taken.tapScore == 0.5)
        #expect(filled.onsets.map(\.time) == filled.onsets.map(\.time).sorted())
        // A higher cut: the same score, under it; the sound stays among the others, in place.
        let high = withOthers.fillingEmptyBeats(cut: 0.8)
        #expect(high.onsets.count == 11)
        #expect(high.otherOnsets.map(\.time) == withOthers.otherOnsets.map(\.time))
        #expect(high.otherOnsets.last?.tapScore == 0.5)
        // A tap scoring under 0.5 (a flux hit, a lower cut) is never a candidate, so never
        // demoted, and keeps its beat.
        let lowTap = onset(4.02, score: 0.3)
        var withLowTap = withOthers
        withLowTap.onsets = (taps() + [{ var tap = lowTap; tap.kind = .tap; return tap }()]).sorted { $0.time < $1.time }
        let kept = withLowTap.fillingEmptyBeats(cut: 0.8)
        #expect(kept.onsets.count == 12 && kept.onsets.contains { $0.time == 4.02 })
        #expect(kept.otherOnsets.first { $0.time == 4.0 }?.tapScore == 0.25)
        // Not on a drum kit completed from the flux.
        var kit = withOthers
        kit.densePercussionOnsets = 3
        #expect(kit.fillingEmptyBeats(cut: 0.5) == kit)
    }

    /// Taps of two modes at 500 and 520 Hz and a contact burst over a quiet background, every
    /// 0.6 s with a tapper's scatter (SD 10 ms) and levels over 12 dB, their modes ringing for
    /// 6 ms. The tap at `ringing` has its modes start in opposite phase and ring for 30 ms: they
    /// beat 50 ms apart, so its power rises for 25 ms, and it decays less over its first 50 ms
    /// than over its first 10 (as the sine-burst simulator's ringing taps do).
    func ringingTapRecording(ringing: Int, count: Int = 16, rate: Double = 48_000) -> (signal: Signal, starts: [Double]) {
        var random = TestRandom(state: 7)
        let frames = Int(rate * (1.5 + 0.6 * Double(count)))
        var samples = (0..<frames).map { _ in Float(0.001 * random.gaussian()) }
        let starts = (0..<count).map { 1 + 0.6 * Double($0) + 0.010 * random.gaussian() }
        for (index, start) in starts.enumerated() {
            let first = Int((start * rate).rounded(.up))
            let rings = index == ringing
            let gain = 0.1 * pow(10, -12 * random.uniform() / 20)
            let ring = rings ? 0.030 : 0.006
            for offset in 0..<Int(0.15 * rate) {
                let t = Double(offset) / rate
                let modes = (sin(2 * Double.pi * 500 * t) + sin(2 * Double.pi * 520 * t + (rings ? Double.pi : 0))) * exp(-t / ring)
                let contact = t < 0.0005 ? random.gaussian() * (1 - t / 0.0005) : 0
                samples[first + offset] += Float(gain * (modes + contact))
            }
        }
        return (Signal(samples: samples, sampleRate: rate), starts.map { ($0 * rate).rounded(.up) / rate })
    }

    @Test func aRingingTapIsFoundByItsSoundAndItsBeat() throws {
        let (signal, starts) = ringingTapRecording(ringing: 8)
        let detection = detectTapOnsets(in: signal)
        #expect(detection.onsets.count == starts.count)
        for start in starts {
            #expect(detection.onsets.contains { abs($0.time - start) <= 0.002 }, "tap at \(start) s")
        }
        // Without the rule, its own sound leaves it among the other sounds.
        var plain = OnsetDetectorConfiguration.standard
        plain.fillsEmptyBeats = false
        let alone = detectTapOnsets(in: signal, configuration: plain)
        let ringing = try #require((alone.onsets + alone.otherOnsets).first { abs($0.time - starts[8]) <= 0.002 })
        #expect(ringing.kind == .other, "score \(ringing.tapScore)")
        #expect(alone.onsets.count == starts.count - 1)
    }
}
