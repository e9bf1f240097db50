import TapStatistics

/// Every click of a ``MetronomeProgram`` at a sample rate, each an exact time rounded to a
/// frame once.
public struct ProgramSchedule: Sendable {
    /// The program compiled.
    public let program: MetronomeProgram
    /// Frames per second of every click frame.
    public let sampleRate: Int
    /// Every click, count-in included, in frame order.
    public let clicks: [ClickEvent]
    /// The frame at which the last bar ends (phase shifts included).
    public let endFrame: Int

    /// Compiles `program`; the error names the first value out of range.
    public init(_ program: MetronomeProgram, sampleRate: Int) throws(MetronomeError) {
        guard (1_000...768_000).contains(sampleRate) else { throw .outOfRange("sample rate", "\(sampleRate)", "1000–768000") }
        try Self.validate(program)
        self.program = program
        self.sampleRate = sampleRate
        let layout = try ProgramLayout(program)
        try Self.checkSize(program, layout)
        var clicks: [ClickEvent] = []
        var generator = SeededGenerator(seed: program.jitter?.seed ?? 0)
        for bar in layout.bars {
            let section = program.sections[bar.section]
            for click in bar.pattern {
                let position = try exact(bar.start.plus(click.offset), "bar \(bar.number)")
                let segment = layout.segment(at: position)
                var offset = layout.shift(at: position)
                if bar.number > 0, let jitter = program.jitter {
                    offset = try exact(offset.plus(Self.displacement(jitter, &generator)), "jitter in bar \(bar.number)")
                }
                var played = bar.number <= 0 || !(section.silent || program.mutedBars.contains(bar.number))
                if bar.number > 0, let last = layout.silentFrom, position >= last { played = false }
                clicks.append(ClickEvent(frame: segment.frame(of: position, offset: offset, rate: sampleRate),
                                         time: segment.approximateTime(of: position) + offset.doubleValue,
                                         bar: bar.number, beat: click.beat, step: click.step, of: click.of,
                                         kind: click.kind, volume: click.volume, played: played))
            }
        }
        // Jitter and negative shifts can reorder neighbouring clicks; the renderer wants frame order.
        if program.jitter != nil || !program.perturbations.isEmpty {
            clicks = clicks.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(\.element)
        }
        let last = layout.segments[layout.segments.count - 1]
        var end = last.frame(of: last.end, offset: layout.shift(at: last.end), rate: sampleRate)
        // Jitter or a negative shift may put the first click before frame 0: then everything
        // starts that many frames later, so no click is cut.
        if let first = clicks.first, first.frame < 0 {
            let lead = -first.frame
            for index in clicks.indices {
                clicks[index].frame += lead
                clicks[index].time += Double(lead) / Double(sampleRate)
            }
            end += lead
        }
        self.clicks = clicks
        endFrame = end
    }

    /// One click's random displacement in whole microseconds.
    static func displacement(_ jitter: MetronomeProgram.Jitter, _ generator: inout SeededGenerator) -> Rational {
        let amount = Int((jitter.milliseconds * Rational(1_000)).roundedToNearest)
        guard amount > 0 else { return Rational(0) }
        let microseconds: Int
        switch jitter.distribution {
        case .uniform: microseconds = generator.nextInt(below: 2 * amount + 1) - amount
        case .normal: microseconds = Int((Double(amount) * generator.nextGaussian()).rounded())
        }
        return Rational(Int64(microseconds), 1_000_000)
    }

    /// The most clicks and the longest program compiled at once: 24 hours of subdivisions 2–9 at
    /// 120 BPM is 4.8 million clicks.
    public static let maximumClicks = 20_000_000
    /// The longest program compiled at once, hours.
    public static let maximumHours = 48

    /// Refuses muted bars and a continuation beyond the program, and programs too large to
    /// compile (before any click is built).
    static func checkSize(_ program: MetronomeProgram, _ layout: ProgramLayout) throws(MetronomeError) {
        if let bar = program.mutedBars.max(), bar > layout.totalBars {
            throw .outOfRange("muted bar", "\(bar)", "1–\(layout.totalBars), the program's bars")
        }
        if let beat = program.silentAfterBeat, beat > layout.totalBeats {
            throw .outOfRange("silent after beat", "\(beat)", "0–\(layout.totalBeats), the program's beats")
        }
        let clicks = layout.bars.reduce(0) { $0 + $1.pattern.count }
        guard clicks <= maximumClicks else { throw .outOfRange("clicks", "\(clicks)", "at most \(maximumClicks)") }
        let last = layout.segments[layout.segments.count - 1]
        let hours = (last.startTime.doubleValue + last.duration.doubleValue) / 3_600
        guard hours <= Double(maximumHours) else {
            throw .outOfRange("program length", String(format: "%.1f h", hours), "at most \(maximumHours) h")
        }
    }

    private static func validate(_ program: MetronomeProgram) throws(MetronomeError) {
        guard !program.sections.isEmpty else { throw .outOfRange("sections", "0", "at least 1") }
        for (index, section) in program.sections.enumerated() {
            try section.settings.validate()
            guard (1...1_000_000).contains(section.bars) else {
                throw .outOfRange("bars of section \(index + 1)", "\(section.bars)", "1–1000000")
            }
            if let target = section.rampTo, !(target >= Rational(1) && target <= Rational(999)) {
                throw .outOfRange("ramp target of section \(index + 1)", "\(target) BPM", "1–999 BPM")
            }
        }
        guard (0...1_000).contains(program.countInBars) else { throw .outOfRange("count-in", "\(program.countInBars) bars", "0–1000") }
        if let jitter = program.jitter, !(jitter.milliseconds >= Rational(0) && jitter.milliseconds <= Rational(1_000)) {
            throw .outOfRange("jitter", "\(jitter.milliseconds) ms", "0–1000 ms")
        }
        if let beat = program.silentAfterBeat, beat < 0 { throw .outOfRange("silent after beat", "\(beat)", "0 or more") }
        if let bar = program.mutedBars.min(), bar < 1 { throw .outOfRange("muted bar", "\(bar)", "1 or more") }
        for perturbation in program.perturbations {
            switch perturbation {
            case .phaseShift(_, let milliseconds):
                guard milliseconds >= Rational(-10_000), milliseconds <= Rational(10_000) else {
                    throw .outOfRange("phase shift", "\(milliseconds) ms", "−10000–10000 ms")
                }
            case .periodStep(_, let tempo):
                guard tempo >= Rational(1), tempo <= Rational(999) else { throw .outOfRange("period step", "\(tempo) BPM", "1–999 BPM") }
            }
        }
    }
}
