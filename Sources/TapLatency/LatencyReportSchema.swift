import Foundation
import TapAudio
import TapData
import TapOnsets
import TapStatistics

/// One row of `tapkit latency` output: a task, or `overall`. Field names are the schema of
/// the JSON and CSV output (documented in Docs/file-formats.md); times are milliseconds.
public struct LatencyRow: Sendable, Equatable, Encodable {
    /// `001_01`, or `overall`.
    public var task: String
    /// Timestamps in the task's `.txt`.
    public var nTouches: Int
    /// Onsets that may be taps (after metronome bleed was removed).
    public var nOnsets: Int
    /// Onsets set aside as the stimulus (bleed clicks on their grid, a count-in's clicks,
    /// alignment markers), not part of `n_onsets`.
    public var nStimulusOnsets: Int
    /// Touch–onset pairs.
    public var nMatched: Int
    /// Touches without an onset (silent taps, spurious touches).
    public var nUnmatchedTouches: Int
    /// Onsets without a touch (knocks, coughs, taps the device missed).
    public var nUnmatchedOnsets: Int
    /// Onsets without a touch that sound like the task's matched taps: taps the device did not
    /// log (``TapModel``; all unmatched onsets when too few taps matched to learn the model).
    public var nMissedTouches: Int = 0
    /// Onsets of other sounds: scored below the tap-score cut and not taken back by a touch,
    /// or without a touch and unlike the matched taps. Not part of `n_onsets`.
    public var nOtherOnsets: Int = 0
    /// Mean latency (touch − onset), ms.
    public var meanMs: Double?
    /// Standard deviation of the latency (n − 1), ms.
    public var sdMs: Double?
    /// Median latency, ms.
    public var medianMs: Double?
    /// Interquartile range of the latency (type 7 quantiles), ms.
    public var iqrMs: Double?
    /// The 95% confidence interval of the mean latency, [low, high].
    public var ci95Ms: [Double]?
    /// Clock skew of the touch clock against the audio clock, parts per million.
    public var driftPpm: Double?
    /// Why the task's figures are doubtful (``QualityFlag`` texts); empty when nothing is,
    /// and always for `overall`.
    public var flags: [String] = []
    /// Whether the task's stimulus bleed was removed through its stimulus file; nil when no
    /// stimulus file was given, and always for `overall`. JSON only (CSV and table keep their columns).
    public var stimulusBleed: StimulusBleedRow?
    /// The high-pass cut-off the task's onsets were detected with when the detector chose a
    /// higher band than the configured one (music or speech drowned the taps there), Hz; nil
    /// otherwise, and always for `overall`. JSON only.
    public var detectionBandHz: Double?
    /// The matched pairs, when asked for.
    public var pairs: [PairRow]?

    enum CodingKeys: String, CodingKey {
        case task, nTouches = "n_touches", nOnsets = "n_onsets", nStimulusOnsets = "n_stimulus_onsets", nMatched = "n_matched"
        case nUnmatchedTouches = "n_unmatched_touches", nUnmatchedOnsets = "n_unmatched_onsets"
        case nMissedTouches = "n_missed_touches", nOtherOnsets = "n_other_onsets"
        case meanMs = "mean_ms", sdMs = "sd_ms", medianMs = "median_ms", iqrMs = "iqr_ms"
        case ci95Ms = "ci95_ms", driftPpm = "drift_ppm", flags, stimulusBleed = "stimulus_bleed"
        case detectionBandHz = "detection_band_hz", pairs
    }

