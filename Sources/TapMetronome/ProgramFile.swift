import Foundation
import TapData

/// The program file format: one directive per line, `#` starts a comment. Settings lines
/// (`tempo`, `meter`, `beat-unit`, `subdivide`, volumes, `swing`) change the settings that the
/// following `bars` lines play; program lines (`count-in`, `mute`, `silent-after`,
/// `phase-shift`, `period-step`, `jitter`) may stand anywhere. Docs/metronome.md describes
/// every directive.
extension MetronomeProgram {
    /// Reads a program file; errors name the file, line and column.
    public init(contentsOfFile path: String) throws(MetronomeError) {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw .program(path: path, line: 0, column: 0, message: "cannot read: \(error.localizedDescription)")
        }
        try self.init(parsing: text, path: path)
    }

    /// Parses program text; `path` names it in errors.
    public init(parsing text: String, path: String) throws(MetronomeError) {
        var parser = ProgramParser(path: path)
        // "\r\n" is one Character in Swift, so Windows line ends need naming.
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            try parser.read(line, number: index + 1)
        }
        self = try parser.finish()
    }
}

/// A word of a line, with the line and the column it starts at (both 1-based).
private struct Token {
    let text: Substring
    let line: Int
    let column: Int
}

private struct ProgramParser {
    let path: String
    var settings: MetronomeSettings?
    var tempo: Rational?
    var meter = Meter(4, 4)!
    var beatUnit: NoteValue?
    var subdivisions: [Int] = []
    var subdivisionVolumes: [Float] = []
    var volumes: [String: Float] = [:]
    var swing = Rational(1, 2)
    var program = MetronomeProgram(sections: [])
    /// Line of each section and each perturbation, for errors found once all is read.
    var sectionLines: [Int] = []
    var perturbationTokens: [(line: Int, column: Int)] = []
    var silentAfterToken: (line: Int, column: Int)?
    var mutedTokens: [(bars: ClosedRange<Int>, line: Int, column: Int)] = []
    var countInSeen = false
    var lastSettingsLine: (line: Int, column: Int)?

    init(path: String) { self.path = path }

    func error(_ line: Int, _ column: Int, _ message: String) -> MetronomeError {
        .program(path: path, line: line, column: column, message: message)
    }

    func error(at token: Token, _ message: String) -> MetronomeError {
        error(token.line, token.column, message)
    }

    /// Reads one line: its first word names the directive, the rest are its arguments.
    mutating func read(_ text: Substring, number line: Int) throws(MetronomeError) {
        let tokens = Self.tokens(of: text, line: line)
        guard let directive = tokens.first else { return }
        let arguments = Array(tokens.dropFirst())
        switch directive.text {
        case "bars": try readBars(directive, arguments)
        case "count-in": try readCountIn(directive, arguments)
        case "mute": try readMute(directive, arguments)
        case "silent-after": try readSilentAfter(directive, arguments)
        case "phase-shift": try readPhaseShift(directive, arguments)
        case "period-step": try readPeriodStep(directive, arguments)
        case "jitter": try readJitter(directive, arguments)
        default:
            guard try readSetting(directive, arguments) else { throw error(at: directive, "unknown directive '\(directive.text)'") }
            lastSettingsLine = (line, directive.column)
        }
    }

    /// The words of a line before any `#`, split at spaces, tabs and carriage returns.
    private static func tokens(of text: Substring, line: Int) -> [Token] {
        let content = text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        var tokens: [Token] = []
        var column = 1, start: Substring.Index?, startColumn = 0
        for index in content.indices {
            if content[index] == " " || content[index] == "\t" || content[index] == "\r" {
                if let begin = start { tokens.append(Token(text: content[begin..<index], line: line, column: startColumn)) }
                start = nil
            } else if start == nil {
                start = index
                startColumn = column
            }
            column += 1
        }
        if let begin = start { tokens.append(Token(text: content[begin...], line: line, column: startColumn)) }
        return tokens
    }

