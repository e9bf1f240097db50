import TapTestSupport
import Testing
import TapStatistics

/// Invariants checked on seeded random samples (SplitMix64), including small n and ties.
@Suite("Summary properties")
struct PropertyTests {
    /// Random samples of size 1...200, some with heavy ties (rounded to 1 ms).
    static func samples(seed: UInt64, count: Int = 40) -> [[Double]] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { index in
            let n = 1 + Int(generator.next() % 200)
            let centre = generator.uniform(in: -0.1...0.1)
            let spread = generator.uniform(in: 0.001...0.05)
            let values = (0..<n).map { _ in centre + spread * generator.normal() }
            return index.isMultiple(of: 4) ? values.map { ($0 * 1000).rounded() / 1000 } : values
        }
    }

    @Test("shift moves location, keeps spread", arguments: [1 as UInt64, 2, 3])
    func shiftEquivariance(seed: UInt64) throws {
        for values in Self.samples(seed: seed) {
            let shift = 0.375  // exactly representable, so the shifted data are exact up to rounding
            let a = try #require(Summary(values))
            let b = try #require(Summary(values.map { $0 + shift }))
            let scale = Swift.max(a.maximum - a.minimum, 1e-3)
            #expect(abs(b.mean - (a.mean + shift)) <= 1e-12)
            #expect(abs(b.median - (a.median + shift)) <= 1e-12)
            #expect(abs(b.lowerQuartile - (a.lowerQuartile + shift)) <= 1e-12)
            #expect(abs(b.medianAbsoluteDeviation - a.medianAbsoluteDeviation) <= 1e-12)
            #expect(abs(b.interquartileRange - a.interquartileRange) <= 1e-12)
            if let sdA = a.standardDeviation, let sdB = b.standardDeviation {
                #expect(abs(sdB - sdA) <= 1e-10 * scale)
            } else {
                #expect(a.count == 1 && b.standardDeviation == nil)
            }
        }
    }

    @Test("CI contains the mean and is mean ± t·SE", arguments: [4 as UInt64, 5])
    func confidenceInterval(seed: UInt64) throws {
        for values in Self.samples(seed: seed) where values.count >= 2 {
            let summary = try #require(Summary(values))
            let interval = try #require(summary.confidenceInterval95)
            let se = try #require(summary.standardError)
            let t = studentTQuantile(probability: 0.975, degreesOfFreedom: Double(values.count - 1))
            #expect(interval.contains(summary.mean))
            #expect(abs((interval.upperBound - interval.lowerBound) - 2 * t * se) <= 1e-12)
            #expect(summary.minimum <= summary.lowerQuartile && summary.lowerQuartile <= summary.median)
            #expect(summary.median <= summary.upperQuartile && summary.upperQuartile <= summary.maximum)
            #expect(summary.minimum <= summary.mean && summary.mean <= summary.maximum)
        }
    }

    @Test("scaling by a multiplies spread by |a|", arguments: [6 as UInt64])
    func scaleEquivariance(seed: UInt64) throws {
        for values in Self.samples(seed: seed) where values.count >= 2 {
            let a = try #require(Summary(values))
            let b = try #require(Summary(values.map { -1000 * $0 }))
            let sd = try #require(a.standardDeviation)
            #expect(abs(try #require(b.standardDeviation) - 1000 * sd) <= 1e-12 * 1000 * Swift.max(sd, 1e-3))
            #expect(abs(b.median + 1000 * a.median) <= 1e-12)
            #expect(abs(b.scaledMAD - 1000 * a.scaledMAD) <= 1e-11)
        }
    }

    @Test("quantiles are monotone in p", arguments: [8 as UInt64, 9])
    func quantileMonotone(seed: UInt64) {
        for values in Self.samples(seed: seed, count: 20) {
            let sorted = values.sorted()
            var previous = -Double.infinity
            for i in 0...500 {
                let q = quantile(sorted, Double(i) / 500)
                #expect(q >= previous)
                previous = q
            }
            #expect(quantile(sorted, 0) == sorted.first && quantile(sorted, 1) == sorted.last)
        }
    }

    @Test("order of the input does not matter beyond rounding", arguments: [10 as UInt64])
    func permutationInvariance(seed: UInt64) throws {
        for values in Self.samples(seed: seed) {
            let a = try #require(Summary(values))
            let b = try #require(Summary(values.reversed()))
            #expect(a.median == b.median && a.medianAbsoluteDeviation == b.medianAbsoluteDeviation)
            #expect(abs(a.mean - b.mean) <= 1e-15)
        }
    }
}
