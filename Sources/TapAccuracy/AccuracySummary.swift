import Foundation
import TapData
import TapLatency
import TapStatistics
import TapSim

/// One row of an accuracy report: a task, or `overall` (every tap pooled).
public struct AccuracyRow: Sendable, Equatable, Codable {
    /// `001_01`, or `overall`.
    public var task: String
    /// Taps that made a sound.
    public var audibleTaps: Int
    /// Share of audible taps with an onset within ±10 ms.
    public var recall: Double
    /// Share of matched onsets that are real taps.
    public var precision: Double
    /// Share of all detected onsets that are real taps.
    public var detectorPrecision: Double
    /// Share of matched pairs that paired a tap with its own touch.
    public var correctPairs: Double
    /// Median of onset − true start over hit taps, ms.
    public var timingMedianMs: Double?
    /// SD of onset − true start over hit taps, ms.
    public var timingSDMs: Double?
    /// Largest |timing error| among hits, ms.
    public var timingMaxAbsMs: Double?
    /// Estimated minus true latency mean / SD, ms (tasks only).
    public var latencyMeanErrorMs: Double?
    /// Estimated minus true latency SD, ms (tasks only).
    public var latencySDErrorMs: Double?
    /// Mean tap SNR, dB.
    public var meanSNRdB: Double?

    enum CodingKeys: String, CodingKey {
        case task, audibleTaps = "audible_taps", recall, precision, detectorPrecision = "detector_precision"
        case correctPairs = "correct_pairs", timingMedianMs = "timing_median_ms", timingSDMs = "timing_sd_ms"
        case timingMaxAbsMs = "timing_max_abs_ms", latencyMeanErrorMs = "latency_mean_error_ms"
        case latencySDErrorMs = "latency_sd_error_ms", meanSNRdB = "mean_snr_db"
    }

    /// Every key is written, `null` when a value is absent (as in `tapkit latency`), and
    /// numbers are rounded as ``cells`` prints them: shares to 4 decimals, ms to 3, dB to 1.
    public func encode(to encoder: any Encoder) throws {
        func round(_ value: Double?, _ digits: Int) -> Double? {
            guard let value else { return nil }
            let scale = pow(10, Double(digits))
            return (value * scale).rounded() / scale
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(task, forKey: .task)
        try container.encode(audibleTaps, forKey: .audibleTaps)
        try container.encode(round(recall, 4), forKey: .recall)
        try container.encode(round(precision, 4), forKey: .precision)
        try container.encode(round(detectorPrecision, 4), forKey: .detectorPrecision)
        try container.encode(round(correctPairs, 4), forKey: .correctPairs)
        try container.encode(round(timingMedianMs, 3), forKey: .timingMedianMs)
        try container.encode(round(timingSDMs, 3), forKey: .timingSDMs)
        try container.encode(round(timingMaxAbsMs, 3), forKey: .timingMaxAbsMs)
        try container.encode(round(latencyMeanErrorMs, 3), forKey: .latencyMeanErrorMs)
        try container.encode(round(latencySDErrorMs, 3), forKey: .latencySDErrorMs)
        try container.encode(round(meanSNRdB, 1), forKey: .meanSNRdB)
    }

    /// Column names of ``cells``.
    public static let columns = ["task", "audible_taps", "recall", "precision", "detector_precision", "correct_pairs",
                                 "timing_median_ms", "timing_sd_ms", "timing_max_abs_ms", "latency_mean_error_ms",
                                 "latency_sd_error_ms", "mean_snr_db"]

    /// The row as text cells.
    public var cells: [String] {
        func f(_ value: Double?, _ digits: Int) -> String { value.map { String(format: "%.\(digits)f", $0) } ?? "" }
        return [task, String(audibleTaps), f(recall, 4), f(precision, 4), f(detectorPrecision, 4), f(correctPairs, 4),
                f(timingMedianMs, 3), f(timingSDMs, 3), f(timingMaxAbsMs, 3), f(latencyMeanErrorMs, 3),
                f(latencySDErrorMs, 3), f(meanSNRdB, 1)]
    }
}

/// Accuracy of a whole simulated folder: one row per task and a pooled `overall` row.
public struct AccuracySummary: Sendable, Equatable, Codable {
    /// One row per task.
    public var tasks: [AccuracyRow]
    /// Every tap of every task pooled.
    public var overall: AccuracyRow

    /// Every row, tasks first.
    public var rows: [AccuracyRow] { tasks + [overall] }

    /// Summarises per-task evaluations.
    public init(_ accuracies: [TaskAccuracy]) {
        tasks = accuracies.map { Self.row($0.task, [$0], latencyErrors: true) }
        overall = Self.row("overall", accuracies, latencyErrors: false)
    }

    private static func row(_ label: String, _ items: [TaskAccuracy], latencyErrors: Bool) -> AccuracyRow {
        let audible = items.map(\.audibleTaps).reduce(0, +)
        let detected = items.map(\.detectedTaps).reduce(0, +)
        let matched = items.map(\.matchedOnsets).reduce(0, +)
        let matchedOnTaps = items.map(\.matchedOnsetsOnTaps).reduce(0, +)
        let onsets = items.map(\.onsets).reduce(0, +)
        let onsetsOnTaps = items.map(\.onsetsOnTaps).reduce(0, +)
        let correct = items.map(\.correctPairs).reduce(0, +)
        let errors = items.flatMap(\.timingErrors)
        let timing = Summary(errors)
        let item = items.first
        func difference(_ a: Double?, _ b: Double?) -> Double? {
            guard latencyErrors, let a, let b else { return nil }
            return (a - b) * 1000
        }
        let snrs = items.compactMap(\.meanSNR)
        return AccuracyRow(
            task: label, audibleTaps: audible,
            recall: audible == 0 ? 1 : Double(detected) / Double(audible),
            precision: matched == 0 ? 1 : Double(matchedOnTaps) / Double(matched),
            detectorPrecision: onsets == 0 ? 1 : Double(onsetsOnTaps) / Double(onsets),
            correctPairs: matched == 0 ? 1 : Double(correct) / Double(matched),
            timingMedianMs: timing.map { $0.median * 1000 }, timingSDMs: timing?.standardDeviation.map { $0 * 1000 },
            timingMaxAbsMs: errors.map(abs).max().map { $0 * 1000 },
            latencyMeanErrorMs: difference(item?.estimatedLatencyMean, item?.trueLatencyMean),
            latencySDErrorMs: difference(item?.estimatedLatencySD, item?.trueLatencySD),
            meanSNRdB: snrs.isEmpty ? nil : snrs.reduce(0, +) / Double(snrs.count))
    }
}
