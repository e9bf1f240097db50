import TapTestSupport
import Foundation
import Testing
import TapStatistics

@Suite("Histogram")
struct HistogramTests {
    @Test("default origin aligns to the width; edges and centres")
    func integers() {
        let histogram = Histogram(values: [1, 2, 2, 3, 7], binWidth: 2)
        #expect(histogram.origin == 0)
        #expect(histogram.counts == [1, 3, 0, 1])
        #expect(histogram.binEdges == [0, 2, 4, 6, 8])
        #expect(histogram.binCenters == [1, 3, 5, 7])
        #expect(histogram.underflow == 0 && histogram.totalCount == 5)
    }

    @Test("bins are half-open: a value on an edge goes right")
    func halfOpen() {
        #expect(Histogram(values: [0, 1, 2], binWidth: 1).counts == [1, 1, 1])
        #expect(Histogram(values: [0.5, 0.999, 1], binWidth: 1).counts == [2, 1])
    }

    /// In floating point the third edge is 0.30000000000000004, so 0.3 belongs to bin 2;
    /// the histogram follows its own reported edges rather than decimal intuition.
    @Test("assignment agrees with the computed edges")
    func floatingPointEdges() {
        let values = [0.0, 0.05, 0.1, 0.15, 0.29, 0.3]
        let histogram = Histogram(values: values, binWidth: 0.1)
        #expect(histogram.counts == [2, 2, 2])
        let edges = histogram.binEdges
        #expect(edges[3] > 0.3)
        // 1.7/0.1 is exactly 17.0, but the computed edge 17·0.1 = 1.7000000000000002 > 1.7.
        let nudged = Histogram(values: [0, 1.7], binWidth: 0.1)
        #expect(nudged.counts.count == 17 && nudged.counts[16] == 1)
        #expect(nudged.binEdges[16] <= 1.7 && 1.7 < nudged.binEdges[17])
    }

    @Test("negative values (asynchronies)")
    func negativeValues() {
        let histogram = Histogram(values: [-0.013, -0.001, 0.004], binWidth: 0.005)
        #expect(abs(histogram.origin - -0.015) <= 1e-15)
        #expect(histogram.counts == [1, 0, 1, 1])
    }

    @Test("explicit origin: leading empty bins below the data, underflow above it")
    func explicitOrigin() {
        let low = Histogram(values: [2.5, 3.5], binWidth: 1, origin: 0)
        #expect(low.counts == [0, 0, 1, 1] && low.underflow == 0)
        let high = Histogram(values: [-3, 0.5, 1.5, 1.7], binWidth: 1, origin: 0)
        #expect(high.counts == [1, 2] && high.underflow == 1 && high.totalCount == 3)
        let allBelow = Histogram(values: [-2, -1], binWidth: 1, origin: 0)
        #expect(allBelow.counts == [] && allBelow.underflow == 2)
    }

    @Test("empty and single-value input")
    func emptyAndSingle() {
        let empty = Histogram(values: [], binWidth: 0.001)
        #expect(empty.counts.isEmpty && empty.origin == 0 && empty.binEdges == [0] && empty.binCenters.isEmpty)
        #expect(Histogram(values: [], binWidth: 1, origin: 5).origin == 5)
        let single = Histogram(values: [0.0123], binWidth: 0.001)
        #expect(single.counts == [1])
        #expect(single.binEdges[0] <= 0.0123 && 0.0123 < single.binEdges[1])
    }

    @Test("every value lies within its bin's edges (random data)")
    func edgesContainValues() {
        var generator = SplitMix64(seed: 42)
        for _ in 0..<20 {
            let width = generator.uniform(in: 0.0005...0.01)
            let values = (0..<300).map { _ in generator.uniform(in: -0.1...0.2) }
            let histogram = Histogram(values: values, binWidth: width)
            let edges = histogram.binEdges
            var expected = [Int](repeating: 0, count: histogram.counts.count)
            for value in values {
                guard let k = edges.lastIndex(where: { $0 <= value }), k < expected.count else {
                    Issue.record("value \(value) outside the bins")
                    continue
                }
                expected[k] += 1
            }
            #expect(histogram.counts == expected)
            #expect(histogram.totalCount == values.count)
            #expect(histogram.counts.last ?? 0 > 0)
            #expect(histogram.origin <= values.min()!)
        }
    }

    @Test("JSON round trip")
    func codable() throws {
        let histogram = Histogram(values: [0.01, 0.012, 0.02], binWidth: 0.005)
        let decoded = try JSONDecoder().decode(Histogram.self, from: JSONEncoder().encode(histogram))
        #expect(decoded == histogram)
    }
}
