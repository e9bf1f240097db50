import ArgumentParser
import Foundation
import TapKit
import TapSim

struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Write a simulated Tap-It data folder with its ground truth (truth.json).",
        discussion: """
            Simulates participants tapping to a metronome on a touch screen: tap sounds with varied \
            attack and timbre at the chosen SNRs, background noise, mains hum, metronome bleed, \
            knocks and coughs, silent taps, missed and spurious touches, and touch timestamps late \
            by about 15 ± 5 ms on audio-buffer boundaries. The same seed gives the same files, bit \
            for bit. The accuracy documentation describes the models.
            """)

    @Argument(help: "Output folder (created if needed; an existing one must be empty unless --overwrite).")
    var folder: String

    @Flag(help: "Write into a folder that already holds files, replacing those with the same names.")
    var overwrite = false

    @Option(help: "Participants (users), numbered from 1.")
    var sessions = 1

    @Option(help: "Tasks (tracks) per participant.")
    var tasks = 2

    @Option(help: "Seed of every random choice.")
    var seed: UInt64 = 1

    @Option(help: "The recording conditions: tapit (Tap-It's), clean or hard. (Not an onset --preset.)")
    var scenario = "tapit"

    @Option(help: "Length of each task, seconds.", transform: strictDecimal)
    var duration: Double?

    @Option(help: "Lowest tap SNR, dB.", transform: strictDecimal)
    var snrMin: Double?

    @Option(help: "Highest tap SNR, dB.", transform: strictDecimal)
    var snrMax: Double?

    @Option(help: "Channels of the recordings, each a copy of the microphone (Tap-It wrote 2).")
    var channels: Int?

    @Option(help: "Audio format: wav16, wav24, wavFloat, flac16 or flac24.")
    var audioFormat = "wav16"

    func run() throws {
        var configuration: SimulationConfiguration
        switch scenario.lowercased() {
        case "tapit", "tap-it", "default": configuration = .tapIt
        case "clean": configuration = .clean
        case "hard": configuration = .hard
        default: throw ValidationError("unknown scenario '\(scenario)'; choose tapit, clean or hard")
        }
        if let duration { configuration.taskDuration = duration }
        if let channels { configuration.channels = channels }
        if snrMin != nil || snrMax != nil {
            let low = snrMin ?? configuration.snrRange.lowerBound, high = snrMax ?? configuration.snrRange.upperBound
            guard low <= high else { throw ValidationError("--snr-min must not exceed --snr-max") }
            configuration.snrRange = low...high
        }
        do { try configuration.validate() } catch { throw ValidationError("invalid simulation setting: \(error)") }
        guard sessions >= 1, tasks >= 1 else { throw ValidationError("--sessions and --tasks must be at least 1") }
        guard let format = AudioFileFormat(rawValue: audioFormat),
              [.wav16, .wav24, .wavFloat, .flac16, .flac24].contains(format) else {
            throw ValidationError("unknown --audio-format '\(audioFormat)'")
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                printError("error: \(folder): is a file; the simulation writes a folder")
                throw ExitCode(1)
            }
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            if !entries.isEmpty && !overwrite {
                printError("error: \(folder): holds \(entries.count) file(s) already; give --overwrite to write the simulation among them, or choose an empty folder")
                throw ExitCode(1)
            }
        }
        try writeSimulatedSession(to: folder, users: sessions, tasksPerUser: tasks, configuration: configuration,
                                  seed: seed, format: format)
        printError("wrote \(sessions * tasks) task(s) and \(SimulationTruthDocument.fileName) to \(folder)")
    }
}
