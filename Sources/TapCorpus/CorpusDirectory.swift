import Foundation
import TapAudio
import TapData

/// One row of `manifest.csv`.
public struct ManifestEntry: Sendable, Equatable {
    /// `dev` or `held`.
    public var split: CorpusSplit
    /// The condition.
    public var condition: CorpusCondition
    /// The item's name (the stem of its files).
    public var item: String
    /// File names, relative to the corpus directory; `stimulus` and `events` may be empty, and
    /// `touches` is empty in a corpus rendered before it was written (session 15).
    public var audio: String, taps: String, stimulus: String, events: String, touches: String = ""
    /// The item's seed (``CorpusItem/seed``).
    public var seed: UInt64
    /// The audio file's rate, Hz, and length, seconds.
    public var sampleRate: Double, duration: Double
    /// Measured delay of the processing (codec, filter, resampler), ms; nil when none.
    public var processingDelayMS: Double?
    /// The drawn parameters and measured levels, `key=value` pairs separated by `;`.
    public var notes: String

    /// The manifest's columns, in order.
    public static let columns = ["split", "condition", "item", "audio", "taps", "stimulus", "events", "seed",
                                 "sample_rate", "duration", "processing_delay_ms", "notes", "touches"]
    /// Columns a manifest may lack: it was written before they existed.
    static let optionalColumns: Set<String> = ["touches"]

    var cells: [String] {
        [split.rawValue, condition.name, item, audio, taps, stimulus, events, "\(seed)", format(sampleRate, decimals: 0),
         String(format: "%.6f", duration), processingDelayMS.map { String(format: "%.3f", ($0 * 1000).rounded() / 1000 + 0.0) } ?? "", notes,
         touches]
    }
}

/// Writing a corpus directory and reading it back (Docs/robustness.md has the format).
public enum CorpusDirectory {
    /// The manifest's file name in the corpus directory.
    public static let manifestName = "manifest.csv"

    /// Renders every item into `directory`: `<item>.wav` (16-bit mono), `<item>.taps.csv`,
    /// `<item>.events.csv`, `<item>.touches.csv`, `<item>.stimulus.wav` where there is one, `versions.txt` (the
    /// external programs) and, last, `manifest.csv`. Files are written under temporary names
    /// and renamed. A directory that already holds files is refused unless `overwrite`.
    /// - Parameters:
    ///   - directory: where to write (created if needed).
    ///   - seed: the corpus seed; every item's seed derives from it, so it fixes the split.
    ///   - itemsPerSplit: items per condition and split.
    ///   - conditions: the conditions to render.
    ///   - renderer: the renderer (its base configuration and tools).
    ///   - overwrite: write into a directory that already holds files, replacing same-named ones.
    ///   - progress: called after each item with its name and the seconds it took.
    /// - Returns: the manifest's rows.
    @discardableResult
    public static func render(to directory: String, seed: UInt64, itemsPerSplit: Int = 2,
                              conditions: [CorpusCondition] = CorpusCondition.allCases,
                              renderer: CorpusRenderer = CorpusRenderer(), overwrite: Bool = false,
                              progress: (String, Double) -> Void = { _, _ in }) throws -> [ManifestEntry] {
        let manager = FileManager.default
        if let existing = try? manager.contentsOfDirectory(atPath: directory), !existing.isEmpty, !overwrite {
            throw CorpusError.directoryNotEmpty(path: directory)
        }
        try renderer.checkTools(for: conditions)
        try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var entries: [ManifestEntry] = []
        for item in CorpusItem.all(corpusSeed: seed, itemsPerSplit: itemsPerSplit, conditions: conditions) {
            let start = Date()
            let rendered = try renderer.render(item)
            entries.append(try write(rendered, to: directory))
            progress(item.name, Date().timeIntervalSince(start))
        }
        try writeText(renderer.toolVersions(), to: directory + "/versions.txt")
        try writeText(renderCSV(columns: ManifestEntry.columns, rows: entries.map(\.cells)), to: directory + "/" + manifestName)
        return entries
    }

