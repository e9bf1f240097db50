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
        guard next > 0 else { return first }
        guard next < count else { return last }
        // self[next - 1] < target <= self[next]: both differences are non-negative.
        return target - self[next - 1] <= self[next] - target ? self[next - 1] : self[next]
    }
}
