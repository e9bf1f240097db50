import Foundation
import Testing
@testable import TapOnsets

/// A ringing click (a woodblock: two decaying partials) on a grid whose period is off: AAC's
/// pre-echo moves each click's start 0–4 ms, and the grid fitted to such starts can be tens of
/// microseconds per period off (seed 109's `loudspeaker-aac-held-1`: 39 µs). The clicks then
/// drift from the grid by up to 40 frames at the ends of a 20 s recording, further than the
/// template's alignment reaches (8 frames), and that alignment slips from cycle to cycle of
/// the ring. The clicks' energy envelopes fix the line instead.
@Suite struct ClickEnvelopeLineTests {
    static let rate = 48_000.0
    static let period = 0.4785
    static let count = 40

    /// Clicks at `period` from 1 s, each two partials (900 Hz and 2.6 kHz, 35 ms decay) at
    /// about −15 dBFS, in white noise at −60 dBFS.
    static func recording() -> [Float] {
        var random = TestRandom(state: 109)
        var samples = (0..<Int((2 + period * Double(count)) * rate)).map { _ in Float(0.001 * random.gaussian()) }
        for k in 0..<count {
            let start = (1 + period * Double(k)) * rate
            let first = Int(start.rounded(.up))
            for index in first..<(first + Int(0.15 * rate)) {
                let t = (Double(index) - start) / rate
                let ring = 0.12 * sin(2 * .pi * 900 * t) + 0.08 * sin(2 * .pi * 2600 * t + 1)
                samples[index] += Float(exp(-t / 0.035) * ring)
            }
        }
        return samples
    }

    static func estimates(gridPeriod: Double) -> [BleedTemplate] {
        let samples = recording()
        // The grid agrees with the clicks in the middle of the recording.
        let middle = Double(count / 2)
        let grid = StimulusLockedOnsets.Grid(phase: 1 + middle * (period - gridPeriod), period: gridPeriod)
        let clickTimes = (0..<count).map { grid.phase + grid.period * Double($0) }
        return BleedTemplate.estimates(grid: grid, clickTimes: clickTimes, sampleRate: rate) { start, length in
            start >= 0 && start + length <= samples.count ? Array(samples[start..<(start + length)]) : nil
        }
    }

    @Test func clicksOffTheOnsetsGridAlignOnTheirEnvelopesLine() throws {
        let templates = Self.estimates(gridPeriod: Self.period - 0.000039)
        let first = try #require(templates.first)
        // The line the envelopes fit, then refined on the waveforms: within a tenth of a frame
        // per period of the clicks', and the clicks sound alike on it.
        #expect(abs(first.periodFrames - Self.period * Self.rate) < 0.1, "period \(first.periodFrames / Self.rate) s")
        #expect(abs(first.phaseFrames - Self.rate) < 4, "phase \(first.phaseFrames) frames")
        #expect(first.likeness > 0.95, "likeness \(first.likeness)")
        // The template aligned on the grid comes second: its line did not follow the clicks,
        // and they sound less alike on it.
        #expect(templates.count == 2)
        if templates.count == 2 {
            #expect(abs(templates[1].periodFrames - Self.period * Self.rate) > 1, "on the grid: period \(templates[1].periodFrames / Self.rate) s")
            #expect(templates[1].likeness < first.likeness, "on the grid: likeness \(templates[1].likeness)")
        }
    }

    @Test func clicksOnTheGridAreAlignedThereAlone() throws {
        let templates = Self.estimates(gridPeriod: Self.period)
        #expect(templates.count == 1)
        let template = try #require(templates.first)
        #expect(abs(template.periodFrames - Self.period * Self.rate) < 0.1 && template.likeness > 0.95)
    }
}
