import ArgumentParser
import Foundation
import TapCorpus
import TapData
import TapLatency
import TapOnsets

/// `tapkit-bench corpus`: the robustness corpus (Docs/robustness.md).
struct CorpusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "corpus",
        abstract: "Render the robustness corpus and score onset detectors on it.",
        subcommands: [CorpusRenderCommand.self, CorpusEvaluateCommand.self])
}

struct CorpusRenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render the corpus (TapSim tasks plus processing and foreign sounds) into a directory.")

    @Argument(help: "Output directory (created; an existing one must be empty unless --overwrite).")
    var directory: String

    @Option(help: "Seed of every random choice; the dev/held split is fixed by it.")
    var seed: UInt64

    @Option(help: "Items per condition and split.")
    var items = 2

    @Option(help: "Only these conditions, comma-separated (default: all).")
    var conditions: String?

    @Flag(help: "Replace the corpus in a directory that already holds files.")
    var overwrite = false

    @Option(help: "Which stages of the gated condition's chain run: both (the corpus), or the suppressor or the gate alone.")
    var gatedStages: GatedStages = .both

    func run() throws {
        let selected = try parseConditions(conditions)
        guard gatedStages == .both || selected.contains(.gated) else {
            throw ValidationError("--gated-stages \(gatedStages.rawValue) changes only the gated condition, which --conditions leaves out")
        }
        var renderer = CorpusRenderer()
        renderer.gatedStages = gatedStages
        let start = Date()
        do {
            let entries = try CorpusDirectory.render(to: directory, seed: seed, itemsPerSplit: items, conditions: selected,
                                                     renderer: renderer, overwrite: overwrite) { name, seconds in
                FileHandle.standardError.write(Data(String(format: "%@ %.2f s\n", name, seconds).utf8))
            }
            FileHandle.standardError.write(Data(String(format: "wrote %d items to %@ in %.1f s\n", entries.count, directory,
                                                       Date().timeIntervalSince(start)).utf8))
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}

extension GatedStages: ExpressibleByArgument {}

struct CorpusEvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Score onsets on a rendered corpus, per condition and split.",
        discussion: """
            Without --onsets-from, runs TapKit's detector with its default settings on every item. \
            With --onsets-from DIR --peer NAME, scores DIR/<item>.<NAME>.csv instead (a header with a \
            'time' column, seconds from the file's first sample). A hit is an onset within ±10 ms of a \
            true tap start, one per tap, closest pairs first.

            With --with-touches, runs `tapkit latency`'s analysis instead, with each item's logged \
            touches (Docs/robustness.md, "With the touches"): recall of the onsets it reports, \
            precision of the onsets matching paired with a touch, and each item's latency mean and \
            SD against the truth's (the goal: within 0.3 ms).
            """)

    @Argument(help: "A directory written by `corpus render`.")
    var directory: String

    @Option(help: "Output: table, markdown (Docs/robustness.md) or json.")
    var format = "table"

    @Option(help: "Score the onset CSVs in this directory instead of running the detector.")
    var onsetsFrom: String?

    @Option(help: "With --onsets-from: the peer's name in the file names (<item>.<peer>.csv).")
    var peer: String?

    @Option(help: "Only these conditions, comma-separated (default: all in the manifest).")
    var conditions: String?

    @Flag(help: "Also list every item.")
    var perItem = false

    @Flag(help: "Remove each item's stimulus bleed through its stimulus file, as `tapkit latency` does in an experiment folder (items without one are unchanged).")
    var withStimulus = false

    @Flag(help: "Run the latency analysis with each item's touches and score it (matched precision, recall, latency errors).")
    var withTouches = false

    func validate() throws {
        guard ["table", "markdown", "json"].contains(format) else {
            throw ValidationError("--format must be table, markdown or json")
        }
        if (onsetsFrom == nil) != (peer == nil) { throw ValidationError("--onsets-from and --peer go together") }
        if withTouches && onsetsFrom != nil { throw ValidationError("--with-touches runs TapKit's analysis; it does not score --onsets-from") }
    }

    func run() throws {
        let entries: [ManifestEntry]
        do { entries = try CorpusDirectory.readManifest(directory) } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(1)
        }
        let wanted = try conditions.map { Set(try parseConditions($0)) }
        if withTouches {
            return try evaluateLatency(entries.filter { wanted?.contains($0.condition) ?? true })
        }
        var scores: [ItemScore] = []
        var failures = 0
        for entry in entries where wanted?.contains(entry.condition) ?? true {
            do {
                let taps = try CorpusDirectory.readTimes(directory + "/" + entry.taps)
                let events = entry.events.isEmpty ? [] : try CorpusDirectory.readEvents(directory + "/" + entry.events)
                let onsets: [Double]
                if let onsetsFrom, let peer {
                    onsets = try CorpusDirectory.readTimes(onsetsFrom + "/" + entry.item + "." + peer + ".csv")
                } else {
                    let stimulus = withStimulus && !entry.stimulus.isEmpty ? directory + "/" + entry.stimulus : nil
                    onsets = try detectorOnsetTimes(directory + "/" + entry.audio, stimulus: stimulus)
                }
                scores.append(CorpusScoring.score(entry: entry, taps: taps, onsets: onsets, events: events))
            } catch {
                FileHandle.standardError.write(Data("error: \(entry.item): \(error)\n".utf8))
                failures += 1
            }
        }
        let order = CorpusCondition.allCases.map(\.name)
        let groups = CorpusScoring.summarize(scores, conditions: order)
        let detector = peer ?? (withStimulus ? "tapkit (default settings, stimulus files)" : "tapkit (default settings)")
        if format == "json" {
            print(try renderJSON(CorpusEvaluation(detector: detector, tolerance_ms: CorpusScoring.tolerance * 1000,
                                                  groups: groups, items: perItem ? scores : nil)), terminator: "")
        } else {
            print("detector: \(detector); hit = onset within ±\(Int(CorpusScoring.tolerance * 1000)) ms of a true start")
            let columns = ["split", "condition", "items", "taps", "onsets", "precision", "recall", "f1", "median_ms", "sd_ms",
                           "delay_ms", "worst_item", "worst_f1", "false_onsets_by_cause"]
            let rows = groups.map { g in
                [g.split, g.condition, "\(g.items)", "\(g.taps)", "\(g.onsets)", number(g.precision, 3), number(g.recall, 3),
                 number(g.f1, 3), number(g.timingMedianMS, 2), number(g.timingSDMS, 2), number(g.processingDelayMS, 3),
                 g.worstItem, number(g.worstF1, 3), g.topCauses]
            }
            printRows(columns: columns, rows: rows)
            if perItem {
                print("")
                print(renderTable(columns: ["item", "taps", "onsets", "hits", "precision", "recall", "f1", "false_onsets_by_cause"],
                                  rows: scores.map { s in
                    [s.item, "\(s.taps)", "\(s.onsets)", "\(s.hits)", number(s.precision, 3), number(s.recall, 3), number(s.f1, 3),
                     s.falseOnsetCauses.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: " ")]
                }), terminator: "")
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }
}