    /// Absent statistics are written as `null`, so every row has every field.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(task, forKey: .task)
        try container.encode(nTouches, forKey: .nTouches)
        try container.encode(nOnsets, forKey: .nOnsets)
        try container.encode(nStimulusOnsets, forKey: .nStimulusOnsets)
        try container.encode(nMatched, forKey: .nMatched)
        try container.encode(nUnmatchedTouches, forKey: .nUnmatchedTouches)
        try container.encode(nUnmatchedOnsets, forKey: .nUnmatchedOnsets)
        try container.encode(nMissedTouches, forKey: .nMissedTouches)
        try container.encode(nOtherOnsets, forKey: .nOtherOnsets)
        try container.encode(meanMs, forKey: .meanMs)
        try container.encode(sdMs, forKey: .sdMs)
        try container.encode(medianMs, forKey: .medianMs)
        try container.encode(iqrMs, forKey: .iqrMs)
        try container.encode(ci95Ms, forKey: .ci95Ms)
        try container.encode(driftPpm, forKey: .driftPpm)
        try container.encode(flags, forKey: .flags)
        try container.encode(stimulusBleed, forKey: .stimulusBleed)
        try container.encode(detectionBandHz, forKey: .detectionBandHz)
        try container.encodeIfPresent(pairs, forKey: .pairs)
    }

    /// The statistics columns, in output order, for tables and CSV.
    public static let columns = ["task", "n_touches", "n_onsets", "n_stimulus_onsets", "n_matched", "n_unmatched_touches",
                                 "n_unmatched_onsets", "n_missed_touches", "n_other_onsets", "mean_ms", "sd_ms", "median_ms", "iqr_ms",
                                 "ci95_low_ms", "ci95_high_ms", "drift_ppm", "flags"]

    /// The row's cells in ``columns`` order; absent values are empty.
    public var cells: [String] {
        let counts: [String] = [task, String(nTouches), String(nOnsets), String(nStimulusOnsets), String(nMatched),
                                String(nUnmatchedTouches), String(nUnmatchedOnsets), String(nMissedTouches), String(nOtherOnsets)]
        let statistics: [Double?] = [meanMs, sdMs, medianMs, iqrMs, ci95Ms?[0], ci95Ms?[1]]
        let drift: String = driftPpm.map { String(format: "%.1f", $0) } ?? ""
        return counts + statistics.map(formatMs) + [drift, flags.joined(separator: ";")]
    }
}

/// What became of a task's stimulus file in the output (`"stimulus_bleed"` in JSON).
public struct StimulusBleedRow: Sendable, Equatable, Codable {
    /// The stimulus file.
    public var file: String
    /// `removed` (its bleed was subtracted before detection) or `fallback` (the click grid was
    /// used instead; ``reason`` says why).
    public var status: String
    /// Why it was not removed, naming the file; nil when it was.
    public var reason: String?
    /// The stimulus's acoustic and device delay in the recording at its start, ms; nil when none was found.
    public var delayMs: Double?
    /// The drift of the stimulus's clock against the recording's, ppm; nil when no delay was found.
    public var driftPpm: Double?
    /// How much the subtraction lowered the high-passed recording's power where the bleed is
    /// loud, dB; nil when nothing was subtracted.
    public var reductionDb: Double?

    enum CodingKeys: String, CodingKey {
        case file, status, reason, delayMs = "delay_ms", driftPpm = "drift_ppm", reductionDb = "reduction_db"
    }

    /// The row of a stimulus bleed report: milliseconds to 1 µs, ppm to 0.1, dB to 0.01.
    public init(file: String, report: StimulusBleedReport) {
        self.file = file
        switch report.status {
        case .removed:
            status = "removed"
        case .unusable(let why), .notReduced(let why), .rejected(let why):
            status = "fallback"
            reason = why
        }
        delayMs = report.delay.map(milliseconds)
        driftPpm = report.driftPPM.map { ($0 * 10).rounded() / 10 }
        reductionDb = report.reductionDB.map { ($0 * 100).rounded() / 100 }
    }

    /// Absent values are written as `null`, so the object always has every key.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(status, forKey: .status)
        try container.encode(reason, forKey: .reason)
        try container.encode(delayMs, forKey: .delayMs)
        try container.encode(driftPpm, forKey: .driftPpm)
        try container.encode(reductionDb, forKey: .reductionDb)
    }
}

/// One matched pair in the output: times in seconds, latency in milliseconds.
public struct PairRow: Sendable, Equatable, Codable {
    /// The touch timestamp, seconds.
    public var touch: Double
    /// The acoustic onset, seconds.
    public var onset: Double
    /// touch − onset, ms.
    public var latencyMs: Double
    /// The high-pass the onset was heard with where the high band added it
    /// (`Onset.highBandCutoff`, 8000 Hz); nil for every other onset, and then absent from JSON.
    public var highBandHz: Double? = nil

    enum CodingKeys: String, CodingKey { case touch, onset, latencyMs = "latency_ms", highBandHz = "high_band_hz" }

    /// The columns of the pairs table (`tapkit latency --pairs`, CSV and table).
    public static let columns = ["task", "touch", "onset", "latency_ms", "high_band_hz"]
}

extension LatencyRow {
    /// The task's pairs as rows of ``PairRow/columns``: seconds to 6 decimals (1 µs), the
    /// latency to 3 decimals of a millisecond, as in JSON; the high band's cutoff in whole
    /// hertz, or empty.
    public var pairCells: [[String]] {
        (pairs ?? []).map {
            [task, String(format: "%.6f", $0.touch), String(format: "%.6f", $0.onset), formatMs($0.latencyMs),
             $0.highBandHz.map { String(format: "%.0f", $0) } ?? ""]
        }
    }
}