    // MARK: Token helpers

    /// The directive takes `count` arguments; an error at the first one too many, or just after
    /// the directive if too few.
    func need(_ count: ClosedRange<Int>, _ usage: String, _ directive: Token, _ arguments: [Token]) throws(MetronomeError) {
        guard count.contains(arguments.count) else {
            let at = arguments.count > count.upperBound ? arguments[count.upperBound].column : directive.column + directive.text.count
            throw error(directive.line, at, "\(directive.text) takes \(usage)")
        }
    }

    func rational(_ token: Token, _ what: String) throws(MetronomeError) -> Rational {
        guard let value = Rational(token.text) else { throw error(at: token, "\(what) '\(token.text)' is not a number (120, 120.5 or 241/2)") }
        return value
    }

    func integer(_ token: Token, _ what: String, _ range: ClosedRange<Int>) throws(MetronomeError) -> Int {
        guard let value = NumberGrammar.integer(token.text), range.contains(value) else {
            throw error(at: token, "\(what) '\(token.text)' is not a whole number in \(range.lowerBound)–\(range.upperBound)")
        }
        return value
    }

    func volume(_ token: Token, _ what: String) throws(MetronomeError) -> Float {
        guard let value = NumberGrammar.decimal(token.text).map(Float.init), (0...1).contains(value) else { throw error(at: token, "\(what) '\(token.text)' is not a volume in 0–1") }
        return value
    }

    /// The items of a comma-separated token, each with its column (empty items included).
    static func list(_ token: Token) -> [Token] {
        var column = token.column, items: [Token] = []
        for item in token.text.split(separator: ",", omittingEmptySubsequences: false) {
            items.append(Token(text: item, line: token.line, column: column))
            column += item.count + 1
        }
        return items
    }

    // MARK: Settings directives

    /// A settings directive changes the settings that the following `bars` lines play; false if
    /// the directive is none of them.
    mutating func readSetting(_ directive: Token, _ arguments: [Token]) throws(MetronomeError) -> Bool {
        switch directive.text {
        case "tempo":
            try need(1...1, "one tempo in beat units per minute", directive, arguments)
            tempo = try rational(arguments[0], "tempo")
        case "meter":
            try need(1...1, "one time signature n/d", directive, arguments)
            guard let value = Meter(arguments[0].text) else { throw error(at: arguments[0], "meter '\(arguments[0].text)' is not n/d with n and d in 1–99") }
            meter = value
            beatUnit = nil
        case "beat-unit":
            try need(1...1, "one note value (4, 4., 12)", directive, arguments)
            guard let value = NoteValue(arguments[0].text) else {
                throw error(at: arguments[0], "beat unit '\(arguments[0].text)' is not a note value (1–99, up to two dots: 4, 4., 12)")
            }
            beatUnit = value
        case "subdivide":
            try readSubdivide(directive, arguments)
        case "subdivision-volumes":
            try readSubdivisionVolumes(directive, arguments)
        case "accent-volume", "beat-volume", "subdivision-volume", "master-volume":
            try need(1...1, "one volume 0–1", directive, arguments)
            volumes[String(directive.text)] = try volume(arguments[0], String(directive.text))
        case "swing":
            try need(1...1, "where the half-beat falls, 1/2–3/4 of a beat", directive, arguments)
            swing = try rational(arguments[0], "swing")
            guard swing >= Rational(1, 2), swing <= Rational(3, 4) else { throw error(at: arguments[0], "swing \(swing) is not in 1/2–3/4") }
        default:
            return false
        }
        return true
    }

    /// `subdivide 2,3` or `subdivide none`; the subdivision volumes start again.
    mutating func readSubdivide(_ directive: Token, _ arguments: [Token]) throws(MetronomeError) {
        try need(1...1, "a comma-separated list of subdivisions 2–9, or none", directive, arguments)
        subdivisions = []
        if arguments[0].text != "none" {
            for item in Self.list(arguments[0]) {
                guard let value = NumberGrammar.integer(item.text), (2...9).contains(value) else { throw error(at: item, "subdivision '\(item.text)' is not in 2–9") }
                subdivisions.append(value)
            }
        }
        subdivisionVolumes = []
    }

