import Foundation

/// Where everything in a program falls, in whole notes from the start of the count-in:
/// its bars, its tempo segments (sections split at period steps), the accumulated phase
/// shifts and where the silent continuation begins.
struct ProgramLayout {
    struct Bar {
        /// 1-based program bar; count-in bars are −n+1 … 0.
        var number: Int
        var section: Int
        var start: Rational
        var pattern: [PatternClick]
    }

    private(set) var bars: [Bar] = []
    private(set) var segments: [TempoSegment] = []
    /// Phase shifts by position, each with the total shift from there on (seconds).
    private var shifts: [(position: Rational, total: Rational)] = []
    /// Where clicks fall silent for the continuation phase.
    private(set) var silentFrom: Rational?
    /// Program bars and beats (count-in excluded).
    private(set) var totalBars = 0
    private(set) var totalBeats = 0

    init(_ program: MetronomeProgram) throws(MetronomeError) {
        let first = program.sections[0].settings
        var position = Rational(0), time = Rational(0)
        if program.countInBars > 0 {
            var countIn = first
            countIn.subdivisions = [:]
            countIn.swing = Rational(1, 2)
            let pattern = PatternClick.bar(of: countIn)
            let length = try exact(first.meter.barLength.times(Rational(program.countInBars)), "the count-in")
            for bar in 0..<program.countInBars {
                bars.append(Bar(number: bar + 1 - program.countInBars, section: 0,
                                start: first.meter.barLength * Rational(bar), pattern: pattern))
            }
            let segment = try TempoSegment(start: position, end: length, startTime: time, tempo: first.tempo,
                                           endTempo: first.tempo, unit: first.beatUnit.wholeNotes, what: "the count-in")
            segments.append(segment)
            (position, time) = (length, try segment.endTime())
        }

        // Where each section starts, and its first beat.
        var sectionStarts: [Rational] = [], firstBeats: [Int] = []
        var beat = 1, start = position
        for (index, section) in program.sections.enumerated() {
            sectionStarts.append(start)
            firstBeats.append(beat)
            beat += section.bars * section.settings.beatsPerBar
            start = try exact(section.settings.meter.barLength.times(Rational(section.bars)).flatMap { start.plus($0) },
                              "section \(index + 1)")
        }
        totalBeats = beat - 1
        totalBars = program.sections.reduce(0) { $0 + $1.bars }
        let totalBeats = self.totalBeats
        func beatPosition(_ beat: Int, _ what: String) throws(MetronomeError) -> (section: Int, position: Rational) {
            guard (1...totalBeats).contains(beat) else { throw .outOfRange("\(what) beat", "\(beat)", "1–\(totalBeats)") }
            let section = firstBeats.lastIndex { $0 <= beat }!
            let settings = program.sections[section].settings
            let local = beat - firstBeats[section]
            let offset = settings.meter.barLength * Rational(local / settings.beatsPerBar)
                + settings.beatUnit.wholeNotes * Rational(local % settings.beatsPerBar)
            return (section, try exact(sectionStarts[section].plus(offset), "beat \(beat)"))
        }

        var steps: [Int: [(position: Rational, tempo: Rational)]] = [:]
        var shiftedBeats: [(beat: Int, milliseconds: Rational, position: Rational, previous: Rational)] = []
        var shiftList: [(position: Rational, seconds: Rational)] = []
        for perturbation in program.perturbations {
            switch perturbation {
            case .phaseShift(let beat, let milliseconds):
                let position = try beatPosition(beat, "phase shift").position
                shiftList.append((position, milliseconds / Rational(1_000)))
                // The beat before it: the previous program beat, or the count-in's last.
                if beat > 1 {
                    shiftedBeats.append((beat, milliseconds, position, try beatPosition(beat - 1, "phase shift").position))
                } else if program.countInBars > 0 {
                    let last = first.meter.barLength * Rational(program.countInBars - 1)
                        + first.beatUnit.wholeNotes * Rational(first.beatsPerBar - 1)
                    shiftedBeats.append((beat, milliseconds, position, last))
                }
            case .periodStep(let beat, let tempo):
                let (section, at) = try beatPosition(beat, "period step")
                guard program.sections[section].rampTo == nil else {
                    throw .outOfRange("period step at beat", "\(beat)", "beats outside tempo ramps")
                }
                steps[section, default: []].append((at, tempo))
            }
        }
        var total = Rational(0)
        for shift in shiftList.sorted(by: { $0.position < $1.position }) {
            total = try exact(total.plus(shift.seconds), "the phase shifts")
            shifts.append((shift.position, total))
        }
        if let last = program.silentAfterBeat, last < totalBeats {
            silentFrom = last == 0 ? sectionStarts[0] : try beatPosition(last + 1, "silent after").position
        }

        for (index, section) in program.sections.enumerated() {
            let settings = section.settings, unit = settings.beatUnit.wholeNotes
            let what = "section \(index + 1)"
            let end = index + 1 < sectionStarts.count ? sectionStarts[index + 1] : start
            let pattern = PatternClick.bar(of: settings)
            for bar in 0..<section.bars {
                bars.append(Bar(number: bars.count + 1 - program.countInBars, section: index,
                                start: try exact(settings.meter.barLength.times(Rational(bar)).flatMap { sectionStarts[index].plus($0) }, what),
                                pattern: pattern))
            }
            if let target = section.rampTo {
                let segment = try TempoSegment(start: sectionStarts[index], end: end, startTime: time, tempo: settings.tempo,
                                               endTempo: target, unit: unit, what: what)
                segments.append(segment)
                time = try segment.endTime()
                continue
            }
            // Steady, split at period steps: each piece runs at the tempo of the step that starts it.
            var pieces: [(position: Rational, tempo: Rational)] = [(sectionStarts[index], settings.tempo)]
            for step in (steps[index] ?? []).sorted(by: { $0.position < $1.position }) {
                if step.position == pieces[pieces.count - 1].position { pieces[pieces.count - 1].tempo = step.tempo } else { pieces.append(step) }
            }
            for (number, piece) in pieces.enumerated() {
                let pieceEnd = number + 1 < pieces.count ? pieces[number + 1].position : end
                let segment = try TempoSegment(start: piece.position, end: pieceEnd, startTime: time, tempo: piece.tempo,
                                               endTempo: piece.tempo, unit: unit, what: what)
                segments.append(segment)
                time = try segment.endTime()
            }
        }
        // A phase shift may shorten the interval before its beat, never reverse it.
        for shifted in shiftedBeats where shiftedTime(of: shifted.position) <= shiftedTime(of: shifted.previous) {
            let interval = (segment(at: shifted.position).approximateTime(of: shifted.position)
                - segment(at: shifted.previous).approximateTime(of: shifted.previous)) * 1_000
            throw .outOfRange("phase shift at beat \(shifted.beat)", "\(shifted.milliseconds) ms",
                              "less than the \(String(format: "%.1f", interval)) ms back to the beat before it")
        }
    }

    /// The segment a position falls in (at a boundary, the later one: both give the same time).
    func segment(at position: Rational) -> TempoSegment {
        var low = 0, high = segments.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if segments[middle].start <= position { low = middle } else { high = middle - 1 }
        }
        return segments[low]
    }

    /// The total phase shift, in seconds, of clicks at a position.
    func shift(at position: Rational) -> Rational {
        shifts.last { $0.position <= position }?.total ?? Rational(0)
    }

    /// The time in seconds of a position with its phase shift, to double precision.
    func shiftedTime(of position: Rational) -> Double {
        segment(at: position).approximateTime(of: position) + shift(at: position).doubleValue
    }
}
