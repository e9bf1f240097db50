import Foundation
import Testing
import TapMetronome

@Suite struct ProgramTests {
    static func settings(_ tempo: String, _ meter: String = "4/4", subdivide: [Int] = []) -> MetronomeSettings {
        var settings = MetronomeSettings(tempo: Rational(tempo)!, meter: Meter(meter)!)
        for subdivision in subdivide { settings.subdivisions[subdivision] = 1 }
        return settings
    }

    static func beats(_ schedule: ProgramSchedule) -> [ClickEvent] { schedule.clicks.filter { $0.kind != .subdivision } }

    /// A one-section program is the steady schedule, click for click.
    @Test func steadyProgramIsTheSteadySchedule() throws {
        let settings = Self.settings("100.3", "7/8", subdivide: [2, 3])
        let program = try ProgramSchedule(MetronomeProgram(sections: [.init(settings: settings, bars: 300)]), sampleRate: 44_100)
        let steady = try ClickSchedule(settings, sampleRate: 44_100).clicks(inBars: 0..<300)
        // Same frames and labels; times agree to double precision.
        var same = program.clicks.count == steady.count
        for (a, b) in zip(program.clicks, steady) {
            var b = b
            if abs(a.time - b.time) < 1e-9 { b.time = a.time }
            same = same && a == b
        }
        #expect(same)
        #expect(program.endFrame == (try ClickSchedule(settings, sampleRate: 44_100)).frame(ofBar: 300))
    }

    /// An accelerando from 60 to 120 over 4 bars of 4/4, linear in time: b beats take
    /// t(b) = 120·b / (60 + √(3600 + 675·b)) seconds, exactly 8/3 s at beat 3, 8 s at beat 11
    /// and 32/3 s at beat 16, where the next section goes on at 120.
    @Test func linearRampFollowsTheExactIntegral() throws {
        var program = MetronomeProgram(sections: [.init(settings: Self.settings("60"), bars: 4, rampTo: Rational(120)),
                                                  .init(settings: Self.settings("120"), bars: 1)])
        program.countInBars = 0
        let rate = 48_000
        let beats = Self.beats(try ProgramSchedule(program, sampleRate: rate))
        #expect(beats.count == 20)
        #expect(beats[3].frame == 128_000 && beats[11].frame == 384_000 && beats[16].frame == 512_000)
        for (b, click) in beats.prefix(16).enumerated() {
            let exact = 120 * Double(b) / (60 + (3_600 + 675 * Double(b)).squareRoot()) * Double(rate)
            #expect(abs(exact - exact.rounded() - 0.5) > 1e-6 && abs(exact - exact.rounded() + 0.5) > 1e-6)
            #expect(click.frame == Int(exact.rounded()), "beat \(b)")
        }
        #expect(beats[17].frame == 512_000 + 24_000 && beats[19].frame == 512_000 + 72_000)
        // Each interval of the accelerando is shorter than the one before.
        let intervals = zip(beats.dropFirst(), beats).map { $0.frame - $1.frame }.prefix(16)
        #expect(zip(intervals.dropFirst(), intervals).allSatisfy { $0 < $1 })
    }

    /// A ritardando from 120 to 60 over 2 bars: beats at t(b) = 120·b/(120 + √(14400 − 1350·b))
    /// seconds, exactly 8/9 s at beat 2 (√11700 is not whole, so the exact comparison decides).
    @Test func ritardandoFramesAreCorrectlyRounded() throws {
        let program = MetronomeProgram(sections: [.init(settings: Self.settings("120"), bars: 2, rampTo: Rational(60))])
        for rate in [44_100, 48_000, 96_000] {
            let beats = Self.beats(try ProgramSchedule(program, sampleRate: rate))
            for (b, click) in beats.enumerated() {
                let exact = 120 * Double(b) / (120 + (14_400 - 1_350 * Double(b)).squareRoot()) * Double(rate)
                #expect(click.frame == Int(exact.rounded()), "beat \(b) at \(rate)")
            }
        }
    }