    /// One volume per subdivision of the last `subdivide`.
    mutating func readSubdivisionVolumes(_ directive: Token, _ arguments: [Token]) throws(MetronomeError) {
        try need(1...1, "a comma-separated list of volumes 0–1, one per subdivision", directive, arguments)
        subdivisionVolumes = []
        for item in Self.list(arguments[0]) {
            guard let value = NumberGrammar.decimal(item.text).map(Float.init), (0...1).contains(value) else { throw error(at: item, "volume '\(item.text)' is not in 0–1") }
            subdivisionVolumes.append(value)
        }
        guard subdivisionVolumes.count == subdivisions.count else {
            throw error(at: arguments[0], "\(subdivisionVolumes.count) volumes for \(subdivisions.count) subdivisions")
        }
    }

    // MARK: Sections

    /// `bars N [ramp-to TEMPO] [silent]`: a section played with the settings as they stand.
    mutating func readBars(_ directive: Token, _ arguments: [Token]) throws(MetronomeError) {
        try need(1...4, "a number of bars, then optionally ramp-to TEMPO and silent", directive, arguments)
        let settings = try currentSettings(for: directive)
        var section = MetronomeProgram.Section(settings: settings, bars: try integer(arguments[0], "bars", 1...1_000_000))
        var index = 1
        while index < arguments.count {
            switch arguments[index].text {
            case "ramp-to" where section.rampTo != nil, "silent" where section.silent:
                throw error(at: arguments[index], "\(arguments[index].text) given twice")
            case "ramp-to" where index + 1 == arguments.count:
                throw error(at: arguments[index], "ramp-to needs a tempo")
            case "ramp-to":
                let target = try rational(arguments[index + 1], "ramp target")
                guard target >= Rational(1), target <= Rational(999) else { throw error(at: arguments[index + 1], "ramp target \(target) is not in 1–999 BPM") }
                section.rampTo = target
                // The next section starts where the ramp ends.
                tempo = target
                index += 2
            case "silent":
                section.silent = true
                index += 1
            default:
                throw error(at: arguments[index], "expected ramp-to TEMPO or silent, found '\(arguments[index].text)'")
            }
        }
        program.sections.append(section)
        sectionLines.append(directive.line)
        lastSettingsLine = nil
    }

    /// The settings read so far, validated; errors at the `bars` directive.
    func currentSettings(for directive: Token) throws(MetronomeError) -> MetronomeSettings {
        guard let tempo else { throw error(at: directive, "no tempo before the first bars") }
        var settings = MetronomeSettings(tempo: tempo, meter: meter, beatUnit: beatUnit)
        for (index, subdivision) in subdivisions.enumerated() {
            settings.subdivisions[subdivision] = subdivisionVolumes.isEmpty ? 1 : subdivisionVolumes[index]
        }
        settings.accentVolume = volumes["accent-volume"] ?? settings.accentVolume
        settings.beatVolume = volumes["beat-volume"] ?? settings.beatVolume
        settings.subdivisionVolume = volumes["subdivision-volume"] ?? settings.subdivisionVolume
        settings.masterVolume = volumes["master-volume"] ?? settings.masterVolume
        settings.swing = swing
        do { try settings.validate() } catch let problem { throw error(at: directive, problem.description) }
        return settings
    }

    // MARK: Program directives

    /// `count-in N`: bars of beats before bar 1, once.
    mutating func readCountIn(_ directive: Token, _ arguments: [Token]) throws(MetronomeError) {
        try need(1...1, "a number of bars", directive, arguments)
        guard !countInSeen else { throw error(at: directive, "a second count-in") }
        countInSeen = true
        program.countInBars = try integer(arguments[0], "count-in bars", 0...1_000)
    }

