import Testing
@testable import TapOnsets

/// The click template's trimmed mean splits the outer quarters off by selection and sorts only
/// the middle half; it must give what sorting every column gives, to the bit.
@Suite struct TrimmedMeanTests {
    /// The trimmed mean as first written: each column sorted whole, the middle half summed.
    func bySorting(_ segments: [[Float]], length: Int) -> [Float] {
        let trim = segments.count / 4, kept = segments.count - 2 * trim
        return (0..<length).map { index in
            let column = segments.map { $0[index] }.sorted()
            var sum: Float = 0
            for value in column[trim..<(trim + kept)] { sum += value }
            return sum / Float(kept)
        }
    }

    @Test(arguments: [1, 3, 6, 7, 17, 64])
    func equalsSortingEveryColumn(segmentCount: Int) {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &* UInt64(segmentCount)
        func next() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int(state >> 52)) / 512 - 4   // few distinct values: many ties
        }
        let length = 500
        let segments = (0..<segmentCount).map { _ in (0..<length).map { index in index % 5 == 0 ? 1 : next() } }
        #expect(trimmedMean(segments, length: length) == bySorting(segments, length: length))
    }

    @Test func selectionSplitsOffTheSmallest() {
        var state: UInt64 = 7
        for trial in 0..<200 {
            let count = 1 + trial % 40
            var values = (0..<count).map { _ -> Float in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Float(Int(state >> 60))
            }
            let sorted = values.sorted()
            let k = trial % (count + 1)
            values.withUnsafeMutableBufferPointer { selectSmallest(k, in: $0) }
            #expect(values[..<k].sorted() == Array(sorted[..<k]), "trial \(trial)")
            #expect(values.sorted() == sorted)
        }
    }
}
