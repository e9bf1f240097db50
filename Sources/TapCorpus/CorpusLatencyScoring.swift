import TapStatistics

/// Scoring `tapkit latency` on a corpus item with its touches: the goals of the robustness
/// corpus as the accuracy suites state them (Docs/accuracy.md), not the detector alone.
///
/// - Recall: audible taps hit by an onset the analysis reports (the tap score's taps and the
///   quiet ones the touches brought back), one per tap, within ``CorpusScoring/tolerance``.
/// - Precision after matching: of the onsets paired with a touch, the share on a tap. An
///   onset of another sound counts against it only if matching paired it with a touch.
/// - Latency: the estimated per-task mean and SD against the truth's over the touches of
///   audible taps (``CorpusTouch/trueLatency(_:)``).
public enum CorpusLatencyScoring {
    /// The bound on a task's latency mean and SD error, seconds.
    public static let latencyBound = 0.0003

    /// Scores one item: `onsets` are the times the analysis reports, `pairs` the onsets it
    /// paired with touches, `estimated` its latency mean and SD (seconds; nil without pairs).
    public static func score(entry: ManifestEntry, taps: [Double], touches: [CorpusTouch], onsets: [Double],
                             pairs: [(onset: Double, touch: Double)], estimated: (mean: Double, sd: Double?)?) -> LatencyItemScore {
        let hits = CorpusScoring.match(taps: taps, onsets: onsets).count
        let pairedOnTaps = CorpusScoring.match(taps: taps, onsets: pairs.map(\.onset))
        // A pair is right when its onset is on a tap and its touch is that tap's own.
        let touchOfTap = Dictionary(touches.compactMap { touch in touch.tapStart.map { ($0, touch.time) } },
                                    uniquingKeysWith: { first, _ in first })
        let right = pairedOnTaps.filter { pair in
            touchOfTap[taps[pair.tap]].map { abs($0 - pairs[pair.onset].touch) < 1.5e-6 } ?? false
        }
        let rightTaps = Set(right.map(\.tap)), rightOnsets = Set(right.map(\.onset))
        let truth = CorpusTouch.trueLatency(touches)
        func errorMS(_ estimate: Double?, _ truth: Double?) -> Double? {
            guard let estimate, let truth else { return nil }
            return (estimate - truth) * 1000
        }
        return LatencyItemScore(split: entry.split.rawValue, condition: entry.condition.name, item: entry.item,
                                taps: taps.count, touches: touches.count, onsets: onsets.count, hits: hits,
                                matched: pairs.count, matchedOnTaps: pairedOnTaps.count,
                                wrongPairOnsets: pairs.indices.filter { !rightOnsets.contains($0) }.map { pairs[$0].onset },
                                tapsLeftOutStarts: taps.indices.filter { touchOfTap[taps[$0]] != nil && !rightTaps.contains($0) }
                                    .map { taps[$0] },
                                meanErrorMS: errorMS(estimated?.mean, truth?.mean),
                                sdErrorMS: errorMS(estimated?.sd, truth?.sd))
    }

    /// One row per split and condition (in the order given), then one `all` row per split.
    public static func summarize(_ items: [LatencyItemScore], conditions: [String]) -> [LatencyGroupScore] {
        CorpusScoring.grouped(items, conditions: conditions, LatencyGroupScore.init)
    }
}

/// `tapkit latency` on one item, with its touches.
public struct LatencyItemScore: Sendable, Encodable, Equatable, CorpusItemScore {
    /// `dev` or `held`.
    public var split: String
    /// The condition's name.
    public var condition: String
    /// The item's name.
    public var item: String
    /// Audible taps in the truth.
    public var taps: Int
    /// Touches logged (of audible and silent taps, and spurious ones).
    public var touches: Int
    /// Onsets the analysis reports as taps.
    public var onsets: Int
    /// Taps hit by one of them.
    public var hits: Int
    /// Onsets paired with a touch.
    public var matched: Int
    /// Paired onsets that lie on a tap.
    public var matchedOnTaps: Int
    /// The onset times of the wrong pairs: pairs that are not a tap's onset with that tap's
    /// own touch, each a wrong latency in the estimate; seconds.
    public var wrongPairOnsets: [Double]
    /// The true starts of the taps left out: audible taps with a logged touch and no right
    /// pair, whose latency the truth has and the estimate lacks; seconds.
    public var tapsLeftOutStarts: [Double]
    /// Estimated − true latency mean, ms; nil when either is undefined.
    public var meanErrorMS: Double?
    /// Estimated − true latency SD, ms; nil when either is undefined.
    public var sdErrorMS: Double?