/// The whole `tapkit latency --format json` document.
public struct LatencyDocument: Sendable, Encodable {
    /// Where the document came from (written as `"tapkit"` when set; the command always sets it).
    public var tapkit: Provenance?
    /// One row per analysed task, ordered by user and track.
    public var tasks: [LatencyRow]
    /// All matched pairs of all tasks together.
    public var overall: LatencyRow
    /// Inputs that could not be analysed, each naming its file.
    public var errors: [ErrorRow]
}

/// An input that could not be analysed.
public struct ErrorRow: Sendable, Equatable, Codable {
    /// The file at fault.
    public var file: String
    /// What is wrong, with the file (and line) in front.
    public var message: String

    /// A row from the file and its message.
    public init(file: String, message: String) {
        self.file = file
        self.message = message
    }
}

/// Milliseconds to three decimals (a microsecond), the resolution worth printing.
func formatMs(_ value: Double?) -> String {
    value.map { String(format: "%.3f", $0) } ?? ""
}

private func milliseconds(_ seconds: Double) -> Double { (seconds * 1_000_000).rounded() / 1_000 }

/// Seconds rounded to 1 µs, as CSV prints them.
private func microseconds(_ seconds: Double) -> Double { (seconds * 1_000_000).rounded() / 1_000_000 }

extension LatencyRow {
    /// The row of one analysed task.
    public init(_ task: TaskLatency, includePairs: Bool = false) {
        self.init(label: task.id.description, touches: task.touches.count, onsets: task.onsets.count,
                  stimulusOnsets: task.stimulusOnsets.count,
                  matched: task.match.pairs.count, unmatchedTouches: task.match.unmatchedTouchIndices.count,
                  unmatchedOnsets: task.match.unmatchedOnsetIndices.count, latency: task.latency,
                  driftPpm: task.match.drift?.ppm)
        flags = task.flags.map(\.rawValue)
        nMissedTouches = task.missedTouches
        nOtherOnsets = task.otherOnsets
        if let report = task.stimulusBleed, let file = task.stimulusPath {
            stimulusBleed = StimulusBleedRow(file: file, report: report)
        }
        detectionBandHz = task.detectionBand?.cutoff
        if includePairs {
            pairs = task.match.pairs.map { pair in
                PairRow(touch: microseconds(pair.touchTime), onset: microseconds(pair.onsetTime), latencyMs: milliseconds(pair.latency),
                        highBandHz: task.onsets.indices.contains(pair.onsetIndex) ? task.onsets[pair.onsetIndex].highBandCutoff : nil)
            }
        }
    }

    /// The `overall` row of a folder: counts summed, statistics over all matched pairs.
    public init(overall report: FolderLatencyReport) {
        let tasks = report.tasks
        self.init(label: "overall", touches: tasks.map(\.touches.count).reduce(0, +),
                  onsets: tasks.map(\.onsets.count).reduce(0, +),
                  stimulusOnsets: tasks.map(\.stimulusOnsets.count).reduce(0, +), matched: tasks.map(\.match.pairs.count).reduce(0, +),
                  unmatchedTouches: tasks.map(\.match.unmatchedTouchIndices.count).reduce(0, +),
                  unmatchedOnsets: tasks.map(\.match.unmatchedOnsetIndices.count).reduce(0, +),
                  latency: report.overall, driftPpm: nil)
        nMissedTouches = tasks.map(\.missedTouches).reduce(0, +)
        nOtherOnsets = tasks.map(\.otherOnsets).reduce(0, +)
    }

    init(label: String, touches: Int, onsets: Int, stimulusOnsets: Int, matched: Int, unmatchedTouches: Int, unmatchedOnsets: Int,
         latency: Summary?, driftPpm: Double?) {
        task = label
        nTouches = touches
        nOnsets = onsets
        nStimulusOnsets = stimulusOnsets
        nMatched = matched
        nUnmatchedTouches = unmatchedTouches
        nUnmatchedOnsets = unmatchedOnsets
        meanMs = latency.map { milliseconds($0.mean) }
        sdMs = latency?.standardDeviation.map(milliseconds)
        medianMs = latency.map { milliseconds($0.median) }
        iqrMs = latency.map { milliseconds($0.interquartileRange) }
        ci95Ms = latency?.confidenceInterval95.map { [milliseconds($0.lowerBound), milliseconds($0.upperBound)] }
        self.driftPpm = driftPpm.map { ($0 * 10).rounded() / 10 }
    }
}

extension LatencyDocument {
    /// The document for a folder report.
    public init(_ report: FolderLatencyReport, includePairs: Bool = false) {
        tasks = report.tasks.map { LatencyRow($0, includePairs: includePairs) }
        overall = LatencyRow(overall: report)
        errors = report.failures.map { ErrorRow(file: $0.path, message: $0.description) }
    }
}
