import Foundation
import Testing
@testable import TapOnsets
import TapAudio

/// A loud tonal metronome (a beep through a loudspeaker): the start picker places each beep's
/// start on one of its first cycles, so the starts scatter in clusters over 1.5–2 ms, which
/// the click grid's 1 ms tolerance refuses. The fallback grid takes them when they lie at one
/// level (`StimulusLockedOnsets.cycleSlippedGrid`), and the detector keeps it only when the
/// clicks sound alike (`BleedTemplate.likeness`).
@Suite struct CycleSlippedClickTests {
    static let period = 0.699

    /// The click probe's onsets (time, level) in seed 1's `loudspeaker-dev-1` of the
    /// robustness corpus: a 453 Hz beep through a loudspeaker every 0.699 s at −19.9 dB, its
    /// starts 0.7–2.4 ms after the true ones, taps 10–80 ms before most beeps, and a knock.
    static let probe: [(time: Double, level: Double)] = [
        (1.005583, -19.87), (1.385167, -27.02), (1.449625, -51.97), (1.467188, -52.14),
        (1.704500, -19.87), (2.347208, -34.13), (2.403875, -19.91), (3.059896, -15.72),
        (3.777521, -26.68), (3.803313, -19.86), (4.483833, -41.69), (4.501500, -19.87),
        (5.199292, -11.48), (5.822396, -18.09), (5.899604, -19.90), (6.538250, -24.85),
        (6.584229, -51.98), (6.598625, -19.89), (7.287646, -30.28), (7.297896, -19.85),
        (7.949187, -38.35), (7.995979, -19.88), (8.643333, -28.59), (8.695042, -19.86),
        (9.366833, -23.78), (9.395583, -19.82), (10.069062, -23.77), (10.094687, -19.82),
        (10.736792, -27.01), (10.792813, -19.86), (11.483604, -19.86), (12.190146, -19.87),
        (12.838979, -39.49), (12.889271, -19.84), (13.551750, -23.75), (13.589167, -19.89),
        (14.267792, -38.15), (14.288021, -19.92), (14.918417, -18.53), (14.987021, -19.85),
        (15.681688, -19.83), (16.360125, -19.49), (16.386000, -19.74), (17.049771, -37.58),
        (17.084146, -19.85), (17.734375, -42.63), (17.782479, -19.87), (18.441042, -27.05),
        (18.482333, -19.91), (19.133896, -35.80), (19.163354, -52.22), (19.180542, -19.91),
    ]

    @Test func beepsTimedOnDifferentCyclesMakeAGridAtOneLevel() throws {
        let times = Self.probe.map(\.time), levels = Self.probe.map(\.level)
        #expect(StimulusLockedOnsets.grids(in: times, levels: levels, minimumCount: 6).isEmpty)
        let found = try #require(StimulusLockedOnsets.cycleSlippedGrid(in: times, levels: levels, minimumCount: 6))
        #expect(abs(found.grid.period - Self.period) < 0.0002)
        // The beeps (22 of 24 heard apart from a tap), and no tap but one that sounded with a
        // beep, 8 dB over it (`setAsideStimulus` and the residue check keep such a tap).
        let memberLevels = found.members.map { Self.probe[$0].level }
        #expect(memberLevels.count { abs($0 + 19.9) < 1 } >= 22 && memberLevels.allSatisfy { abs($0 + 19.9) < 1 || $0 > -16.9 }, "\(memberLevels)")
    }

    /// Sounds that recur on the grid at three levels 4 dB apart (the drums of a kit on the
    /// beat) are not one metronome's clicks.
    @Test func recurringSoundsAtSeveralLevelsMakeNoGrid() {
        var levels = Self.probe.map(\.level)
        for (k, index) in levels.indices.filter({ abs(levels[$0] + 20) < 0.5 }).enumerated() { levels[index] -= 4 * Double(k % 3) }
        #expect(StimulusLockedOnsets.cycleSlippedGrid(in: Self.probe.map(\.time), levels: levels, minimumCount: 6) == nil)
    }

    /// Three different sounds at one level taking turns on a grid (tone bursts at 1, 2.5 and
    /// 5 kHz, each 0–2 ms late): they could pass for cycle-slipped clicks by their times
    /// and levels, but not by their sound, so none is set aside as the stimulus.
    @Test func differentSoundsOnOneGridAreNotTheStimulus() {
        let rate = 48_000.0
        var random = TestRandom(state: 3)
        var samples = (0..<Int(20 * rate)).map { _ in Float(0.0003 * random.gaussian()) }
        let frequencies = [1000.0, 2500.0, 5000.0]
        var starts: [Double] = []
        for k in 0..<26 {
            let offset = 0.002 * random.uniform()
            let start = 1.0 + Double(k) * Self.period + offset
            starts.append(start)
            let first = Int(start * rate)
            for index in 0..<Int(0.04 * rate) {
                let t = Double(index) / rate
                samples[first + index] += Float(0.1 * exp(-t / 0.008) * sin(2 * .pi * frequencies[k % 3] * t))
            }
        }
        let detection = detectTapOnsets(in: Signal(samples: samples, sampleRate: rate))
        let setAside = starts.filter { start in detection.stimulusOnsets.contains { abs($0.time - start) <= 0.003 } }
        #expect(setAside.isEmpty, "\(setAside.count) of \(starts.count) set aside as the stimulus")
    }
}
