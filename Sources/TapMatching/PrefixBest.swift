/// A Fenwick (binary indexed) tree over onset positions holding, per prefix, the best
/// chain found so far. Values only ever improve, which is what prefix maxima need.
struct PrefixBest {
    private var node: [Int]

    init(size: Int) { node = [Int](repeating: -1, count: size + 1) }

    /// The best candidate inserted at a position `< position`, or −1.
    func best(before position: Int, better: (Int, Int) -> Bool) -> Int {
        var result = -1
        var k = position
        while k > 0 {
            let e = node[k]
            if e >= 0 && (result < 0 || better(e, result)) { result = e }
            k &= k - 1
        }
        return result
    }

    /// Records candidate `e` at `position` where it beats what is there.
    mutating func offer(_ e: Int, at position: Int, better: (Int, Int) -> Bool) {
        var k = position + 1
        while k < node.count {
            if better(e, node[k]) { node[k] = e }
            k += k & -k
        }
    }
}
