extension Array where Element: Comparable {
    /// The index of the first element at or above `value` in this ascending array
    /// (`count` when there is none): a binary search, O(log n).
    func firstIndex(notBelow value: Element) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension Array where Element: Comparable & AdditiveArithmetic {
    /// Whether this ascending array holds an element within `tolerance` of `target`
    /// (inclusive): a binary search, O(log n).
    func contains(_ target: Element, within tolerance: Element) -> Bool {
        let next = firstIndex(notBelow: target - tolerance)
        return next < count && self[next] <= target + tolerance
    }

    /// The element of this ascending array nearest to `target` (nil when empty): a binary
    /// search, O(log n).
    func nearest(to target: Element) -> Element? {
        let next = firstIndex(notBelow: target)
        let candidates = [next > 0 ? self[next - 1] : nil, next < count ? self[next] : nil].compactMap { $0 }
        return candidates.min { distance($0, target) < distance($1, target) }
    }

    private func distance(_ a: Element, _ b: Element) -> Element { a > b ? a - b : b - a }
}
