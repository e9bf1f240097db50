import TapData
import TapLatency
import TapStatistics
import TapSim

/// How well the latency pipeline recovered one simulated task's ground truth.
///
/// Definitions (Docs/accuracy.md): an onset *hits* an audible tap when it lies within
/// `tolerance` of the tap's true start, one onset per tap. Recall counts the audible taps the
/// detector hit (silent taps excluded). Precision counts the onsets that latency matching
/// kept (paired with a touch) that hit a tap: distractors and bleed count against it only if
/// matching failed to reject them.
public struct TaskAccuracy: Sendable, Equatable, Codable {
    /// The task, e.g. `001_01`.
    public var task: String
    /// Audible taps in the recording.
    public var audibleTaps: Int
    /// Audible taps with a detected onset within the tolerance.
    public var detectedTaps: Int
    /// All onsets the detector reported.
    public var onsets: Int
    /// Detected onsets within the tolerance of an audible tap (before matching).
    public var onsetsOnTaps: Int
    /// Onsets paired with a touch by matching.
    public var matchedOnsets: Int
    /// Matched onsets that lie within the tolerance of an audible tap.
    public var matchedOnsetsOnTaps: Int
    /// Matched pairs whose touch is the tap's own logged touch.
    public var correctPairs: Int
    /// Detected minus true start of every hit tap, seconds.
    public var timingErrors: [Double]
    /// True mean latency of the task, seconds (nil where undefined, as below).
    public var trueLatencyMean: Double?
    /// True latency SD, seconds.
    public var trueLatencySD: Double?
    /// Mean latency `tapkit latency` estimated, seconds.
    public var estimatedLatencyMean: Double?
    /// Latency SD `tapkit latency` estimated, seconds.
    public var estimatedLatencySD: Double?
    /// Mean tap SNR of the task, dB.
    public var meanSNR: Double?

    /// Share of audible taps the detector found.
    public var recall: Double { audibleTaps == 0 ? 1 : Double(detectedTaps) / Double(audibleTaps) }
    /// Share of matched onsets that are real taps.
    public var precision: Double { matchedOnsets == 0 ? 1 : Double(matchedOnsetsOnTaps) / Double(matchedOnsets) }
    /// Share of raw detector onsets that are real taps.
    public var detectorPrecision: Double { onsets == 0 ? 1 : Double(onsetsOnTaps) / Double(onsets) }
}

/// Compares a task's analysis with its ground truth.
public func evaluate(_ analysis: TaskLatency, against truth: TaskTruth, tolerance: Double = 0.010) -> TaskAccuracy {
    let audible = truth.taps.filter(\.audible)
    let starts = audible.map(\.startTime)
    let onsetTimes = analysis.onsets.map(\.time)
    let hits = nearestOneToOne(onsetTimes, starts, tolerance: tolerance)   // onset index → tap index

    var timingErrors: [Double] = []
    for (onsetIndex, tapIndex) in hits.sorted(by: { $0.key < $1.key }) {
        timingErrors.append(onsetTimes[onsetIndex] - starts[tapIndex])
    }
    var matchedOnTaps = 0, correct = 0
    for pair in analysis.match.pairs {
        guard let tapIndex = hits[pair.onsetIndex] else { continue }
        matchedOnTaps += 1
        if let touch = audible[tapIndex].touchTime, abs(touch - pair.touchTime) < 1.5e-6 { correct += 1 }
    }
    let snrs = audible.compactMap(\.snrDB)
    return TaskAccuracy(
        task: analysis.id.description, audibleTaps: audible.count, detectedTaps: hits.count,
        onsets: onsetTimes.count, onsetsOnTaps: hits.count, matchedOnsets: analysis.match.pairs.count,
        matchedOnsetsOnTaps: matchedOnTaps, correctPairs: correct, timingErrors: timingErrors,
        trueLatencyMean: truth.trueLatencyMean, trueLatencySD: truth.trueLatencySD,
        estimatedLatencyMean: analysis.latency?.mean, estimatedLatencySD: analysis.latency?.standardDeviation,
        meanSNR: snrs.isEmpty ? nil : snrs.reduce(0, +) / Double(snrs.count))
}

/// Pairs each of `a` with the nearest unclaimed element of `b` within `tolerance`, nearest
/// first; both sorted. Returns index in `a` → index in `b`.
func nearestOneToOne(_ a: [Double], _ b: [Double], tolerance: Double) -> [Int: Int] {
    var candidates: [(distance: Double, a: Int, b: Int)] = []
    var start = 0
    for (i, x) in a.enumerated() {
        while start < b.count && b[start] < x - tolerance { start += 1 }
        var j = start
        while j < b.count && b[j] <= x + tolerance {
            candidates.append((abs(x - b[j]), i, j))
            j += 1
        }
    }
    candidates.sort { ($0.distance, $0.a, $0.b) < ($1.distance, $1.a, $1.b) }
    var result: [Int: Int] = [:]
    var claimed = Set<Int>()
    for candidate in candidates where result[candidate.a] == nil && !claimed.contains(candidate.b) {
        result[candidate.a] = candidate.b
        claimed.insert(candidate.b)
    }
    return result
}
