import Foundation
import Testing
import TapAudio
@testable import TapOnsets

/// A tap's start past the smooth rise an FFT noise suppressor spreads ahead of it
/// (`StartPicker.pastSpread`), on a stretch that starts where the picker put the start, and
/// through the whole detector on a suppressed background.
@Suite struct SuppressorSpreadTests {
    static let rate = 48_000.0
    static let window = StartPicker.spreadFrames(sampleRate: rate).window
    static let minimumMove = StartPicker.spreadFrames(sampleRate: rate).minimumMove

    /// The sizes in samples at the rates recordings come in.
    @Test func theSizesInSamples() {
        #expect(StartPicker.spreadFrames(sampleRate: 48_000) == (6, 192, 12))
        #expect(StartPicker.spreadFrames(sampleRate: 44_100) == (6, 176, 12))
        #expect(StartPicker.spreadFrames(sampleRate: 8_000) == (2, 32, 2))
    }

    /// `rise` samples of noise whose level climbs evenly in decibels from `fromDB` to `toDB`
    /// under the tap, then 4 ms of the tap: a noise burst at RMS 0.3 decaying with an 8 ms time
    /// constant (broadband from its first sample, as a finger's contact is); returns the
    /// samples and where the tap starts.
    func stretch(rise: Int, fromDB: Double, toDB: Double, seed: UInt64) -> (samples: [Float], burstStart: Int) {
        var random = TestRandom(state: seed)
        var samples: [Float] = []
        for index in 0..<rise {
            let db = fromDB + (toDB - fromDB) * Double(index) / Double(max(rise - 1, 1))
            samples.append(Float(0.3 * pow(10, db / 20) * random.gaussian()))
        }
        for index in 0..<Int(0.004 * Self.rate) {
            samples.append(Float(0.3 * exp(-Double(index) / Self.rate / 0.008) * random.gaussian()))
        }
        return (samples, rise)
    }

    func move(_ samples: [Float]) -> Int? {
        samples.withUnsafeBufferPointer { StartPicker.pastSpread($0, window: Self.window, minimumMove: Self.minimumMove) }
    }

    /// The corpus's `gated` taps: the spread climbs from 30–40 dB under the tap to 10–15 dB
    /// under it over 1.5–2 ms (Docs/robustness.md, "What makes `gated` taps early").
    @Test(arguments: [48, 72, 96])
    func aSmoothRiseFarUnderTheTapIsSteppedPast(rise: Int) {
        for seed in UInt64(1)...20 {
            let (samples, burstStart) = stretch(rise: rise, fromDB: -38, toDB: -20, seed: seed)
            let moved = move(samples)
            // Within 0.125 ms of the burst.
            #expect(moved.map { abs($0 - burstStart) <= Self.window } ?? false,
                    "seed \(seed): moved \(String(describing: moved)), burst \(burstStart)")
        }
    }

    @Test func aTapThatRisesAtOnceKeepsItsStart() {
        for seed in UInt64(1)...20 {
            #expect(move(stretch(rise: 0, fromDB: 0, toDB: 0, seed: seed).samples) == nil, "seed \(seed)")
        }
    }

    /// A contact burst 12 dB under the ringing that follows it is the tap's own start: the
    /// power over the shortest move lies less than ``StartPicker/spreadStartDepthDB`` under the
    /// loudest window (measured over one window alone, a noise-like burst's scatter passed the
    /// bound in one of 20 seeds; over the shortest move the 20 seeds lie 12.3–19.4 dB under).
    @Test func aContactBurstTwelveDecibelsUnderTheTapIsItsStart() {
        for seed in UInt64(1)...20 {
            #expect(move(stretch(rise: 48, fromDB: -12, toDB: -12, seed: seed).samples) == nil, "seed \(seed)")
        }
    }

    /// A move shorter than the shortest worth making (0.25 ms, 12 frames) is not made, even
    /// where the level at the start lies deep enough: 9 frames far under, then a stretch 14.1
    /// dB under the tap's level (the first 12 frames average 20.1 dB under it, just past the
    /// 20 dB bound on purpose, and the window from frame 8 on comes within 15 dB), then the
    /// tap. Constant-power samples (±a), so that the windows' powers are exact.
    @Test func aMoveShorterThanTheShortestWorthMakingIsNotMade() {
        func alternating(_ amplitude: Double, _ count: Int) -> [Float] {
            (0..<count).map { Float($0 % 2 == 0 ? amplitude : -amplitude) }
        }
        let samples = alternating(0.3 * pow(10, -60.0 / 20), 9) + alternating(0.3 * pow(10, -14.1 / 20), 20)
            + alternating(0.3, 160)
        #expect(move(samples) == nil)
        // The same with the faint part three frames longer moves by 14 frames.
        let longer = alternating(0.3 * pow(10, -60.0 / 20), 12) + alternating(0.3 * pow(10, -14.1 / 20), 20)
            + alternating(0.3, 160)
        #expect(move(longer) == 14)
    }

    /// 16 taps, 0.5 s apart from 0.5 s on, each led by `rise` samples climbing evenly from
    /// `fromDB` to `toDB` under it (a suppressor's spread, or a faint contact burst when the two
    /// are equal), on noise at `noiseRMS`; the taps peak near −10 dBFS.
    func recording(noiseRMS: Double, rise: Int, fromDB: Double, toDB: Double) -> (signal: Signal, starts: [Int]) {
        var random = TestRandom(state: 7)
        let frames = Int(9 * Self.rate)
        var samples = (0..<frames).map { _ in Float(noiseRMS * random.gaussian()) }
        let starts = (0..<16).map { Int((0.5 + 0.5 * Double($0)) * Self.rate) }
        for start in starts {
            let (tap, burstStart) = stretch(rise: rise, fromDB: fromDB, toDB: toDB, seed: UInt64(start))
            // The tail beyond the 4 ms the stretch holds: the same decay, on to 100 ms.
            let tail = (Int(0.004 * Self.rate)..<Int(0.1 * Self.rate)).map {
                Float(0.3 * exp(-Double($0) / Self.rate / 0.008) * random.gaussian())
            }
            for (offset, value) in (tap + tail).enumerated() { samples[start - burstStart + offset] += value }
        }
        return (Signal(samples: samples, sampleRate: Self.rate), starts)
    }

    /// Through the detector: taps about 70 dB over a suppressed background, each led by a
    /// spread of 1.5 ms climbing from 26 to 10 dB under it. Where that spread ends so near the
    /// tap that no step over a precursor finds the tap (5 of the 16 here; the corpus's `gated`
    /// taps start a median 16 dB under the loudest 0.125 ms window of their first 2 ms), the start moves from the spread's
    /// beginning to where it comes within 15 dB of the tap's loudest window: 0.25–0.55 ms
    /// before the tap on this spread, which ends closer to the tap than the corpus's do.
    @Test func tapsOverASuppressedBackgroundStartPastTheSpread() {
        let (signal, starts) = recording(noiseRMS: 0.00003, rise: 72, fromDB: -26, toDB: -10)
        let taps = detectTapOnsets(in: signal, bleed: .keep).onsets.filter { $0.kind == .tap }
        #expect(taps.count == starts.count)
        for start in starts {
            let nearest = taps.min { abs($0.frame - start) < abs($1.frame - start) }
            // Within 0.625 ms; the spread began 1.5 ms (72 frames) before.
            #expect(nearest.map { abs($0.frame - start) <= 30 } ?? false,
                    "tap at \(start): onset at \(String(describing: nearest?.frame))")
            #expect(nearest.map { $0.snrDB >= StartPicker.spreadMinimumSNRDB } ?? false)
        }
    }
}