    /// Writes one rendered item's files and returns its manifest row.
    public static func write(_ rendered: RenderedItem, to directory: String) throws -> ManifestEntry {
        let name = rendered.item.name
        let audio = name + ".wav", taps = name + ".taps.csv", events = name + ".events.csv"
        let touches = name + ".touches.csv"
        try writeAudio(rendered.audio, to: directory + "/" + audio)
        try writeText("time\n" + rendered.tapTimes.map { String(format: "%.6f\n", $0) }.joined(), to: directory + "/" + taps)
        try writeText("time,kind,duration\n" + rendered.events.map {
            String(format: "%.6f,%@,%.6f\n", $0.time, $0.kind, $0.duration)
        }.joined(), to: directory + "/" + events)
        // Latencies to the nanosecond: the truth's mean and SD are recomputed from them.
        try writeText("time,tap_start,latency,audible\n" + rendered.touches.map {
            String(format: "%.6f,", $0.time) + ($0.tapStart.map { String(format: "%.6f", $0) } ?? "") + ","
                + ($0.latency.map { String(format: "%.9f", $0) } ?? "") + "," + ($0.audible ? "true" : "false") + "\n"
        }.joined(), to: directory + "/" + touches)
        var stimulus = ""
        if let signal = rendered.stimulus {
            stimulus = name + ".stimulus.wav"
            try writeAudio(signal, to: directory + "/" + stimulus)
        }
        return ManifestEntry(split: rendered.item.split, condition: rendered.item.condition, item: name, audio: audio,
                             taps: taps, stimulus: stimulus, events: events, touches: touches, seed: rendered.item.seed,
                             sampleRate: rendered.audio.sampleRate, duration: rendered.audio.duration,
                             processingDelayMS: rendered.processingDelay.map { $0 * 1000 }, notes: rendered.notes)
    }

    private static func temporaryName(_ path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().path + "/.tmp-\(getpid())-" + url.lastPathComponent
    }

    private static func writeAudio(_ signal: Signal, to path: String) throws {
        let temporary = temporaryName(path)
        try signal.write(to: temporary, format: .wav16)
        try replace(path, with: temporary)
    }

    private static func writeText(_ text: String, to path: String) throws {
        let temporary = temporaryName(path)
        try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        try replace(path, with: temporary)
    }

