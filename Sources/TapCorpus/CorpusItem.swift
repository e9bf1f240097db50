import TapAudio
import TapStatistics

/// One item of the corpus: which condition and split, its number, and the seed it is
/// rendered from.
public struct CorpusItem: Sendable, Equatable, Hashable {
    /// The condition.
    public var condition: CorpusCondition
    /// `dev` or `held`.
    public var split: CorpusSplit
    /// 1-based number within the condition and split.
    public var index: Int
    /// The item's own seed, derived from the corpus seed, the condition's name, the split and
    /// the index: an item does not change when conditions are added or the count changes.
    public var seed: UInt64

    /// `<condition>-<split>-<index>`, e.g. `gated-held-2`: the stem of every file of the item.
    public var name: String { "\(condition.name)-\(split.rawValue)-\(index)" }

    /// The item `index` (from 1) of `condition` in `split` of the corpus seeded `corpusSeed`.
    public init(condition: CorpusCondition, split: CorpusSplit, index: Int, corpusSeed: UInt64) {
        self.condition = condition
        self.split = split
        self.index = index
        seed = SeededGenerator.derivedSeed(corpusSeed, [Self.label(condition.name), split.seedLabel, UInt64(index)])
    }

    /// FNV-1a of the condition's name: a label that does not depend on the order of the cases.
    static func label(_ name: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    /// Every item of a corpus: per condition and split, `itemsPerSplit` items.
    public static func all(corpusSeed: UInt64, itemsPerSplit: Int = 2,
                           conditions: [CorpusCondition] = CorpusCondition.allCases) -> [CorpusItem] {
        conditions.flatMap { condition in
            CorpusSplit.allCases.flatMap { split in
                (1...max(1, itemsPerSplit)).map { CorpusItem(condition: condition, split: split, index: $0, corpusSeed: corpusSeed) }
            }
        }
    }
}

/// A sound in the recording that is not a tap, to explain spurious onsets.
public struct CorpusEvent: Sendable, Equatable, Codable {
    /// Start in the recording, seconds.
    public var time: Double
    /// What it is: `knock`, `cough`, `click` (TapSim's bleed), the foreign metronome's name,
    /// `music-note`, `speech`, `key-press`, `key-release`, `thump`, `rub`.
    public var kind: String
    /// About how long it lasts, seconds.
    public var duration: Double

    /// An event of `kind` at `time` lasting about `duration` seconds.
    public init(time: Double, kind: String, duration: Double) {
        self.time = time
        self.kind = kind
        self.duration = duration
    }
}

/// A touch the app logged during the task, and the tap it stands for: what `tapkit latency`
/// matches the onsets with, and the truth its latency is scored against.
public struct CorpusTouch: Sendable, Equatable {
    /// The logged time, seconds on the recording's clock (microseconds, as an app logs them).
    public var time: Double
    /// True start of the tap it logs, seconds; nil for a spurious touch (no tap).
    public var tapStart: Double?
    /// The touch's true latency, the unrounded touch time − the tap's start, seconds; nil
    /// for a spurious touch.
    public var latency: Double?
    /// Whether the tap made a sound (false for a silent tap and for a spurious touch).
    public var audible: Bool

    /// A touch at `time` for a tap starting at `tapStart` (nil: spurious).
    public init(time: Double, tapStart: Double?, latency: Double?, audible: Bool) {
        self.time = time
        self.tapStart = tapStart
        self.latency = latency
        self.audible = audible
    }

    /// The true latency mean and sample SD (n − 1) over the touches of audible taps, seconds:
    /// TapSim's definition (`TaskTruth.trueLatencyMean`). Nil without such a touch; SD nil
    /// below two.
    public static func trueLatency(_ touches: [CorpusTouch]) -> (mean: Double, sd: Double?)? {
        let latencies = touches.filter(\.audible).compactMap(\.latency)
        guard !latencies.isEmpty else { return nil }
        let mean = latencies.reduce(0, +) / Double(latencies.count)
        guard latencies.count > 1 else { return (mean, nil) }
        let variance = latencies.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(latencies.count - 1)
        return (mean, variance.squareRoot())
    }
}

/// A rendered item, in memory.
public struct RenderedItem: Sendable {
    /// Which item it is.
    public var item: CorpusItem
    /// The recording as the detector gets it (mono; at the condition's rate).
    public var audio: Signal
    /// The true start of every audible tap, seconds, ascending.
    public var tapTimes: [Double]
    /// Other sounds, by time.
    public var events: [CorpusEvent]
    /// The touches the app logged, ascending, with the tap each stands for.
    public var touches: [CorpusTouch]
    /// The clean stimulus as played, from time 0 of the recording, at its own rate.
    public var stimulus: Signal?
    /// Delay of the processing measured by cross-correlating the output with its input
    /// around the loudest taps (seconds, positive = later); nil when nothing was processed.
    /// The truth is never shifted by it.
    public var processingDelay: Double?
    /// `key=value` pairs separated by `;`: the drawn parameters and measured levels.
    public var notes: String
}
