import Foundation
import Testing
@testable import TapOnsets

/// A click grid found at a multiple of the beat: a codec scattered the clicks' starts wider
/// than the grid's tolerance, and the grid search settled on a line at three beats (seed 103's
/// `loudspeaker-aac-dev-2`). The template, estimated from those clicks, also fits at the points
/// between them, and the grid is subdivided; an accented metronome whose other beats sound
/// otherwise keeps its grid.
@Suite struct SubdividedGridTests {
    static let rate = 48_000.0
    static let beat = 0.4267
    static let count = 45

    /// Clicks every `beat` from 1 s: sine bursts (2.4 kHz, 10 ms decay) at about −14 dBFS, or
    /// at the beats between every third one, `between` (nil: silent there); white noise at
    /// −60 dBFS.
    static func recording(between: ((Double) -> Double)?) -> [Float] {
        var random = TestRandom(state: 103)
        var samples = (0..<Int((2 + beat * Double(count)) * rate)).map { _ in Float(0.001 * random.gaussian()) }
        let accent = { (t: Double) in 0.2 * exp(-t / 0.010) * sin(2 * .pi * 2410 * t) }
        for k in 0..<count {
            guard let sound = k % 3 == 0 ? accent : between else { continue }
            let start = (1 + beat * Double(k)) * rate
            let first = Int(start.rounded(.up))
            for index in first..<(first + Int(0.08 * rate)) { samples[index] += Float(sound((Double(index) - start) / rate)) }
        }
        return samples
    }

    /// The template estimated from every `beats`-th click, on the grid that many beats apart,
    /// then subdivided where the recording shows clicks between.
    static func subdivided(_ samples: [Float], beats: Int = 3) throws -> BleedTemplate {
        let grid = StimulusLockedOnsets.Grid(phase: 1, period: Double(beats) * beat)
        let clickTimes = (0..<(count / beats)).map { 1 + Double(beats) * beat * Double($0) }
        let read = { (start: Int, length: Int) -> [Float]? in
            start >= 0 && start + length <= samples.count ? Array(samples[start..<(start + length)]) : nil
        }
        let template = try #require(BleedTemplate.estimates(grid: grid, clickTimes: clickTimes, sampleRate: rate, segment: read).first)
        return template.subdivided(segment: read)
    }

    @Test func clicksBetweenTheGridsPointsSubdivideIt() throws {
        let template = try Self.subdivided(Self.recording(between: { t in 0.2 * exp(-t / 0.010) * sin(2 * .pi * 2410 * t) }))
        #expect(abs(template.periodFrames - Self.beat * Self.rate) < 1, "period \(template.periodFrames / Self.rate) s")
        #expect(template.heardClicks == (0..<(Self.count / 3)).map { 3 * $0 })
        #expect(template.isBetweenHeardClicks(1) && template.isBetweenHeardClicks(2))
    }

    /// A grid four beats apart is made four times finer, not twice (clicks sound at its halves
    /// too).
    @Test func theFinestGridThatHoldsIsTaken() throws {
        let same = { (t: Double) in 0.2 * exp(-t / 0.010) * sin(2 * .pi * 2410 * t) }
        let template = try Self.subdivided(Self.recording(between: same), beats: 4)
        #expect(abs(template.periodFrames - Self.beat * Self.rate) < 1, "period \(template.periodFrames / Self.rate) s")
    }

    @Test func otherSoundsBetweenLeaveTheGrid() throws {
        // An accented metronome: the other beats a wood-like 900 Hz ring at the same level.
        let accented = try Self.subdivided(Self.recording(between: { t in 0.2 * exp(-t / 0.010) * sin(2 * .pi * 900 * t) }))
        #expect(abs(accented.periodFrames - 3 * Self.beat * Self.rate) < 1, "period \(accented.periodFrames / Self.rate) s")
        // Nothing between.
        let sparse = try Self.subdivided(Self.recording(between: nil))
        #expect(abs(sparse.periodFrames - 3 * Self.beat * Self.rate) < 1, "period \(sparse.periodFrames / Self.rate) s")
    }
}

/// The onsets heard at a subdivided grid's new points are clicks too (`clicksBetween`): their
/// starts, smeared up to 12 ms early, are why the grid missed them.
extension SubdividedGridTests {
    @Test func onsetsAtTheNewPointsAtTheClicksLevelAreHeardClicks() {
        let rate = Self.rate, beat = Self.beat
        let template = BleedTemplate(samples: [Float](repeating: 0.1, count: 480), leadFrames: 240, phaseFrames: rate,
                                     periodFrames: beat * rate, heardClicks: [0, 3, 6])
        func onset(_ time: Double, _ strength: Double) -> Onset {
            Onset(time: time, frame: Int(time * rate), peakTime: time + 0.001, strength: strength, snrDB: 40)
        }
        let probe = [
            onset(1, -14),                  // 0: a member, on the grid three beats apart
            onset(1 + beat - 0.008, -13),   // 1: 8 ms early at a new point, the clicks' level
            onset(1 + 2 * beat + 0.0005, -15), // 2: just after a new point
            onset(1 + 3 * beat, -14),       // 3: a member
            onset(1 + 4 * beat - 0.020, -14), // 4: 20 ms early: a tap before the click
            onset(1 + 5 * beat - 0.002, -4), // 5: 10 dB louder: a tap on the click
            onset(1 + 6 * beat - 0.003, -14), // 6: 3 ms before a member's point: not a new point
        ]
        let offGrid = offGridOnsetsAtClickLevel(probe, members: [0, 3])
        #expect(offGrid == [1, 2, 4, 6])
        let heard = clicksBetween(probe, offGrid: offGrid, template: template, gridPeriod: 3 * beat, sampleRate: rate)
        #expect(heard == [1, 2])
        // A template on its grid's own period adds none.
        #expect(clicksBetween(probe, offGrid: offGrid, template: template, gridPeriod: beat, sampleRate: rate).isEmpty)
    }
}
