/// One-to-one, order-preserving assignment of touches to onsets.
///
/// Among all sets of candidate pairs that are strictly increasing in both touch and onset
/// position (so pairs never cross and nothing is used twice), it picks the one with the
/// most pairs and, among those, the smallest sum of squared residuals.
///
/// This is the weighted form of the longest-common-subsequence recurrence restricted to
/// candidate pairs, as in Hunt & Szymanski (1977, "A fast algorithm for computing longest
/// common subsequences", CACM 20(5)): only pairs within the tolerance band are visited —
/// like a Sakoe–Chiba band in dynamic time warping, but following the latency model —
/// and the best chain ending before each onset is kept in a Fenwick tree for prefix
/// maxima (Fenwick 1994). Cost O(P log m) time and O(P + m) memory for P candidates and
/// m onsets; P is a few per touch, so an hour of tapping takes milliseconds.
struct OrderPreservingAssignment {
    /// `(touch position, onset position)` of the chosen pairs, in increasing order.
    var pairs: [(touch: Int, onset: Int)] = []

    init(candidates: CandidatePairs, onsetCount: Int) {
        let count = candidates.count
        guard count > 0, onsetCount > 0 else { return }
        // Best chain ending with candidate e: its length, its sum of squares, its predecessor.
        var length = [Int](repeating: 0, count: count)
        var squares = [Double](repeating: 0, count: count)
        var previous = [Int](repeating: -1, count: count)
        var tree = PrefixBest(size: onsetCount)

        func better(_ a: Int, than b: Int) -> Bool {
            if b < 0 { return true }
            if length[a] != length[b] { return length[a] > length[b] }
            return squares[a] < squares[b]
        }

        var rowStart = 0
        while rowStart < count {
            // Candidates of one touch are evaluated against earlier touches only, then
            // inserted together, so a touch never chains onto itself.
            var rowEnd = rowStart
            while rowEnd < count && candidates.touch[rowEnd] == candidates.touch[rowStart] {
                rowEnd += 1
            }
            for e in rowStart..<rowEnd {
                let r = candidates.residual[e]
                let p = tree.best(before: candidates.onset[e], better: better)
                previous[e] = p
                length[e] = 1 + (p >= 0 ? length[p] : 0)
                squares[e] = r * r + (p >= 0 ? squares[p] : 0)
            }
            for e in rowStart..<rowEnd {
                tree.offer(e, at: candidates.onset[e], better: better)
            }
            rowStart = rowEnd
        }

        var e = tree.best(before: onsetCount, better: better)
        var chain: [(touch: Int, onset: Int)] = []
        while e >= 0 {
            chain.append((candidates.touch[e], candidates.onset[e]))
            e = previous[e]
        }
        pairs = chain.reversed()
    }
}
