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

    /// A period step: where it falls and the tempo from there on.
    private typealias Step = (position: Rational, tempo: Rational)
    /// A phase-shifted beat and the beat before it, checked once the segments are known.
    private typealias ShiftedBeat = (beat: Int, milliseconds: Rational, position: Rational, previous: Rational)

    init(_ program: MetronomeProgram) throws(MetronomeError) {
        // The count-in comes first: it sets where and when bar 1 starts.
        let (position, time) = try layOutCountIn(program)
        // Perturbations name beats, so each section's start and first beat are needed first.
        let beats = try BeatMap(program, from: position)
        totalBeats = beats.totalBeats
        totalBars = program.sections.reduce(0) { $0 + $1.bars }
        // Period steps split the sections into segments; phase shifts add up along the program.
        let (steps, shiftedBeats) = try placePerturbations(program, beats)
        if let last = program.silentAfterBeat, last < totalBeats {
            silentFrom = last == 0 ? beats.sectionStarts[0] : try beats.position(of: last + 1, "silent after").position
        }
        // Each section's bars and segments, timed on from the end of the count-in.
        try layOutSections(program, beats, steps: steps, from: time)
        // Only now are the segments there to time a shifted beat against the one before it.
        try checkPhaseShifts(shiftedBeats)
    }

    /// Where each section starts and its first beat, to place a program beat.
    private struct BeatMap {
        let program: MetronomeProgram
        let sectionStarts: [Rational]
        let firstBeats: [Int]
        /// Where the last section ends.
        let end: Rational
        let totalBeats: Int

        init(_ program: MetronomeProgram, from position: Rational) throws(MetronomeError) {
            var sectionStarts: [Rational] = [], firstBeats: [Int] = []
            var beat = 1, start = position
            for (index, section) in program.sections.enumerated() {
                sectionStarts.append(start)
                firstBeats.append(beat)
                beat += section.bars * section.settings.beatsPerBar
                start = try exact(section.settings.meter.barLength.times(Rational(section.bars)).flatMap { start.plus($0) },
                                  "section \(index + 1)")
            }
            self.program = program
            self.sectionStarts = sectionStarts
            self.firstBeats = firstBeats
            end = start
            totalBeats = beat - 1
        }

        /// The section of a program beat (from 1) and its position; `what` names it in errors.
        func position(of beat: Int, _ what: String) throws(MetronomeError) -> (section: Int, position: Rational) {
            guard (1...totalBeats).contains(beat) else { throw .outOfRange("\(what) beat", "\(beat)", "1–\(totalBeats)") }
            let section = firstBeats.lastIndex { $0 <= beat }!
            let settings = program.sections[section].settings
            let local = beat - firstBeats[section]
            let offset = settings.meter.barLength * Rational(local / settings.beatsPerBar)
                + settings.beatUnit.wholeNotes * Rational(local % settings.beatsPerBar)
            return (section, try exact(sectionStarts[section].plus(offset), "beat \(beat)"))
        }
    }

    /// The count-in's bars (beats only, straight, at the first section's tempo) and its
    /// segment; returns where bar 1 starts, in whole notes and in seconds.
    private mutating func layOutCountIn(_ program: MetronomeProgram) throws(MetronomeError) -> (position: Rational, time: Rational) {
        let first = program.sections[0].settings
        guard program.countInBars > 0 else { return (Rational(0), Rational(0)) }
        var countIn = first
        countIn.subdivisions = [:]
        countIn.swing = Rational(1, 2)
        let pattern = PatternClick.bar(of: countIn)
        let length = try exact(first.meter.barLength.times(Rational(program.countInBars)), "the count-in")
        for bar in 0..<program.countInBars {
            bars.append(Bar(number: bar + 1 - program.countInBars, section: 0,
                            start: first.meter.barLength * Rational(bar), pattern: pattern))
        }
        let segment = try TempoSegment(start: Rational(0), end: length, startTime: Rational(0), tempo: first.tempo,
                                       endTempo: first.tempo, unit: first.beatUnit.wholeNotes, what: "the count-in")
        segments.append(segment)
        return (length, try segment.endTime())
    }

    /// Period steps by section, and the phase-shifted beats with the beat before each; the
    /// phase shifts are added up by position into `shifts`.
    private mutating func placePerturbations(_ program: MetronomeProgram, _ beats: BeatMap) throws(MetronomeError)
        -> (steps: [Int: [Step]], shiftedBeats: [ShiftedBeat]) {
        let first = program.sections[0].settings
        var steps: [Int: [Step]] = [:]
        var shiftedBeats: [ShiftedBeat] = []
        var shiftList: [(position: Rational, seconds: Rational)] = []
        for perturbation in program.perturbations {
            switch perturbation {
            case .phaseShift(let beat, let milliseconds):
                let position = try beats.position(of: beat, "phase shift").position
                shiftList.append((position, milliseconds / Rational(1_000)))
                // The beat before it: the previous program beat, or the count-in's last.
                if beat > 1 {
                    shiftedBeats.append((beat, milliseconds, position, try beats.position(of: beat - 1, "phase shift").position))
                } else if program.countInBars > 0 {
                    let last = first.meter.barLength * Rational(program.countInBars - 1)
                        + first.beatUnit.wholeNotes * Rational(first.beatsPerBar - 1)
                    shiftedBeats.append((beat, milliseconds, position, last))
                }
            case .periodStep(let beat, let tempo):
                let (section, at) = try beats.position(of: beat, "period step")
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
        return (steps, shiftedBeats)
    }

    /// Each section's bars and tempo segments: a ramp is one segment, a steady section one
    /// per period step (each piece runs at the tempo of the step that starts it).
    private mutating func layOutSections(_ program: MetronomeProgram, _ beats: BeatMap, steps: [Int: [Step]],
                                         from startTime: Rational) throws(MetronomeError) {
        var time = startTime
        for (index, section) in program.sections.enumerated() {
            let settings = section.settings, unit = settings.beatUnit.wholeNotes
            let what = "section \(index + 1)"
            let start = beats.sectionStarts[index]
            let end = index + 1 < beats.sectionStarts.count ? beats.sectionStarts[index + 1] : beats.end
            let pattern = PatternClick.bar(of: settings)
            for bar in 0..<section.bars {
                bars.append(Bar(number: bars.count + 1 - program.countInBars, section: index,
                                start: try exact(settings.meter.barLength.times(Rational(bar)).flatMap { start.plus($0) }, what),
                                pattern: pattern))
            }
            if let target = section.rampTo {
                let segment = try TempoSegment(start: start, end: end, startTime: time, tempo: settings.tempo,
                                               endTempo: target, unit: unit, what: what)
                segments.append(segment)
                time = try segment.endTime()
                continue
            }
            var pieces: [Step] = [(start, settings.tempo)]
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
    }

    /// A phase shift may shorten the interval before its beat, never reverse it.
    private func checkPhaseShifts(_ shiftedBeats: [ShiftedBeat]) throws(MetronomeError) {
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