    /// Hits ÷ taps.
    public var recall: Double { taps == 0 ? 1 : Double(hits) / Double(taps) }
    /// Paired onsets on a tap ÷ paired onsets (1 without pairs).
    public var precision: Double { matched == 0 ? 1 : Double(matchedOnTaps) / Double(matched) }
    /// How many wrong pairs (``wrongPairOnsets``).
    public var wrongPairs: Int { wrongPairOnsets.count }
    /// How many taps left out (``tapsLeftOutStarts``).
    public var tapsLeftOut: Int { tapsLeftOutStarts.count }
    /// Whether both latency errors are defined and within ``CorpusLatencyScoring/latencyBound``.
    public var latencyWithinBound: Bool {
        guard let meanErrorMS, let sdErrorMS else { return false }
        let bound = CorpusLatencyScoring.latencyBound * 1000
        return abs(meanErrorMS) <= bound && abs(sdErrorMS) <= bound
    }

    enum CodingKeys: String, CodingKey {
        case split, condition, item, taps, touches, onsets, hits, matched, precision, recall
        case matchedOnTaps = "matched_on_taps", wrongPairs = "wrong_pairs", tapsLeftOut = "taps_left_out"
        case wrongPairOnsets = "wrong_pair_onsets", tapsLeftOutStarts = "taps_left_out_starts"
        case meanErrorMS = "latency_mean_error_ms", sdErrorMS = "latency_sd_error_ms"
    }

    /// Encodes the counts, the rates and the latency errors (snake-case keys, `_ms` for milliseconds).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(split, forKey: .split)
        try c.encode(condition, forKey: .condition)
        try c.encode(item, forKey: .item)
        try c.encode(taps, forKey: .taps)
        try c.encode(touches, forKey: .touches)
        try c.encode(onsets, forKey: .onsets)
        try c.encode(hits, forKey: .hits)
        try c.encode(matched, forKey: .matched)
        try c.encode(matchedOnTaps, forKey: .matchedOnTaps)
        try c.encode(wrongPairs, forKey: .wrongPairs)
        try c.encode(tapsLeftOut, forKey: .tapsLeftOut)
        try c.encode(wrongPairOnsets, forKey: .wrongPairOnsets)
        try c.encode(tapsLeftOutStarts, forKey: .tapsLeftOutStarts)
        try c.encode(precision, forKey: .precision)
        try c.encode(recall, forKey: .recall)
        try c.encodeIfPresent(meanErrorMS, forKey: .meanErrorMS)
        try c.encodeIfPresent(sdErrorMS, forKey: .sdErrorMS)
    }
}

/// `tapkit latency` on a condition in a split (or the whole split, condition `all`).
public struct LatencyGroupScore: Sendable, Encodable, Equatable {
    /// `dev` or `held`.
    public var split: String
    /// The condition's name, or `all`.
    public var condition: String
    /// Items scored.
    public var items: Int
    /// Audible taps.
    public var taps: Int
    /// Taps hit by a reported onset.
    public var hits: Int
    /// Onsets paired with a touch.
    public var matched: Int
    /// Paired onsets on a tap.
    public var matchedOnTaps: Int
    /// Paired onsets on a tap ÷ paired onsets, over all the items together.
    public var precision: Double
    /// Hits ÷ taps.
    public var recall: Double
    /// Items whose latency mean and SD are both within the bound.
    public var itemsWithinBound: Int
    /// The largest |mean error| over the items, ms (nil when none is defined).
    public var worstMeanErrorMS: Double?
    /// The largest |SD error| over the items, ms.
    public var worstSDErrorMS: Double?
    /// The item with the largest latency error (mean or SD, whichever is larger).
    public var worstItem: String

    init(split: String, condition: String, items members: [LatencyItemScore]) {
        self.split = split
        self.condition = condition
        items = members.count
        taps = members.reduce(0) { $0 + $1.taps }
        hits = members.reduce(0) { $0 + $1.hits }
        matched = members.reduce(0) { $0 + $1.matched }
        matchedOnTaps = members.reduce(0) { $0 + $1.matchedOnTaps }
        precision = matched == 0 ? 1 : Double(matchedOnTaps) / Double(matched)
        recall = taps == 0 ? 1 : Double(hits) / Double(taps)
        itemsWithinBound = members.filter(\.latencyWithinBound).count
        // Signed, so the table shows the direction of the largest error.
        func largest(_ values: [Double]) -> Double? { values.max { abs($0) < abs($1) } }
        worstMeanErrorMS = largest(members.compactMap(\.meanErrorMS))
        worstSDErrorMS = largest(members.compactMap(\.sdErrorMS))
        // An item without a latency is the worst there is.
        func badness(_ s: LatencyItemScore) -> Double {
            guard let mean = s.meanErrorMS, let sd = s.sdErrorMS else { return .infinity }
            return max(abs(mean), abs(sd))
        }
        worstItem = members.max { badness($0) < badness($1) }!.item
    }

    enum CodingKeys: String, CodingKey {
        case split, condition, items, taps, hits, matched, precision, recall
        case matchedOnTaps = "matched_on_taps", itemsWithinBound = "items_within_0_3_ms"
        case worstMeanErrorMS = "worst_latency_mean_error_ms", worstSDErrorMS = "worst_latency_sd_error_ms"
        case worstItem = "worst_item"
    }
}
