/// The mean power of each of the first `count` windows of `window` frames of `samples`: the
/// short-time power in which the click template finds the clicks' louder sounds and its
/// audible length, and the detection band's survey reads taps and background.
func windowPowers(_ samples: ArraySlice<Float>, window: Int, count: Int) -> [Double] {
    (0..<count).map { w in
        let first = samples.startIndex + w * window
        var sum = 0.0
        for value in samples[first..<(first + window)] { sum += Double(value) * Double(value) }
        return sum / Double(window)
    }
}