    /// `mute 3 5-8`: bars scheduled but not played, checked against the program at the end.
    mutating func readMute(_ directive: Token, _ arguments: [Token]) throws(MetronomeError) {
        try need(1...Int.max, "bar numbers or ranges (3 5-8)", directive, arguments)
        for argument in arguments {
            for item in Self.list(argument) {
                guard let bars = barRange(item.text) else { throw error(at: item, "'\(item.text)' is not a bar or a range of bars (5-8)") }
                mutedTokens.append((bars, item.line, item.column))
            }
        }
    }

    /// `silent-after BEAT`: the last beat that plays, once.
    mutating func readSilentAfter(_ directive: Token, _ arguments: [Token]) throws(MetronomeError) {
        try need(1...1, "the last beat that plays", directive, arguments)
        guard silentAfterToken == nil else { throw error(at: directive, "a second silent-after") }
        program.silentAfterBeat = try integer(arguments[0], "beat", 0...Int(Int32.max))
        silentAfterToken = (arguments[0].line, arguments[0].column)
    }

    /// `phase-shift BEAT MS`: that beat and every later click shifted.
    mutating func readPhaseShift(_ directive: Token, _ arguments: [Token]) throws(MetronomeError) {
        try need(2...2, "a beat and a shift in milliseconds", directive, arguments)
        let beat = try integer(arguments[0], "beat", 1...Int(Int32.max))
        let shift = try rational(arguments[1], "shift")
        guard shift >= Rational(-10_000), shift <= Rational(10_000) else { throw error(at: arguments[1], "shift \(shift) ms is not in −10000–10000 ms") }
        program.perturbations.append(.phaseShift(beat: beat, milliseconds: shift))
        perturbationTokens.append((arguments[0].line, arguments[0].column))
    }

    /// `period-step BEAT TEMPO [bpm|ms]`: a new tempo (or beat period) from that beat on.
    mutating func readPeriodStep(_ directive: Token, _ arguments: [Token]) throws(MetronomeError) {
        try need(2...3, "a beat, then a tempo (bpm) or a beat period (ms)", directive, arguments)
        let beat = try integer(arguments[0], "beat", 1...Int(Int32.max))
        var tempo = try rational(arguments[1], "tempo")
        if arguments.count == 3 {
            switch arguments[2].text {
            case "bpm": break
            case "ms":
                guard tempo >= Rational(60_000, 999), tempo <= Rational(60_000) else {
                    throw error(at: arguments[1], "period \(tempo) ms is not in 60000/999–60000 ms (999–1 BPM)")
                }
                tempo = Rational(60_000) / tempo
            default: throw error(at: arguments[2], "expected bpm or ms, found '\(arguments[2].text)'")
            }
        }
        guard tempo >= Rational(1), tempo <= Rational(999) else { throw error(at: arguments[1], "tempo \(tempo) is not in 1–999 BPM") }
        program.perturbations.append(.periodStep(beat: beat, tempo: tempo))
        perturbationTokens.append((arguments[0].line, arguments[0].column))
    }

    /// `jitter MS [uniform|normal] [seed N]`: every click moved at random, once.
    mutating func readJitter(_ directive: Token, _ arguments: [Token]) throws(MetronomeError) {
        try need(1...4, "milliseconds, then optionally uniform or normal, and seed N", directive, arguments)
        guard program.jitter == nil else { throw error(at: directive, "a second jitter") }
        let amount = try rational(arguments[0], "jitter")
        guard amount >= Rational(0), amount <= Rational(1_000) else { throw error(at: arguments[0], "jitter \(amount) ms is not in 0–1000 ms") }
        var jitter = MetronomeProgram.Jitter(milliseconds: amount, seed: 1)
        var index = 1
        while index < arguments.count {
            if let distribution = MetronomeProgram.Jitter.Distribution(rawValue: String(arguments[index].text)) {
                jitter.distribution = distribution
                index += 1
            } else if arguments[index].text == "seed", index + 1 < arguments.count {
                guard arguments[index + 1].text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let seed = UInt64(arguments[index + 1].text) else {
                    throw error(at: arguments[index + 1], "seed '\(arguments[index + 1].text)' is not a whole number ≥ 0")
                }
                jitter.seed = seed
                index += 2
            } else {
                throw error(at: arguments[index], "expected uniform, normal or seed N, found '\(arguments[index].text)'")
            }
        }
        program.jitter = jitter
    }

