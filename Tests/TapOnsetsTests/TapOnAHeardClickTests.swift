import Foundation
import Testing
@testable import TapOnsets
import TapAudio

/// A tap that sounds a few milliseconds after a metronome click that the subtraction left in
/// place (the tap spoiled the click's fit, and no clicks were heard around it): the second
/// pass knows where the first heard the clicks start (`OnsetDetector.noteHeardClicks`), and
/// times the tap where it rises over the click, unless what it would step over is louder than
/// the clicks are (the tap's own contact burst on the click).
@Suite struct TapOnAHeardClickTests {
    static let rate = 48_000.0
    static let clickStart = 24_000
    static let clickLevel = 0.01

    /// Noise at −60 dBFS with a 1 kHz click (τ 8 ms) at `clickStart`.
    func withClick(seed: UInt64) -> [Float] {
        var random = TestRandom(state: seed)
        var samples = (0..<48_000).map { _ in Float(0.001 * random.gaussian()) }
        for index in 0..<Int(0.03 * Self.rate) {
            let t = Double(index) / Self.rate
            samples[Self.clickStart + index] += Float(Self.clickLevel * exp(-t / 0.008) * sin(2 * .pi * 1_000 * t))
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

    /// The tap onsets of one detector pass, told (or not) where the click was heard.
    func onsets(_ samples: [Float], heard: Bool) -> [Onset] {
        var detector = OnsetDetector(sampleRate: Self.rate, configuration: .standard, input: .raw)
        // The click's peak power as the first pass measures it.
        var alone = OnsetDetector(sampleRate: Self.rate, configuration: .standard, input: .raw)
        var clickOnsets: [Onset] = []
        withClick(seed: 9).withUnsafeBufferPointer { alone.process($0, into: &clickOnsets) }
        alone.finish(into: &clickOnsets)
        if heard, let click = clickOnsets.first { detector.noteHeardClicks([click.frame], level: click.strength) }
        var found: [Onset] = []
        samples.withUnsafeBufferPointer { detector.process($0, into: &found) }
        detector.finish(into: &found)
        return found
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func aTapAfterAHeardClickIsTimedAtTheTap(seed: UInt64) throws {
        var samples = withClick(seed: seed)
        // 3 ms after the click: sooner than a click's steady tone is stepped over unheard
        // (`StartPicker.steadyLeadShortest`, `TapAfterAnUnheardClickTests`).
        let tap = Self.clickStart + Int(0.003 * Self.rate)
        // About 13 dB over the click: under the precursor step's 16 dB, which needs no grid.
        addBurst(&samples, at: tap, amplitude: 0.03, decay: 0.006, seed: seed &+ 50)
        let stepped = try #require(onsets(samples, heard: true).min { abs($0.frame - tap) < abs($1.frame - tap) })
        #expect(abs(stepped.frame - tap) <= Int(0.0003 * Self.rate), "timed \(Double(stepped.frame - tap) / Self.rate * 1000) ms off")
        // The click stepped over is another sound, not a lead-in of the tap: no precursor, so
        // the tap is compared with the clicks where it starts (`separateClickResidues`).
        #expect(stepped.precursorTime == nil)
        // Not told where the click was heard, the start falls on the click.
        let unstepped = try #require(onsets(samples, heard: false).min { abs($0.frame - tap) < abs($1.frame - tap) })
        #expect(abs(unstepped.frame - Self.clickStart) <= Int(0.001 * Self.rate))
    }

    @Test(arguments: [(4, 0.003), (5, 0.004), (6, 0.004), (7, 0.005)] as [(UInt64, Double)])
    func aTapThatStartsOnTheClickKeepsItsStart(seed: UInt64, body: Double) throws {
        // The tap's contact burst starts with the click, about 7 dB louder than it, and its
        // body 3–5 ms later, about 13 dB louder again (under the 16 dB precursor step): what a
        // step would skip is the tap's, not the click's. From 4 ms on the burst and the click
        // could pass for a steady lead (`StartPicker.pastSteadyLead`), which is not tried where
        // a click is known.
        var samples = withClick(seed: seed)
        addBurst(&samples, at: Self.clickStart, amplitude: 0.02, decay: 0.003, seed: seed &+ 56)
        addBurst(&samples, at: Self.clickStart + Int(body * Self.rate), amplitude: 0.06, decay: 0.006, seed: seed &+ 57)
        let onset = try #require(onsets(samples, heard: true).min { abs($0.frame - Self.clickStart) < abs($1.frame - Self.clickStart) })
        #expect(abs(onset.frame - Self.clickStart) <= Int(0.0005 * Self.rate), "moved \(Double(onset.frame - Self.clickStart) / Self.rate * 1000) ms")
    }
}
