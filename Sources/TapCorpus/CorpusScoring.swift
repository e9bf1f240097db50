import TapStatistics

/// Scoring onsets against a corpus item's truth: one onset per tap, greedy nearest within the
/// tolerance (Docs/robustness.md).
public enum CorpusScoring {
    /// Precision (hits ÷ onsets; 1 when there are neither taps nor onsets), recall (hits ÷
    /// taps) and their harmonic mean, F1.
    static func rates(taps: Int, onsets: Int, hits: Int) -> (precision: Double, recall: Double, f1: Double) {
        let precision = onsets == 0 ? (taps == 0 ? 1 : 0) : Double(hits) / Double(onsets)
        let recall = taps == 0 ? 1 : Double(hits) / Double(taps)
        return (precision, recall, precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall))
    }

    /// An onset hits a tap when it lies within this many seconds of the tap's true start.
    public static let tolerance = 0.010

    /// The one-to-one pairs (tap index, onset index) within `tolerance`, closest first: every
    /// tap–onset pair within the tolerance sorted by distance, each taken if neither side is
    /// already taken.
    public static func match(taps: [Double], onsets: [Double], tolerance: Double = tolerance) -> [(tap: Int, onset: Int)] {
        var candidates: [(distance: Double, tap: Int, onset: Int)] = []
        var low = 0
        let sortedOnsets = onsets.indices.sorted { onsets[$0] < onsets[$1] }
        for (tapIndex, tap) in taps.enumerated() {
            while low < sortedOnsets.count && onsets[sortedOnsets[low]] < tap - tolerance { low += 1 }
            var k = low
            while k < sortedOnsets.count && onsets[sortedOnsets[k]] <= tap + tolerance {
                candidates.append((abs(onsets[sortedOnsets[k]] - tap), tapIndex, sortedOnsets[k]))
                k += 1
            }
        }
        candidates.sort { ($0.distance, $0.tap, $0.onset) < ($1.distance, $1.tap, $1.onset) }
        var tapTaken = Set<Int>(), onsetTaken = Set<Int>()
        var pairs: [(tap: Int, onset: Int)] = []
        for candidate in candidates where !tapTaken.contains(candidate.tap) && !onsetTaken.contains(candidate.onset) {
            tapTaken.insert(candidate.tap)
            onsetTaken.insert(candidate.onset)
            pairs.append((candidate.tap, candidate.onset))
        }
        return pairs.sorted { $0.tap < $1.tap }
    }

    /// What an onset that hit no tap most likely is: `early` or `late` (within 30 ms of a tap
    /// no onset hit), the kind of an event it falls on (from 10 ms before its start to its end,
    /// at least 50 ms), `tap-decay` (within 150 ms after a tap's start: a re-trigger in its
    /// decay), or `unexplained`.
    public static func cause(ofFalseOnset onset: Double, taps: [Double], missedTaps: Set<Int>,
                             events: [CorpusEvent]) -> String {
        for index in missedTaps where abs(onset - taps[index]) <= 0.030 {
            return onset < taps[index] ? "early" : "late"
        }
        var best: (distance: Double, kind: String)?
        for event in events where onset >= event.time - 0.010 && onset <= event.time + max(event.duration, 0.050) {
            let distance = abs(onset - event.time)
            if best == nil || distance < best!.distance { best = (distance, event.kind) }
        }
        if let best { return best.kind }
        if taps.contains(where: { onset - $0 > 0 && onset - $0 <= 0.150 }) { return "tap-decay" }
        return "unexplained"
    }

    /// Scores one item.
    public static func score(entry: ManifestEntry, taps: [Double], onsets: [Double], events: [CorpusEvent]) -> ItemScore {
        let pairs = match(taps: taps, onsets: onsets)
        let hitOnsets = Set(pairs.map(\.onset))
        let missed = Set(taps.indices).subtracting(pairs.map(\.tap))
        var causes: [String: Int] = [:]
        for (index, onset) in onsets.enumerated() where !hitOnsets.contains(index) {
            causes[cause(ofFalseOnset: onset, taps: taps, missedTaps: missed, events: events), default: 0] += 1
        }
        return ItemScore(split: entry.split.rawValue, condition: entry.condition.name, item: entry.item,
                         taps: taps.count, onsets: onsets.count, hits: pairs.count,
                         timingErrorsMS: pairs.map { (onsets[$0.onset] - taps[$0.tap]) * 1000 },
                         falseOnsetCauses: causes, processingDelayMS: entry.processingDelayMS)
    }

    /// One row per split and condition (in the order given), then one `all` row per split.
    public static func summarize(_ items: [ItemScore], conditions: [String]) -> [GroupScore] {
        grouped(items, conditions: conditions, GroupScore.init)
    }

    /// One group per split and condition (in the order given), then one `all` group per split;
    /// groups without items are left out.
    static func grouped<Item: CorpusItemScore, Group>(_ items: [Item], conditions: [String],
                                                      _ group: (_ split: String, _ condition: String, _ items: [Item]) -> Group) -> [Group] {
        var groups: [Group] = []
        for split in CorpusSplit.allCases.map(\.rawValue) {
            for condition in conditions {
                let members = items.filter { $0.split == split && $0.condition == condition }
                if !members.isEmpty { groups.append(group(split, condition, members)) }
            }
            let members = items.filter { $0.split == split }
            if !members.isEmpty { groups.append(group(split, "all", members)) }
        }
        return groups
    }
}

