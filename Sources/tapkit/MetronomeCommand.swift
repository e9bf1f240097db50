import ArgumentParser
import Foundation
import TapAudio
import TapKit
import TapMetronome

/// `tapkit metronome`: exact click tracks for tapping experiments.
struct MetronomeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metronome",
        abstract: "Exact metronome click tracks and their onset lists.",
        subcommands: [MetronomeRenderCommand.self, MetronomePlayCommand.self])
}

struct MetronomeRenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a metronome or a program to an audio file, with the exact onset of every click.",
        discussion: """
            Every click's time is computed exactly (fractions of a whole note at an exact tempo; \
            the exact integral of a tempo ramp) and rounded to a frame once: beat k of a steady \
            metronome starts at frame round(k × 60 / BPM × rate), however long it runs. The onset \
            list (CSV: time, frame, bar, beat, subdivision_step, subdivision_of, kind, played) is the ground truth for \
            asynchrony analysis. Either give the settings as options, or a program file with \
            --program (sections, ramps, perturbations: see the metronome documentation). Both files are \
            written to temporary names and renamed at the end, so a failure never leaves half a file.
            """)

    @OptionGroup var settingsOptions: MetronomeSettingsOptions

    @Option(help: "A program file (sections, ramps, count-in, perturbations, jitter); replaces the settings options.")
    var program: String?

    @Option(help: "Bars to render, 1–1000000.")
    var bars: Int?

    @Option(help: "Bars of count-in (beats only) before the first bar.") var countIn = 0
    @Option(help: "Ramp the tempo linearly in time to this BPM by the end of the last bar.") var rampTo: String?
    @Option(help: "Bars to mute (scheduled, not played): 3,5-8.") var muteBars: String?
    @Option(help: "Synchronization–continuation: the last beat that plays; later clicks are silent.") var silentAfter: Int?
    @Option(help: "Phase shift BEAT:MS, e.g. 20:50 (every click from beat 20 on, 50 ms later); repeatable.")
    var phaseShift: [String] = []
    @Option(help: "Period step BEAT:BPM, e.g. 30:100 (tempo 100 from beat 30 on); repeatable.")
    var periodStep: [String] = []
    @Option(help: "Jitter every click by up to this many ms (uniform) or with this SD (normal).") var jitter: String?
    @Option(help: "uniform or normal.") var jitterDistribution = "uniform"
    @Option(help: "Seed of the jitter.") var jitterSeed: UInt64 = 1

    @Option(help: "Sample rate of the output.")
    var rate = 48_000

    @OptionGroup var soundOptions: ClickSoundOptions

    @Option(name: .shortAndLong, help: "The audio file (format from its extension: wav, flac, aiff, ogg).")
    var output: String

    @Option(help: "The onset list (CSV).")
    var onsets: String?

    @Flag(help: "Write 32-bit float WAV.")
    var float = false

    @Flag(help: "Replace the output files if they exist.")
    var overwrite = false

    func validate() throws {
        guard AudioFileFormat(pathExtension: output) != nil else {
            throw ValidationError("\(output): unknown output format; use .wav, .flac, .aiff or .ogg")
        }
        guard !float || AudioFileFormat(pathExtension: output) == .wav16 else { throw ValidationError("--float needs a .wav output") }
        if program != nil {
            let given = settingsOptions.given + [("--bars", bars != nil), ("--count-in", countIn != 0), ("--ramp-to", rampTo != nil),
                                                 ("--mute-bars", muteBars != nil), ("--silent-after", silentAfter != nil),
                                                 ("--phase-shift", !phaseShift.isEmpty), ("--period-step", !periodStep.isEmpty),
                                                 ("--jitter", jitter != nil)]
            if let option = given.first(where: \.1) { throw ValidationError("\(option.0) cannot be combined with --program; set it in the program file") }
            return
        }
        guard settingsOptions.bpm != nil else { throw ValidationError("give --bpm (or a --program)") }
        guard let bars else { throw ValidationError("give --bars (or a --program)") }
        guard (1...1_000_000).contains(bars) else { throw ValidationError("--bars \(bars) is out of range (1–1000000)") }
    }

    /// The program the options describe, or a usage error naming the option.
    func makeProgram() throws -> MetronomeProgram {
        let settings = try settingsOptions.settings()
        var section = MetronomeProgram.Section(settings: settings, bars: bars ?? 1)
        if let rampTo {
            guard let target = Rational(rampTo) else { throw ValidationError("--ramp-to '\(rampTo)' is not a number") }
            section.rampTo = target
        }
        var program = MetronomeProgram(sections: [section])
        program.countInBars = countIn
        program.silentAfterBeat = silentAfter
        for item in (muteBars ?? "").split(separator: ",") {
            guard let range = barRange(item) else { throw ValidationError("--mute-bars: '\(item)' is not a bar or a range of bars (5-8)") }
            guard range.upperBound <= bars ?? 1 else { throw ValidationError("--mute-bars: bar \(range.upperBound) is beyond the \(bars ?? 1) bars") }
            program.mutedBars.formUnion(range)
        }
        func pair(_ text: String, _ option: String) throws -> (Int, Rational) {
            let parts = text.split(separator: ":")
            guard parts.count == 2, let beat = Int(parts[0]), let value = Rational(parts[1]) else {
                throw ValidationError("\(option) '\(text)' is not BEAT:VALUE (20:50)")
            }
            return (beat, value)
        }
        for text in phaseShift {
            let (beat, value) = try pair(text, "--phase-shift")
            program.perturbations.append(.phaseShift(beat: beat, milliseconds: value))
        }
        for text in periodStep {
            let (beat, value) = try pair(text, "--period-step")
            program.perturbations.append(.periodStep(beat: beat, tempo: value))
        }
        if let jitter {
            guard let amount = Rational(jitter) else { throw ValidationError("--jitter '\(jitter)' is not a number of milliseconds") }
            guard let distribution = MetronomeProgram.Jitter.Distribution(rawValue: jitterDistribution) else {
                throw ValidationError("--jitter-distribution '\(jitterDistribution)' is not uniform or normal")
            }
            program.jitter = .init(milliseconds: amount, distribution: distribution, seed: jitterSeed)
        }
        return program
    }

    func run() throws {
        let program: MetronomeProgram
        do {
            if let path = self.program { program = try MetronomeProgram(contentsOfFile: path) } else { program = try makeProgram() }
        } catch let error as ValidationError {
            printError("error: \(error.message)")
            throw ExitCode(2)
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        let schedule: ProgramSchedule
        do { schedule = try ProgramSchedule(program, sampleRate: rate) } catch {
            // A value out of range is a usage error, as in a program file.
            printError("error: \(error)")
            throw ExitCode(2)
        }
        let outputs = [output] + (onsets.map { [$0] } ?? [])
        var files = AtomicOutput(overwrite: overwrite, inputs: [self.program, soundOptions.accentSound, soundOptions.beatSound,
                                                                soundOptions.subdivisionSound].compactMap { $0 })
        do { try files.check(outputs) } catch {
            printError("error: \(error)")
            throw ExitCode(1)
        }
        // SIGINT, SIGTERM and SIGHUP remove the temporaries and end with status 1.
        let interruption = PendingTemporaries.shared.removeOnInterruption(outputs: outputs)
        defer { interruption.cancel() }
        do {
            let sounds = try soundOptions.sounds(sampleRate: rate)
            let lastClick = schedule.clicks.last?.frame ?? 0
            var renderer = ClickRenderer(clicks: schedule.clicks, sounds: sounds,
                                         frameCount: max(0, max(schedule.endFrame, lastClick + 1)) + sounds.longest)

            let audioTemporary = try files.temporaryPath(for: output)
            let format = float ? .wavFloat : AudioFileFormat(pathExtension: output)!
            let writer = try AudioFileWriter(path: audioTemporary, format: format, sampleRate: Double(rate), channelCount: 1,
                                             expectedFrames: renderer.frameCount)
            var block = [Float](repeating: 0, count: 65_536)
            for start in stride(from: 0, to: renderer.frameCount, by: block.count) {
                let count = min(block.count, renderer.frameCount - start)
                try block.withUnsafeMutableBufferPointer { buffer throws(AudioError) in
                    let part = UnsafeMutableBufferPointer(rebasing: buffer[0..<count])
                    renderer.render(into: part, from: start)
                    try writer.write(interleaved: UnsafeBufferPointer(part))
                }
            }
            try writer.close()
            if let onsets {
                try onsetTable(schedule.clicks).write(toFile: try files.temporaryPath(for: onsets), atomically: false, encoding: .utf8)
            }
            try PendingTemporaries.shared.committing { try files.commit() }
        } catch {
            files.discard()
            printError("error: " + PendingTemporaries.shared.message(for: error, outputs: outputs))
            throw ExitCode(1)
        }
    }

    /// The onset list: time (seconds, 9 decimals), frame, bar, beat, subdivision, kind, played.
    func onsetTable(_ clicks: [ClickEvent]) -> String {
        // The subdivision as two integers: a label `1/2` is read as a date by spreadsheets.
        var text = "time,frame,bar,beat,subdivision_step,subdivision_of,kind,played\n"
        for click in clicks {
            text += String(format: "%.9f", click.time)
                + ",\(click.frame),\(click.bar),\(click.beat),\(click.step),\(click.of),\(click.kind.rawValue),\(click.played)\n"
        }
        return text
    }
}