    private static func replace(_ path: String, with temporary: String) throws {
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw CorpusError.badFile(path: path, line: 0, reason: "cannot write: \(reason)")
        }
    }

    // MARK: reading

    /// The manifest's rows.
    public static func readManifest(_ directory: String) throws -> [ManifestEntry] {
        let path = directory + "/" + manifestName
        let rows = try readCSV(path)
        guard let header = rows.first else { throw CorpusError.badFile(path: path, line: 1, reason: "empty") }
        func column(_ name: String) throws -> Int? {
            guard let index = header.firstIndex(of: name) else {
                if ManifestEntry.optionalColumns.contains(name) { return nil }
                throw CorpusError.badFile(path: path, line: 1, reason: "no column '\(name)'")
            }
            return index
        }
        let c = try Dictionary(uniqueKeysWithValues: ManifestEntry.columns.map { ($0, try column($0)) })
            .compactMapValues { $0 }
        return try rows.dropFirst().enumerated().map { offset, row in
            let line = offset + 2
            guard row.count == header.count else {
                throw CorpusError.badFile(path: path, line: line, reason: "\(row.count) cells, the header has \(header.count)")
            }
            guard let split = CorpusSplit(rawValue: row[c["split"]!]),
                  let condition = CorpusCondition(rawValue: row[c["condition"]!]),
                  let seed = UInt64(row[c["seed"]!]),
                  let rate = NumberGrammar.decimal(row[c["sample_rate"]!]),
                  let duration = NumberGrammar.decimal(row[c["duration"]!]) else {
                throw CorpusError.badFile(path: path, line: line, reason: "bad split, condition, seed, rate or duration")
            }
            let delay = row[c["processing_delay_ms"]!]
            return ManifestEntry(split: split, condition: condition, item: row[c["item"]!], audio: row[c["audio"]!],
                                 taps: row[c["taps"]!], stimulus: row[c["stimulus"]!], events: row[c["events"]!],
                                 touches: c["touches"].map { row[$0] } ?? "",
                                 seed: seed, sampleRate: rate, duration: duration,
                                 processingDelayMS: delay.isEmpty ? nil : NumberGrammar.decimal(delay),
                                 notes: row[c["notes"]!])
        }
    }

    /// The `time` column of a CSV file with a header (tap truth, a peer's onsets), ascending.
    public static func readTimes(_ path: String) throws -> [Double] {
        let rows = try readCSV(path)
        guard let header = rows.first, let index = header.firstIndex(of: "time") else {
            throw CorpusError.badFile(path: path, line: 1, reason: "no header with a 'time' column")
        }
        return try rows.dropFirst().enumerated().map { offset, row in
            guard index < row.count, let value = NumberGrammar.decimal(row[index]) else {
                throw CorpusError.badFile(path: path, line: offset + 2, reason: "not a time in seconds")
            }
            return value
        }.sorted()
    }

    /// An events file.
    public static func readEvents(_ path: String) throws -> [CorpusEvent] {
        let rows = try readCSV(path)
        guard let header = rows.first, let t = header.firstIndex(of: "time"), let k = header.firstIndex(of: "kind") else {
            throw CorpusError.badFile(path: path, line: 1, reason: "no header with 'time' and 'kind' columns")
        }
        let d = header.firstIndex(of: "duration")
        return try rows.dropFirst().enumerated().map { offset, row in
            guard max(t, k) < row.count, let time = NumberGrammar.decimal(row[t]) else {
                throw CorpusError.badFile(path: path, line: offset + 2, reason: "bad event")
            }
            let duration = d.flatMap { $0 < row.count ? NumberGrammar.decimal(row[$0]) : nil } ?? 0
            return CorpusEvent(time: time, kind: row[k], duration: duration)
        }
    }

    /// A touches file (`time,tap_start,latency,audible`; the last three empty or `false` for
    /// a spurious touch), ascending by time.
    public static func readTouches(_ path: String) throws -> [CorpusTouch] {
        let rows = try readCSV(path)
        let columns = ["time", "tap_start", "latency", "audible"]
        guard let header = rows.first, columns.allSatisfy(header.contains) else {
            throw CorpusError.badFile(path: path, line: 1, reason: "no header with the columns \(columns.joined(separator: ", "))")
        }
        let index = columns.map { header.firstIndex(of: $0)! }
        return try rows.dropFirst().enumerated().map { offset, row in
            let line = offset + 2
            guard row.count == header.count, let time = NumberGrammar.decimal(row[index[0]]) else {
                throw CorpusError.badFile(path: path, line: line, reason: "not a touch: a time in seconds, then tap_start, latency, audible")
            }
            func optional(_ cell: String) throws -> Double? {
                if cell.isEmpty { return nil }
                guard let value = NumberGrammar.decimal(cell) else {
                    throw CorpusError.badFile(path: path, line: line, reason: "'\(cell)' is not a number of seconds")
                }
                return value
            }
            guard let audible = ["true": true, "false": false][row[index[3]]] else {
                throw CorpusError.badFile(path: path, line: line, reason: "audible must be true or false, not '\(row[index[3]])'")
            }
            return CorpusTouch(time: time, tapStart: try optional(row[index[1]]), latency: try optional(row[index[2]]),
                               audible: audible)
        }.sorted { $0.time < $1.time }
    }

    /// Lines split at commas, with RFC 4180 quotes; blank lines skipped; a BOM and `\r` dropped.
    static func readCSV(_ path: String) throws -> [[String]] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CorpusError.badFile(path: path, line: 0, reason: "cannot read")
        }
        var text = String(decoding: data, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        var rows: [[String]] = []
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let trimmed = line.hasSuffix("\r") ? line.dropLast() : line
            if trimmed.isEmpty { continue }
            var cells: [String] = [], cell = "", quoted = false
            var characters = Array(trimmed)[...]
            while let ch = characters.popFirst() {
                if quoted {
                    if ch == "\"" {
                        if characters.first == "\"" { cell.append("\""); characters.removeFirst() } else { quoted = false }
                    } else { cell.append(ch) }
                } else if ch == "\"" { quoted = true }
                else if ch == "," { cells.append(cell); cell = "" }
                else { cell.append(ch) }
            }
            cells.append(cell)
            rows.append(cells)
        }
        return rows
    }
}
