/// The mean power of each of the first `count` windows of `window` frames of `samples`: the
/// short-time power the click template's tests and the detection band's survey read.
func windowPowers(_ samples: ArraySlice<Float>, window: Int, count: Int) -> [Double] {
    (0..<count).map { w in
        let first = samples.startIndex + w * window
        var sum = 0.0
        for value in samples[first..<(first + window)] { sum += Double(value) * Double(value) }
        return sum / Double(window)
    }
}
