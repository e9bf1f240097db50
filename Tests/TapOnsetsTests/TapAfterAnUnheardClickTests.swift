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

    /// Noise at −60 dBFS with a 1 kHz tone burst at `clickStart` of amplitude `level`, decaying
    /// with time constant `decay` (TapSim's bleed clicks: 25–35 ms).
    func withClick(level: Double = 0.01, decay: Double = 0.030, seed: UInt64) -> [Float] {
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
        // Three times the click's amplitude (the click's power is half its squared amplitude:
        // 12.6 dB): less than the precursor step's 16 dB over the click's milliseconds.
        addBurst(&samples, at: tap, amplitude: 0.03, decay: 0.006, seed: seed &+ 50)
        let onset = try nearest(onsets(samples), to: tap)
        #expect(abs(onset.frame - tap) <= Int(0.0003 * Self.rate), "timed \(Double(onset.frame - tap) / Self.rate * 1000) ms off")
        // The click was stepped over by this step, not as a precursor.
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

    /// `leadDuration` of a 1 kHz tone of amplitude `shape(t)`, then noise of amplitude
    /// `amplitude` for as long again.
    func lead(_ shape: (Double) -> Double, for leadDuration: Double = 0.006, thenBurstOf amplitude: Double) -> [Float] {
        var random = TestRandom(state: 7)
        let leadLength = Int(leadDuration * Self.rate)
        return (0..<(2 * leadLength)).map { index in
            let t = Double(index) / Self.rate
            let value = index < leadLength ? shape(t) * sin(2 * .pi * 1_000 * t) : amplitude * random.gaussian()
            return Float(value)
        }
    }

    func step(_ samples: [Float]) -> Int? {
        let sizes = StartPicker.steadyLeadFrames(sampleRate: Self.rate)
        return samples.withUnsafeBufferPointer {
            StartPicker.pastSteadyLead($0, rise: StartPicker.riseAtChangePoint($0), window: sizes.window, shortest: sizes.shortest,
                                       longest: Int(0.010 * Self.rate))
        }
    }

    @Test func aSteadyLeadClearlyUnderTheSoundIsSteppedOver() {
        // A steady tone (power 0.01²/2), then noise of power 0.035²: 13.9 dB over it.
        let leadEnd = Int(0.006 * Self.rate)
        let stepped = step(lead({ _ in 0.01 }, thenBurstOf: 0.035))
        #expect(stepped.map { abs($0 - leadEnd) <= Int(0.0003 * Self.rate) } == true, "stepped to \(String(describing: stepped))")
    }

    @Test(arguments: [0.0126, 0.016])
    func aRiseUnderTheJumpIsPartOfOneSound(amplitude: Double) {
        // 5.0 and 7.1 dB over the tone: under the 8 dB jump.
        #expect(step(lead({ _ in 0.01 }, thenBurstOf: amplitude)) == nil)
    }

    @Test func aLeadThatFallsAwayIsNoSteadyTone() {
        // The windows read lie 5 ms apart, first to last (centres 0.75–5.75 ms). A time
        // constant of 3.6 ms makes the lead's power fall 12 dB over them, as a contact burst's
        // tail falls: not steady, though the burst after stands 16 dB over its mean.
        #expect(step(lead({ t in 0.02 * exp(-t / 0.0036) }, thenBurstOf: 0.05)) == nil)
        // 7.2 ms, a 6 dB fall: within the 8 dB a click's tone may vary, stepped over.
        #expect(step(lead({ t in 0.02 * exp(-t / 0.0072) }, thenBurstOf: 0.05)) != nil)
    }

    @Test func aLeadLongerThanTheRefractoryPeriodIsAnotherEvent() {
        #expect(step(lead({ _ in 0.01 }, for: 0.012, thenBurstOf: 0.035)) == nil)
        #expect(step(lead({ _ in 0.01 }, for: 0.009, thenBurstOf: 0.035)) != nil)
    }
}