/// An item's score, grouped by its split and condition.
protocol CorpusItemScore {
    /// `dev` or `held`.
    var split: String { get }
    /// The condition's name.
    var condition: String { get }
}

extension ItemScore: CorpusItemScore {}

/// The score of one item.
public struct ItemScore: Sendable, Encodable, Equatable {
    /// `dev` or `held`.
    public var split: String
    /// The condition's name.
    public var condition: String
    /// The item's name.
    public var item: String
    /// Audible taps in the truth.
    public var taps: Int
    /// Onsets reported.
    public var onsets: Int
    /// Onsets that hit a tap (one per tap).
    public var hits: Int
    /// Onset − true start of each hit, ms.
    public var timingErrorsMS: [Double]
    /// Onsets that hit no tap, by likely cause (``CorpusScoring/cause(ofFalseOnset:taps:missedTaps:events:)``).
    public var falseOnsetCauses: [String: Int]
    /// The processing delay the manifest records for the item, ms.
    public var processingDelayMS: Double?

    /// Hits ÷ onsets (1 when there are neither taps nor onsets).
    public var precision: Double { CorpusScoring.rates(taps: taps, onsets: onsets, hits: hits).precision }
    /// Hits ÷ taps.
    public var recall: Double { CorpusScoring.rates(taps: taps, onsets: onsets, hits: hits).recall }
    /// The harmonic mean of precision and recall.
    public var f1: Double { CorpusScoring.rates(taps: taps, onsets: onsets, hits: hits).f1 }

    enum CodingKeys: String, CodingKey {
        case split, condition, item, taps, onsets, hits, precision, recall, f1
        case timingErrorsMS = "timing_errors_ms", falseOnsetCauses = "false_onsets_by_cause"
        case processingDelayMS = "processing_delay_ms"
    }

    /// Encodes the counts, the rates and the timing errors (snake-case keys, `_ms` for milliseconds).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(split, forKey: .split)
        try c.encode(condition, forKey: .condition)
        try c.encode(item, forKey: .item)
        try c.encode(taps, forKey: .taps)
        try c.encode(onsets, forKey: .onsets)
        try c.encode(hits, forKey: .hits)
        try c.encode(precision, forKey: .precision)
        try c.encode(recall, forKey: .recall)
        try c.encode(f1, forKey: .f1)
        try c.encode(timingErrorsMS, forKey: .timingErrorsMS)
        try c.encode(falseOnsetCauses, forKey: .falseOnsetCauses)
        try c.encodeIfPresent(processingDelayMS, forKey: .processingDelayMS)
    }
}

/// The score of a condition in a split (or of the whole split, condition `all`).
public struct GroupScore: Sendable, Encodable, Equatable {
    /// `dev` or `held`.
    public var split: String
    /// The condition's name, or `all`.
    public var condition: String
    /// Items scored.
    public var items: Int
    /// Audible taps in their truth.
    public var taps: Int
    /// Onsets reported.
    public var onsets: Int
    /// Onsets that hit a tap.
    public var hits: Int
    /// Hits ÷ onsets, over all the items together.
    public var precision: Double
    /// Hits ÷ taps.
    public var recall: Double
    /// The harmonic mean of precision and recall.
    public var f1: Double
    /// Median and sample SD of onset − true start over the hits, ms (nil without hits / below two).
    public var timingMedianMS: Double?
    /// See ``timingMedianMS``.
    public var timingSDMS: Double?
    /// Mean processing delay the manifest records for these items, ms (nil when none).
    public var processingDelayMS: Double?
    /// The item with the lowest F1 (ties: the first), and its F1.
    public var worstItem: String
    /// The worst item's F1.
    public var worstF1: Double
    /// Onsets that hit no tap, by likely cause.
    public var falseOnsetCauses: [String: Int]

    init(split: String, condition: String, items members: [ItemScore]) {
        self.split = split
        self.condition = condition
        items = members.count
        taps = members.reduce(0) { $0 + $1.taps }
        onsets = members.reduce(0) { $0 + $1.onsets }
        hits = members.reduce(0) { $0 + $1.hits }
        (precision, recall, f1) = CorpusScoring.rates(taps: taps, onsets: onsets, hits: hits)
        let errors = Summary(members.flatMap(\.timingErrorsMS))
        timingMedianMS = errors?.median
        timingSDMS = errors?.standardDeviation
        let delays = members.compactMap(\.processingDelayMS)
        processingDelayMS = delays.isEmpty ? nil : delays.reduce(0, +) / Double(delays.count)
        let worst = members.min { $0.f1 < $1.f1 }!
        worstItem = worst.item
        worstF1 = worst.f1
        falseOnsetCauses = members.reduce(into: [:]) { total, item in
            for (cause, count) in item.falseOnsetCauses { total[cause, default: 0] += count }
        }
    }

    enum CodingKeys: String, CodingKey {
        case split, condition, items, taps, onsets, hits, precision, recall, f1
        case timingMedianMS = "timing_median_ms", timingSDMS = "timing_sd_ms", processingDelayMS = "processing_delay_ms"
        case worstItem = "worst_item", worstF1 = "worst_f1", falseOnsetCauses = "false_onsets_by_cause"
    }

    /// The three most frequent causes, e.g. `click:12 tap-decay:3`.
    public var topCauses: String {
        falseOnsetCauses.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.prefix(3)
            .map { "\($0.key):\($0.value)" }.joined(separator: " ")
    }
}