    /// Checks what needs the whole program: beats and bars within it, no period step in a ramp.
    mutating func finish() throws(MetronomeError) -> MetronomeProgram {
        guard !program.sections.isEmpty else { throw error(1, 1, "no bars: a program needs at least one `bars` line") }
        if let at = lastSettingsLine { throw error(at.line, at.column, "settings after the last bars line have no effect") }
        var firstBeats: [Int] = [], beat = 1
        for section in program.sections {
            firstBeats.append(beat)
            beat += section.bars * section.settings.beatsPerBar
        }
        let totalBeats = beat - 1, totalBars = program.sections.reduce(0) { $0 + $1.bars }
        // Every beat is at least one click: a program past the click limit is refused here, at
        // the bars line that passes it, before muted bars are expanded or any click is built.
        var beats = 0
        for (section, line) in zip(program.sections, sectionLines) {
            beats += section.bars * section.settings.beatsPerBar
            if beats > ProgramSchedule.maximumClicks {
                throw error(line, 1, "the program has \(beats) beats by this line, more than the \(ProgramSchedule.maximumClicks) clicks a program may have")
            }
        }
        for (perturbation, at) in zip(program.perturbations, perturbationTokens) {
            guard perturbation.beat <= totalBeats else { throw error(at.line, at.column, "beat \(perturbation.beat) is beyond the program's \(totalBeats) beats") }
            if case .periodStep = perturbation, program.sections[firstBeats.lastIndex { $0 <= perturbation.beat }!].rampTo != nil {
                throw error(at.line, at.column, "beat \(perturbation.beat) is inside a tempo ramp; a period step needs a steady section")
            }
        }
        if let at = silentAfterToken, let last = program.silentAfterBeat, last > totalBeats {
            throw error(at.line, at.column, "beat \(last) is beyond the program's \(totalBeats) beats")
        }
        for muted in mutedTokens {
            guard muted.bars.upperBound <= totalBars else { throw error(muted.line, muted.column, "bar \(muted.bars.upperBound) is beyond the program's \(totalBars) bars") }
            program.mutedBars.formUnion(muted.bars)
        }
        try checkTiming()
        return program
    }

    /// Lays the program out in time (as rendering will, at any rate) so that what only the
    /// timing shows is reported at its line: a phase shift that would reverse the interval
    /// before its beat, the 48-hour and click limits, fractions beyond 64 bits.
    func checkTiming() throws(MetronomeError) {
        let lastBars = sectionLines.last ?? 1
        do {
            let layout = try ProgramLayout(program)
            try ProgramSchedule.checkSize(program, layout)
        } catch .outOfRange(let what, let value, let range) {
            for (perturbation, at) in zip(program.perturbations, perturbationTokens) {
                if case .phaseShift(let beat, _) = perturbation, what == "phase shift at beat \(beat)" {
                    throw error(at.line, at.column, "\(what): \(value) is out of range (\(range))")
                }
            }
            throw error(lastBars, 1, "the program up to here: \(what) \(value) is out of range (\(range))")
        } catch let problem {
            throw error(lastBars, 1, "the program up to here: \(problem)")
        }
    }
}

/// `5` or `5-8`: program bars (from 1).
public func barRange(_ text: some StringProtocol) -> ClosedRange<Int>? {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), let first = NumberGrammar.integer(parts[0]), let last = NumberGrammar.integer(parts[parts.count - 1]), 1 <= first, first <= last else { return nil }
    return first...last
}