    /// A period step at beat 5 from 120 to 100 BPM: beats 1–5 every 24 000 frames, then every
    /// 28 800; a phase shift of +50 ms at beat 9 delays beat 9 and every later one by 2400
    /// frames, and one of −12.5 ms at beat 12 pulls them back by 600.
    @Test func perturbationsMoveBeatsByTheirClosedForm() throws {
        var program = MetronomeProgram(sections: [.init(settings: Self.settings("120"), bars: 4)])
        program.perturbations = [.periodStep(beat: 5, tempo: Rational(100)), .phaseShift(beat: 9, milliseconds: Rational(50)),
                                 .phaseShift(beat: 12, milliseconds: Rational("-12.5")!)]
        let beats = Self.beats(try ProgramSchedule(program, sampleRate: 48_000))
        for (index, click) in beats.enumerated() {
            let k = index + 1
            var expected = k <= 5 ? (k - 1) * 24_000 : 96_000 + (k - 5) * 28_800
            if k >= 9 { expected += 2_400 }
            if k >= 12 { expected -= 600 }
            #expect(click.frame == expected, "beat \(k)")
        }
    }

    /// Two bars of count-in (bars −1 and 0, beats only), then the program: its first beat at
    /// frame 8 × 24 000, subdivisions only in the program.
    @Test func countInPrecedesTheProgram() throws {
        var program = MetronomeProgram(sections: [.init(settings: Self.settings("120", subdivide: [2]), bars: 1)])
        program.countInBars = 2
        let clicks = try ProgramSchedule(program, sampleRate: 48_000).clicks
        let countIn = clicks.filter { $0.bar <= 0 }
        #expect(countIn.map(\.bar) == [-1, -1, -1, -1, 0, 0, 0, 0])
        #expect(countIn.map(\.frame) == (0..<8).map { $0 * 24_000 })
        #expect(countIn.map(\.kind) == [.accent, .beat, .beat, .beat, .accent, .beat, .beat, .beat])
        let first = try #require(clicks.first { $0.bar == 1 })
        #expect(first.frame == 192_000 && first.kind == .accent)
        #expect(clicks.filter { $0.bar == 1 }.count == 8)
    }

    /// Synchronization–continuation: after beat 6 the clicks are silent, the timing runs on;
    /// a silent section and muted bars are scheduled but not played, and the rendered audio is
    /// silent where they are.
    @Test func continuationMutedBarsAndSilentSections() throws {
        var program = MetronomeProgram(sections: [.init(settings: Self.settings("120"), bars: 4),
                                                  .init(settings: Self.settings("120"), bars: 2, silent: true)])
        program.silentAfterBeat = 6
        var schedule = try ProgramSchedule(program, sampleRate: 48_000)
        #expect(schedule.clicks.count == 24)
        #expect(schedule.clicks.map(\.played) == (1...24).map { $0 <= 6 })
        #expect(schedule.clicks.map(\.frame) == (0..<24).map { $0 * 24_000 })

        program.silentAfterBeat = nil
        program.mutedBars = [2, 4]
        schedule = try ProgramSchedule(program, sampleRate: 48_000)
        #expect(schedule.clicks.map(\.played) == (0..<24).map { [0, 2].contains($0 / 4) })
        let sounds = ClickSounds.builtIn(sampleRate: 48_000)
        var renderer = ClickRenderer(clicks: schedule.clicks, sounds: sounds, frameCount: schedule.endFrame + sounds.longest)
        var samples = [Float](repeating: 0, count: renderer.frameCount)
        samples.withUnsafeMutableBufferPointer { renderer.render(into: $0, from: 0) }
        #expect(samples[96_000..<192_000].allSatisfy { $0 == 0 } && samples[288_000...].allSatisfy { $0 == 0 })
        #expect(samples[192_000..<193_000].contains { $0 != 0 })
    }

