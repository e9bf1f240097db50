import Foundation
import Testing
@testable import TapOnsets

/// A tap a few milliseconds after a metronome click that no grid of clicks made known (a gate
/// let through only the clicks beside taps, or speech covered the rest): the picker puts the
/// start where the click starts, and the tap rises out of the click's steady tone. It starts
/// where it rises (`StartPicker.pastSteadyLead`), while a tap's own build-up, or a lead-in that
/// falls away as a contact burst does, keeps its start.
@Suite struct TapAfterAnUnheardClickTests {
    static let rate = 48_000.0
    static let clickStart = 24_000

    /// Noise at −60 dBFS with a 1 kHz tone burst at `clickStart`: `level` in amplitude,
    /// decaying with time constant `decay` (TapSim's and the corpus's clicks: 8 ms).
    func withClick(level: Double = 0.01, decay: Double = 0.008, seed: UInt64) -> [Float] {
        var random = TestRandom(state: seed)
        var samples = (0..<48_000).map { _ in Float(0.001 * random.gaussian()) }
        for index in 0..<Int(0.03 * Self.rate) {
            let t = Double(index) / Self.rate
            samples[Self.clickStart + index] += Float(level * exp(-t / decay) * sin(2 * .pi * 1_000 * t))
        }
        return samples
    }

    /// A decaying noise burst of peak amplitude `amplitude` from `start`.
    func addBurst(_ samples: inout [Float], at start: Int, amplitude: Double, decay: Double, seed: UInt64) {
        var random = TestRandom(state: seed)
        for index in 0..<Int(0.05 * Self.rate) {
            samples[start + index] += Float(amplitude * exp(-Double(index) / Self.rate / decay) * random.gaussian())
        }
    }

    func onsets(_ samples: [Float]) -> [Onset] {
        var detector = OnsetDetector(sampleRate: Self.rate, configuration: .standard, input: .raw)
        var found: [Onset] = []
        samples.withUnsafeBufferPointer { detector.process($0, into: &found) }
        detector.finish(into: &found)
        return found
    }

    func nearest(_ onsets: [Onset], to frame: Int) throws -> Onset {
        try #require(onsets.min { abs($0.frame - frame) < abs($1.frame - frame) })
    }

    @Test(arguments: [(1, 0.005), (2, 0.006), (3, 0.008)] as [(UInt64, Double)])
    func aTapOnAnUnheardClicksToneIsTimedAtTheTap(seed: UInt64, lead: Double) throws {
        var samples = withClick(seed: seed)
        let tap = Self.clickStart + Int(lead * Self.rate)
        // About 13 dB over the click: under the precursor step's 16 dB.
        addBurst(&samples, at: tap, amplitude: 0.03, decay: 0.006, seed: seed &+ 50)
        let onset = try nearest(onsets(samples), to: tap)
        #expect(abs(onset.frame - tap) <= Int(0.0003 * Self.rate), "timed \(Double(onset.frame - tap) / Self.rate * 1000) ms off")
        // The click stepped over is another sound, not a lead-in of the tap.
        #expect(onset.precursorTime == nil)
    }

    @Test func aBuildUpShorterThanTheShortestLeadKeepsItsStart() throws {
        // The tap's own first part holds for 3 ms, and its body rises 13 dB out of it.
        var samples = withClick(level: 0, seed: 4)
        var random = TestRandom(state: 60)
        for index in Self.clickStart..<(Self.clickStart + Int(0.003 * Self.rate)) { samples[index] += Float(0.01 * random.gaussian()) }
        addBurst(&samples, at: Self.clickStart + Int(0.003 * Self.rate), amplitude: 0.045, decay: 0.006, seed: 61)
        let onset = try nearest(onsets(samples), to: Self.clickStart)
        #expect(abs(onset.frame - Self.clickStart) <= Int(0.0005 * Self.rate), "moved \(Double(onset.frame - Self.clickStart) / Self.rate * 1000) ms")
    }

    /// Unit cases on the step itself: 6 ms of lead, then a burst.
    func lead(_ shape: (Double) -> Double, thenBurstOf amplitude: Double) -> [Float] {
        var random = TestRandom(state: 7)
        let leadLength = Int(0.006 * Self.rate)
        return (0..<Int(0.012 * Self.rate)).map { index in
            let t = Double(index) / Self.rate
            let value = index < leadLength ? shape(t) * sin(2 * .pi * 1_000 * t) : amplitude * random.gaussian()
            return Float(value)
        }
    }

    @Test func onlyASteadyLeadClearlyUnderTheSoundIsSteppedOver() {
        let sizes = StartPicker.steadyLeadFrames(sampleRate: Self.rate)
        func step(_ samples: [Float]) -> Int? {
            samples.withUnsafeBufferPointer {
                StartPicker.pastSteadyLead($0, window: sizes.window, shortest: sizes.shortest, longest: sizes.longest)
            }
        }
        let leadEnd = Int(0.006 * Self.rate)
        // A steady tone, then a burst about 14 dB over it: stepped to the burst.
        let steady = step(lead({ _ in 0.01 }, thenBurstOf: 0.035))
        #expect(steady.map { abs($0 - leadEnd) <= Int(0.0003 * Self.rate) } == true, "stepped to \(String(describing: steady))")
        // The same burst only 5 dB over the tone: part of one sound.
        #expect(step(lead({ _ in 0.01 }, thenBurstOf: 0.0126)) == nil)
        // A lead that falls away by 15 dB, as a contact burst does: not steady.
        #expect(step(lead({ t in 0.03 * exp(-t / 0.0015) }, thenBurstOf: 0.1)) == nil)
    }
}
