import ArgumentParser
import Foundation
import TapInput
import TapKit
import TapTempo
#if canImport(Glibc)
import Glibc
#endif

/// `tapkit tempo`: tap tempo, live from the keyboard or from a file of taps.
struct TempoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tempo",
        abstract: "Tap tempo: the tempo of taps from the keyboard, a file of tap times, or a recording.",
        discussion: """
            Without --from or --from-audio, every key is a tap (r resets, q quits) and a live \
            line on stderr shows the tempo; the last reading goes to stdout at the end as key=value \
            lines (bpm=, empty without a reading; taps_used=; confidence=). With \
            --from FILE (one time in seconds per line, as Tap-It's .txt files) or --from-audio \
            FILE (tap onsets found by TapOnsets), the reading after every tap is printed. The \
            estimator is TapKit's (see the tap-tempo documentation) unless --estimator says otherwise.
            """)

    @Option(help: "A file of tap times in seconds, one per line (Tap-It .txt files included).")
    var from: String?

    @Option(help: "A recording: its tap onsets are the taps.")
    var fromAudio: String?

    @Option(help: "Output format for --from and --from-audio: table, csv or json.")
    var format = OutputFormat.table

    @Option(help: "tapkit, classic, median or interquartile-mean.")
    var estimator = "tapkit"

    @OptionGroup var provenanceOption: ProvenanceOption

    @Option(help: "Slowest tempo considered, BPM (1–999).", transform: strictDecimal) var minBpm = 30.0
    @Option(help: "Fastest tempo considered, BPM (1–999).", transform: strictDecimal) var maxBpm = 300.0
    @Option(help: "The tapper's timer SD as a fraction of the period, as TapKit's estimator assumes it (0.001–0.2).", transform: strictDecimal) var timerCv = 0.03
    @Option(help: "The tapper's motor SD in seconds, as TapKit's estimator assumes it (0–0.1).", transform: strictDecimal) var motorSd = 0.008

    func validate() throws {
        guard from == nil || fromAudio == nil else { throw ValidationError("give --from or --from-audio, not both") }
        guard (1...999).contains(minBpm), (1...999).contains(maxBpm), minBpm < maxBpm else {
            throw ValidationError("--min-bpm and --max-bpm must lie within 1–999, the minimum below the maximum")
        }
        guard (0.001...0.2).contains(timerCv), (0...0.1).contains(motorSd) else {
            throw ValidationError("--timer-cv must lie within 0.001–0.2 and --motor-sd within 0–0.1 s")
        }
        guard ["tapkit", "classic", "median", "interquartile-mean"].contains(estimator) else {
            throw ValidationError("--estimator '\(estimator)' is not tapkit, classic, median or interquartile-mean")
        }
    }

    func makeEstimator() -> any TapTempoEstimator {
        switch estimator {
        case "classic": return ClassicTapTempo()
        case "median": return IntervalTapTempo(.median)
        case "interquartile-mean": return IntervalTapTempo(.interquartileMean)
        default: return TapTempoTracker(minimumBPM: minBpm, maximumBPM: maxBpm, timerCV: timerCv, motorSD: motorSd)
        }
    }

    func run() throws {
        if from == nil && fromAudio == nil { return try runInteractive() }
        let inputs = [from, fromAudio].compactMap { $0 }
        try provenanceOption.check(inputs: inputs)
        let times: [Double]
        do { times = try tapTimes() } catch {
            printError("error: \(error)")
            throw ExitCode(1)
        }
        var tracker = makeEstimator()
        let rows = times.map { time in (time, withinRange(tracker.tap(at: time))) }
        print(try render(rows), terminator: format == .json ? "\n" : "")
        try provenanceOption.write(provenance(), inputs: inputs)
    }

    /// The `"tapkit"` block: the estimator, and with --from-audio the detector's settings
    /// (TapOnsets' defaults: standard preset, bleed cancelled, the mix of all channels).
    func provenance() -> Provenance {
        guard fromAudio != nil else { return Provenance(commandLine: CommandLine.arguments, estimator: estimator) }
        return Provenance(commandLine: CommandLine.arguments, preset: "standard",
                          thresholdDb: OnsetDetectorConfiguration.standard.thresholdDB,
                          bleed: BleedHandling.cancel.rawValue, channel: "mix", estimator: estimator)
    }

    /// The taps of --from or --from-audio, checked: at least two, strictly increasing.
    func tapTimes() throws -> [Double] {
        let source: String
        let times: [Double]
        if let from {
            source = from
            times = try TimestampFile.read(from)
            // Tap-It files may repeat a time (touches stamped per audio buffer); a tempo cannot.
            if let index = times.indices.dropFirst().first(where: { times[$0] == times[$0 - 1] }) {
                throw TempoInputError("\(from):\(index + 1): time \(times[index]) repeats the line before; taps must be strictly increasing")
            }
        } else {
            source = fromAudio!
            times = try detectTapOnsets(inFile: source).onsets.map(\.time)
        }
        guard !times.isEmpty else { throw TempoInputError("\(source): no taps") }
        guard times.count >= 2 else { throw TempoInputError("\(source): one tap; a tempo needs at least two") }
        return times
    }

    /// A reading outside --min-bpm…--max-bpm is no reading, whichever estimator gave it:
    /// TapKit's holds its readings in the range, the baselines (which never read infinite)
    /// know no range.
    func withinRange(_ reading: TempoReading) -> TempoReading {
        guard let bpm = reading.bpm, !(minBpm...maxBpm).contains(bpm) else { return reading }
        return TempoReading(bpm: nil, confidence: 0, tapsUsed: reading.tapsUsed, reset: reading.reset)
    }

    func render(_ rows: [(Double, TempoReading)]) throws -> String {
        if format == .json {
            struct Row: Encodable {
                let time: Double, bpm: Double?, taps_used: Int, reset: Bool, confidence: Double
                enum CodingKeys: String, CodingKey { case time, bpm, taps_used, reset, confidence }
                // `bpm` is null before the first interval, never left out.
                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: CodingKeys.self)
                    try container.encode(time, forKey: .time)
                    try container.encode(bpm, forKey: .bpm)
                    try container.encode(taps_used, forKey: .taps_used)
                    try container.encode(reset, forKey: .reset)
                    try container.encode(confidence, forKey: .confidence)
                }
            }
            // Rounded as CSV prints them: time to 1 µs, bpm and confidence to 0.01.
            func round(_ value: Double, _ scale: Double) -> Double { (value * scale).rounded() / scale }
            let json = rows.map { Row(time: round($0.0, 1e6), bpm: $0.1.bpm.map { round($0, 100) }, taps_used: $0.1.tapsUsed,
                                      reset: $0.1.reset, confidence: round($0.1.confidence, 100)) }
            // An object, not a bare array, so that the run's provenance travels with the rows.
            struct Document: Encodable {
                var tapkit: Provenance
                var file: String
                var readings: [Row]
            }
            return try renderJSON(Document(tapkit: provenance(), file: from ?? fromAudio ?? "", readings: json))
        }
        let columns = ["time", "bpm", "taps_used", "reset", "confidence"]
        let cells = rows.map { time, reading in
            [String(format: "%.6f", time), reading.bpm.map { String(format: "%.2f", $0) } ?? "", String(reading.tapsUsed),
             String(reading.reset), String(format: "%.2f", reading.confidence)]
        }
        return format == .csv ? renderCSV(columns: columns, rows: cells) : renderTable(columns: columns, rows: cells)
    }

    /// Each key a tap, stamped on the monotonic clock as it is read.
    func runInteractive() throws {
        let keys = InteractiveKeys {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        }
        let terminal = isatty(STDERR_FILENO) == 1
        if terminal { printError("Tap any key to the beat; r resets, q quits.") }
        keys.start()
        defer { keys.stop() }
        var tracker = makeEstimator()
        var last = TempoReading(bpm: nil, confidence: 0, tapsUsed: 0, reset: false)
        var quit = false
        while !quit {
            usleep(10_000)
            for (key, time) in keys.take() {
                switch key {
                case UInt8(ascii: "q"), UInt8(ascii: "Q"): quit = true
                case UInt8(ascii: "r"), UInt8(ascii: "R"):
                    tracker.reset()
                    last = TempoReading(bpm: nil, confidence: 0, tapsUsed: 0, reset: true)
                default:
                    if let time, !quit { last = withinRange(tracker.tap(at: time)) }
                }
            }
            if terminal {
                let bpm = last.bpm.map { String(format: "%.1f BPM", $0) } ?? "– BPM"
                FileHandle.standardError.write(Data(String(format: "\r\u{1B}[K%@  taps %d  confidence %.2f", bpm, last.tapsUsed, last.confidence).utf8))
            }
            if keys.hasEnded { quit = true }
        }
        if terminal { FileHandle.standardError.write(Data("\n".utf8)) }
        // key=value lines; no reading leaves the value empty (`bpm=`), as CSV leaves the cell.
        print("bpm=" + (last.bpm.map { String(format: "%.2f", $0) } ?? "") + "\ntaps_used=\(last.tapsUsed)\nconfidence=" + String(format: "%.2f", last.confidence))
    }
}

/// Input a tempo cannot be read from: the file (and line) and why.
struct TempoInputError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
