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
        subcommands: [MetronomeRenderCommand.self])
}

struct MetronomeRenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a metronome to an audio file, with the exact onset of every click.",
        discussion: """
            Every click's time is computed exactly (fractions of a whole note at an exact tempo) \
            and rounded to a frame once: beat k of a steady metronome starts at frame \
            round(k × 60 / BPM × rate), however long it runs. The onset list (CSV: time, frame, \
            bar, beat, subdivision, kind, played) is the ground truth for asynchrony analysis. \
            Both files are written to temporary names and renamed at the end, so a failure never \
            leaves half a file.
            """)

    @Option(help: "Tempo in beat units per minute, 1–999 (decimals and fractions are exact: 120.5, 241/2).")
    var bpm: String

    @Option(help: "Time signature n/d, both 1–99.")
    var meter = "4/4"

    @Option(help: "The beat unit as a note value: 4 (quarter), 4. (dotted quarter), 12 (triplet eighth); default 1/d of the meter.")
    var beatUnit: String?

    @Option(help: "Subdivisions of each beat, 2–9, comma separated (several at once: 2,3).")
    var subdivide: String?

    @Option(help: "Volume of each subdivision, 0–1, in the order of --subdivide (default 1).")
    var subdivisionVolumes: String?

    @Option(help: "Accent (first beat) volume, 0–1.") var accentVolume: Float = 1
    @Option(help: "Beat volume, 0–1.") var beatVolume: Float = 0.8
    @Option(help: "Subdivision volume, 0–1.") var subdivisionVolume: Float = 0.6
    @Option(help: "Master volume, 0–1.") var masterVolume: Float = 1

    @Option(help: "Bars to render, 1–1000000.")
    var bars: Int

    @Option(help: "Sample rate of the output.")
    var rate = 48_000

    @Option(help: "Sound file for accents (any format TapAudio reads).") var accentSound: String?
    @Option(help: "Sound file for beats.") var beatSound: String?
    @Option(help: "Sound file for subdivisions.") var subdivisionSound: String?

    @Option(name: .shortAndLong, help: "The audio file (format from its extension: wav, flac, aiff, ogg).")
    var output: String

    @Option(help: "The onset list (CSV).")
    var onsets: String?

    @Flag(help: "Write 32-bit float WAV.")
    var float = false

    func validate() throws {
        guard AudioFileFormat(pathExtension: output) != nil else {
            throw ValidationError("\(output): unknown output format; use .wav, .flac, .aiff or .ogg")
        }
        guard !float || AudioFileFormat(pathExtension: output) == .wav16 else { throw ValidationError("--float needs a .wav output") }
        guard (1...1_000_000).contains(bars) else { throw ValidationError("--bars \(bars) is out of range (1–1000000)") }
    }

    /// The settings the options describe, or a usage error naming the option.
    func settings() throws -> MetronomeSettings {
        guard let tempo = Rational(bpm) else { throw ValidationError("--bpm '\(bpm)' is not a number (120, 120.5 or 241/2)") }
        guard let meter = Meter(self.meter) else { throw ValidationError("--meter '\(self.meter)' is not n/d with n and d in 1–99") }
        var unit: NoteValue?
        if let beatUnit {
            guard let value = NoteValue(beatUnit) else {
                throw ValidationError("--beat-unit '\(beatUnit)' is not a note value (1–99, up to two dots: 4, 4., 12)")
            }
            unit = value
        }
        var settings = MetronomeSettings(tempo: tempo, meter: meter, beatUnit: unit)
        let divisions = try list(subdivide, option: "--subdivide") { Int($0) }
        let volumes = try list(subdivisionVolumes, option: "--subdivision-volumes") { Float($0) }
        guard volumes.isEmpty || volumes.count == divisions.count else {
            throw ValidationError("--subdivision-volumes has \(volumes.count) values for \(divisions.count) subdivisions")
        }
        for (index, division) in divisions.enumerated() { settings.subdivisions[division] = volumes.isEmpty ? 1 : volumes[index] }
        settings.accentVolume = accentVolume
        settings.beatVolume = beatVolume
        settings.subdivisionVolume = subdivisionVolume
        settings.masterVolume = masterVolume
        return settings
    }

    private func list<T>(_ text: String?, option: String, _ parse: (String) -> T?) throws -> [T] {
        guard let text else { return [] }
        return try text.split(separator: ",").map { item in
            guard let value = parse(item.trimmingCharacters(in: .whitespaces)) else {
                throw ValidationError("\(option): '\(item)' is not a number")
            }
            return value
        }
    }

    func run() throws {
        let settings: MetronomeSettings
        do { settings = try self.settings() } catch let error as ValidationError {
            printError("error: \(error.message)")
            throw ExitCode(2)
        }
        var files = AtomicOutput()
        do {
            let schedule = try ClickSchedule(settings, sampleRate: rate)
            var sounds = ClickSounds.builtIn(sampleRate: rate)
            if let accentSound { sounds.accent = try ClickSounds.load(accentSound, sampleRate: rate) }
            if let beatSound { sounds.beat = try ClickSounds.load(beatSound, sampleRate: rate) }
            if let subdivisionSound { sounds.subdivision = try ClickSounds.load(subdivisionSound, sampleRate: rate) }
            let clicks = schedule.clicks(inBars: 0..<bars)
            var renderer = ClickRenderer(clicks: clicks, sounds: sounds, frameCount: schedule.frame(ofBar: bars) + sounds.longest)

            let audioTemporary = files.temporaryPath(for: output)
            let format = float ? .wavFloat : AudioFileFormat(pathExtension: output)!
            let writer = try AudioFileWriter(path: audioTemporary, format: format, sampleRate: Double(rate), channelCount: 1)
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
                try onsetTable(clicks).write(toFile: files.temporaryPath(for: onsets), atomically: false, encoding: .utf8)
            }
            try files.commit()
        } catch {
            files.discard()
            printError("error: \(error)")
            throw ExitCode(1)
        }
    }

    /// The onset list: exact time (seconds, 9 decimals), frame, bar, beat, subdivision, kind, played.
    func onsetTable(_ clicks: [ClickEvent]) -> String {
        var text = "time,frame,bar,beat,subdivision,kind,played\n"
        for click in clicks {
            text += String(format: "%.9f", click.time)
                + ",\(click.frame),\(click.bar),\(click.beat),\(click.subdivisionLabel),\(click.kind.rawValue),\(click.played)\n"
        }
        return text
    }
}