extension CorpusEvaluateCommand {
    /// `--with-touches`: the latency analysis of every item, scored and printed.
    func evaluateLatency(_ entries: [ManifestEntry]) throws {
        var scores: [LatencyItemScore] = []
        var failures = 0
        for entry in entries {
            do {
                guard !entry.touches.isEmpty else {
                    throw CorpusError.badFile(path: directory + "/" + CorpusDirectory.manifestName, line: 1,
                                              reason: "no touches for \(entry.item): the corpus was rendered before touches were written; render it again")
                }
                let taps = try CorpusDirectory.readTimes(directory + "/" + entry.taps)
                let touches = try CorpusDirectory.readTouches(directory + "/" + entry.touches)
                let stimulus = withStimulus && !entry.stimulus.isEmpty ? directory + "/" + entry.stimulus : nil
                let analysis = try analyzeItemLatency(touches: touches.map(\.time), audio: directory + "/" + entry.audio,
                                                      stimulus: stimulus)
                scores.append(CorpusLatencyScoring.score(entry: entry, taps: taps, touches: touches, onsets: analysis.onsets,
                                                         pairs: analysis.pairs, estimated: analysis.latency))
            } catch {
                FileHandle.standardError.write(Data("error: \(entry.item): \(error)\n".utf8))
                failures += 1
            }
        }
        let groups = CorpusLatencyScoring.summarize(scores, conditions: CorpusCondition.allCases.map(\.name))
        let detector = "tapkit latency (default settings, touches\(withStimulus ? ", stimulus files" : ""))"
        if format == "json" {
            print(try renderJSON(CorpusLatencyEvaluation(analysis: detector, tolerance_ms: CorpusScoring.tolerance * 1000,
                                                         groups: groups, items: perItem ? scores : nil)), terminator: "")
        } else {
            print("analysis: \(detector); hit = onset within ±\(Int(CorpusScoring.tolerance * 1000)) ms of a true start; "
                  + "precision over the onsets paired with a touch; latency errors estimated − true")
            let columns = ["split", "condition", "items", "taps", "matched", "precision", "recall", "within_0.3_ms",
                           "worst_mean_err_ms", "worst_sd_err_ms", "worst_item"]
            let rows = groups.map { g in
                [g.split, g.condition, "\(g.items)", "\(g.taps)", "\(g.matched)", number(g.precision, 3), number(g.recall, 3),
                 "\(g.itemsWithinBound)/\(g.items)", number(g.worstMeanErrorMS, 3), number(g.worstSDErrorMS, 3), g.worstItem]
            }
            printRows(columns: columns, rows: rows)
            if perItem {
                print("")
                print(renderTable(columns: ["item", "taps", "touches", "onsets", "hits", "matched", "on_taps", "precision", "recall",
                                            "wrong_pairs", "taps_left_out", "mean_err_ms", "sd_err_ms"],
                                  rows: scores.map { s in
                    ["\(s.item)", "\(s.taps)", "\(s.touches)", "\(s.onsets)", "\(s.hits)", "\(s.matched)", "\(s.matchedOnTaps)",
                     number(s.precision, 3), number(s.recall, 3), "\(s.wrongPairs)", "\(s.tapsLeftOut)",
                     number(s.meanErrorMS, 3), number(s.sdErrorMS, 3)]
                }), terminator: "")
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }

    /// Rows as a markdown table (`--format markdown`, the `all` rows in bold) or a text table.
    func printRows(columns: [String], rows: [[String]]) {
        if format == "markdown" {
            print("| " + columns.joined(separator: " | ") + " |")
            print("|" + String(repeating: "---|", count: columns.count))
            for row in rows {
                print("| " + row.enumerated().map { $0.offset == 1 && row[1] == "all" ? "**all**" : $0.element }
                    .joined(separator: " | ") + " |")
            }
        } else {
            print(renderTable(columns: columns, rows: rows), terminator: "")
        }
    }
}

/// A number rounded to `decimals` (first, so that no −0.000 is printed); empty for nil.
func number(_ value: Double?, _ decimals: Int) -> String {
    value.map { String(format: "%.\(decimals)f", ($0 * pow(10, Double(decimals))).rounded() / pow(10, Double(decimals)) + 0.0) } ?? ""
}

/// The latency evaluation's JSON document.
struct CorpusLatencyEvaluation: Encodable {
    var analysis: String
    var tolerance_ms: Double
    var groups: [LatencyGroupScore]
    var items: [LatencyItemScore]?
}

/// The evaluator's JSON document.
struct CorpusEvaluation: Encodable {
    var detector: String
    var tolerance_ms: Double
    var groups: [GroupScore]
    var items: [ItemScore]?
}

/// `tapkit latency`'s analysis of one item with its touches, default settings: the onsets it
/// reports, those paired with a touch, and the latency mean and SD (seconds). The one place
/// the corpus evaluator calls the latency analysis.
func analyzeItemLatency(touches: [Double], audio: String, stimulus: String?) throws
    -> (onsets: [Double], pairs: [(onset: Double, touch: Double)], latency: (mean: Double, sd: Double?)?) {
    // The id only labels the task.
    let task = try analyzeLatency(id: TaskID(user: 1, track: 1), touches: touches, audioPath: audio,
                                  stimulus: stimulus.map { StimulusInput(path: $0) })
    if let report = task.stimulusBleed { FileHandle.standardError.write(Data("\(audio): \(report.message)\n".utf8)) }
    return (task.onsets.map(\.time), task.match.pairs.map { ($0.onsetTime, $0.touchTime) },
            task.latency.map { ($0.mean, $0.standardDeviation) })
}

/// The detector's onset times in one file, with its default settings. The one place the
/// corpus evaluator calls the detector, so a change of its API touches only this function.
func detectorOnsetTimes(_ path: String, stimulus: String? = nil) throws -> [Double] {
    let detection = try detectTapOnsets(inFile: path, stimulus: stimulus.map { StimulusInput(path: $0) })
    if let report = detection.stimulusBleed { FileHandle.standardError.write(Data("\(path): \(report.message)\n".utf8)) }
    return detection.onsets.map(\.time)
}

/// Condition names, comma-separated, or all of them.
func parseConditions(_ list: String?) throws -> [CorpusCondition] {
    guard let list else { return CorpusCondition.allCases }
    return try list.split(separator: ",").map { name in
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard let condition = CorpusCondition(rawValue: trimmed) else {
            throw ValidationError("unknown condition '\(trimmed)'; known: \(CorpusCondition.allCases.map(\.name).joined(separator: ", "))")
        }
        return condition
    }
}
