/// A quantile over a sliding window of dB values, kept in a fixed histogram so that adding,
/// removing and querying cost O(1) amortised. Resolution: one bin.
struct SlidingQuantile: Sendable {
    private let lowest: Double
    private let binWidth: Double
    private let binsPerUnit: Double
    private var counts: [Int32]
    private let quantile: Double
    private var total = 0
    /// Bin the quantile currently sits in, and how many values lie in bins below it.
    private var cursor = 0
    private var belowCursor = 0

    init(quantile: Double, lowest: Double = -240, highest: Double = 40, binWidth: Double = 0.25) {
        self.quantile = quantile
        self.lowest = lowest
        self.binWidth = binWidth
        binsPerUnit = 1 / binWidth
        counts = [Int32](repeating: 0, count: Int(((highest - lowest) / binWidth).rounded(.up)) + 1)
    }

    @inline(__always)
    private func bin(_ value: Double) -> Int {
        // Clamped before the conversion, which traps on NaN and on values beyond Int: a
        // script may hand the detector samples that no file reader would pass.
        let scaled = (value - lowest) * binsPerUnit
        guard scaled > 0 else { return 0 }  // also NaN
        guard scaled < Double(counts.count - 1) else { return counts.count - 1 }
        return Int(scaled)
    }

    // Inlined, and without a branch on the cursor: the detector inserts and removes two
    // values per hop for each of its two quantiles, and for a median a value lands below the
    // cursor about half of the time, a branch the processor cannot predict.
    @inline(__always)
    mutating func insert(_ value: Double) {
        let index = bin(value)
        counts[index] &+= 1
        total &+= 1
        belowCursor &+= index < cursor ? 1 : 0
    }

    @inline(__always)
    mutating func remove(_ value: Double) {
        let index = bin(value)
        counts[index] &-= 1
        total &-= 1
        belowCursor &-= index < cursor ? 1 : 0
    }

    /// The quantile (bin centre), or nil when the window is empty.
    mutating func value() -> Double? {
        guard total > 0 else { return nil }
        let rank = Int(quantile * Double(total - 1))  // 0-based rank of the wanted value
        while belowCursor > rank, cursor > 0 {
            cursor -= 1
            belowCursor -= Int(counts[cursor])
        }
        while belowCursor + Int(counts[cursor]) <= rank, cursor < counts.count - 1 {
            belowCursor += Int(counts[cursor])
            cursor += 1
        }
        return lowest + (Double(cursor) + 0.5) * binWidth
    }
}
