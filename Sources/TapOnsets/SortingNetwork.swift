/// A fixed sequence of compare-exchanges that sorts any `count` values: Batcher's odd–even
/// merge sort (K. E. Batcher 1968, "Sorting networks and their applications", AFIPS Spring
/// Joint Computer Conference 32; sorting networks in D. E. Knuth, *The Art of Computer
/// Programming* 3, §5.3.4).
///
/// The compares do not depend on the data, so one pass sorts every lane of a run of SIMD
/// vectors at once, with no branch to mispredict: the click template's trimmed mean sorts
/// eight of its columns side by side (``trimmedMean(_:length:setAside:window:)``).
struct SortingNetwork: Sendable {
    /// The compare-exchanges in order, as pairs of positions (lower, higher): after one, the
    /// smaller value lies at the lower position.
    private let pairs: [(low: Int, high: Int)]

    /// The network for `count` values.
    init(count: Int) {
        var size = 1
        while size < count { size *= 2 }
        // The network for the next power of two, less every compare that reaches past `count`:
        // with the positions past it taken as +∞, such a compare leaves both where they are.
        var pairs: [(low: Int, high: Int)] = []
        var span = 1
        while span < size {
            var distance = span
            while distance >= 1 {
                var start = distance % span
                while start + distance < size {
                    for offset in 0..<min(distance, size - start - distance) {
                        let low = start + offset, high = low + distance
                        // Only within one pair of sorted runs of length `span` being merged.
                        if low / (2 * span) == high / (2 * span), high < count { pairs.append((low, high)) }
                    }
                    start += 2 * distance
                }
                distance /= 2
            }
            span *= 2
        }
        self.pairs = pairs
    }

    /// Sorts each lane of the first `count` vectors at `values` (the count the network was made
    /// for) ascending across the vectors.
    func sortLanes(_ values: UnsafeMutablePointer<SIMD8<Float>>) {
        for (low, high) in pairs {
            let a = values[low], b = values[high]
            // A compare and two blends, which compile to `minps`/`maxps` (not `pointwiseMin`,
            // whose floating-point form returns the number beside a NaN and runs lane by
            // lane): equal values stay where they are.
            let swapped = b .< a
            values[low] = a.replacing(with: b, where: swapped)
            values[high] = b.replacing(with: a, where: swapped)
        }
    }
}