    /// Seeded jitter: every click within ±10 ms of its isochronous time, in whole
    /// microseconds; the same seed gives the same clicks, another seed others; the spread
    /// matches the distribution (uniform: SD 10/√3 ms; normal: SD 10 ms).
    @Test func jitterIsSeededAndBounded() throws {
        var program = MetronomeProgram(sections: [.init(settings: Self.settings("120"), bars: 1_000)])
        program.jitter = .init(milliseconds: Rational(10), distribution: .uniform, seed: 7)
        let rate = 96_000
        let first = try ProgramSchedule(program, sampleRate: rate)
        #expect(first.clicks == (try ProgramSchedule(program, sampleRate: rate)).clicks)
        let offsets = first.clicks.enumerated().map { Double($0.element.frame - $0.offset * 48_000) / Double(rate) * 1_000 }
        #expect(offsets.allSatisfy { abs($0) <= 10.006 })
        let sd = { (values: [Double]) -> Double in
            let mean = values.reduce(0, +) / Double(values.count)
            return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count - 1)).squareRoot()
        }
        #expect(abs(sd(offsets) - 10 / 3.0.squareRoot()) < 0.25)
        #expect(abs(offsets.reduce(0, +) / Double(offsets.count)) < 0.3)
        program.jitter?.seed = 8
        #expect(try ProgramSchedule(program, sampleRate: rate).clicks != first.clicks)
        program.jitter = .init(milliseconds: Rational(10), distribution: .normal, seed: 7)
        let normal = try ProgramSchedule(program, sampleRate: rate).clicks.enumerated()
            .map { Double($0.element.frame - $0.offset * 48_000) / Double(rate) * 1_000 }
        #expect(abs(sd(normal) - 10) < 0.6)
    }

    /// Swing 2/3 at 120 BPM: the eighth after each beat falls at 2/3 of the beat (16 000
    /// frames in), sixteenths at 1/3 and 5/6 of it.
    @Test func swingMovesPositionsWithinTheBeat() throws {
        var settings = Self.settings("120", "2/4", subdivide: [2, 4])
        settings.swing = Rational(2, 3)
        let clicks = try ProgramSchedule(MetronomeProgram(sections: [.init(settings: settings, bars: 1)]), sampleRate: 48_000).clicks
        #expect(clicks.map(\.frame) == [0, 8_000, 16_000, 20_000, 24_000, 32_000, 40_000, 44_000])
        settings.swing = Rational(4, 5)
        #expect(throws: MetronomeError.outOfRange("swing", "4/5", "1/2–3/4 of a beat")) { try settings.validate() }
    }

    /// A click jittered or shifted before the start moves the whole program later, never cut.
    @Test func clicksBeforeTheStartDelayTheProgram() throws {
        var program = MetronomeProgram(sections: [.init(settings: Self.settings("120"), bars: 2)])
        program.perturbations = [.phaseShift(beat: 1, milliseconds: Rational(-10))]
        let clicks = try ProgramSchedule(program, sampleRate: 48_000).clicks
        #expect(clicks.map(\.frame) == (0..<8).map { $0 * 24_000 })
        // A shift may shorten the interval before its beat, not reverse it.
        program.perturbations = [.phaseShift(beat: 2, milliseconds: Rational(-600))]
        #expect(throws: MetronomeError.outOfRange("phase shift at beat 2", "-600 ms", "less than the 500.0 ms back to the beat before it")) {
            try ProgramSchedule(program, sampleRate: 48_000)
        }
        program.perturbations = [.phaseShift(beat: 2, milliseconds: Rational(-499))]
        #expect(try ProgramSchedule(program, sampleRate: 48_000).clicks[1].frame == 24_000 - 23_952)
    }

    @Test func badProgramsAreNamed() {
        var program = MetronomeProgram(sections: [.init(settings: Self.settings("120"), bars: 2, rampTo: Rational(140))])
        program.perturbations = [.periodStep(beat: 3, tempo: Rational(100))]
        #expect(throws: MetronomeError.outOfRange("period step at beat", "3", "beats outside tempo ramps")) {
            try ProgramSchedule(program, sampleRate: 48_000)
        }
        program.perturbations = [.phaseShift(beat: 9, milliseconds: Rational(10))]
        #expect(throws: MetronomeError.outOfRange("phase shift beat", "9", "1–8")) { try ProgramSchedule(program, sampleRate: 48_000) }
        #expect(throws: MetronomeError.outOfRange("sections", "0", "at least 1")) {
            try ProgramSchedule(MetronomeProgram(sections: []), sampleRate: 48_000)
        }
    }
}
