import TapTestSupport
import Testing
import TapStatistics

@Suite("Outlier rules")
struct OutlierTests {
    static let sample: [Double] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 100]

    /// Q1 = 3.25, Q3 = 7.75, IQR = 4.5: fences −3.5 and 14.5 (k = 1.5), 97.75 (k = 20).
    @Test("Tukey fences")
    func tukey() {
        #expect(outlierFlags(Self.sample, rule: .tukey()) == Self.sample.map { $0 == 100 })
        #expect(outlierFlags(Self.sample, rule: .tukey(k: 20)) == Self.sample.map { $0 == 100 })
        #expect(outlierFlags(Self.sample, rule: .tukey(k: 30)).allSatisfy { !$0 })
        let low = [-50.0] + Self.sample.dropLast()
        #expect(outlierFlags(low, rule: .tukey()) == low.map { $0 == -50 })
    }

    @Test("Tukey with IQR = 0 flags everything off the quartiles")
    func tukeyZeroSpread() {
        #expect(outlierFlags([2, 2, 2, 2, 3], rule: .tukey()) == [false, false, false, false, true])
    }

    /// median 5.5, MAD 2.5: M(100) = 0.6745·94.5/2.5 = 25.5, M(1) = 1.214, M(9) = 0.944.
    @Test("modified z-score")
    func modifiedZ() {
        #expect(outlierFlags(Self.sample, rule: .modifiedZScore()) == Self.sample.map { $0 == 100 })
        #expect(outlierFlags(Self.sample, rule: .modifiedZScore(threshold: 1.2))
                == Self.sample.map { $0 == 100 || $0 == 1 })
        #expect(outlierFlags(Self.sample, rule: .modifiedZScore(threshold: 26)).allSatisfy { !$0 })
    }

    /// MAD = 0; mean |x − 5| = 16/7, scale 1.253314·16/7 = 2.8647: |M(6)| = 0.35, |M(20)| = 5.24.
    @Test("MAD = 0 falls back to the mean absolute deviation")
    func madZeroFallback() {
        let values: [Double] = [5, 5, 20, 5, 5, 6, 5]
        #expect(outlierFlags(values, rule: .modifiedZScore()) == values.map { $0 == 20 })
        #expect(outlierFlags(values, rule: .modifiedZScore(threshold: 5.3)).allSatisfy { !$0 })
    }

    @Test("degenerate inputs flag nothing")
    func degenerate() {
        #expect(outlierFlags([], rule: .tukey()).isEmpty)
        #expect(outlierFlags([0.3], rule: .modifiedZScore()) == [false])
        #expect(outlierFlags([0.3, 0.3, 0.3], rule: .modifiedZScore()) == [false, false, false])
        #expect(outlierFlags([0.3, 0.3, 0.3], rule: .tukey()) == [false, false, false])
    }

    @Test("flags are invariant to shifting and positive scaling (random data)")
    func invariance() {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<20 {
            var values = (0..<60).map { _ in 0.01 * generator.normal() }
            values[5] = 0.2  // make sure there is something to find
            let transformed = values.map { 4 * $0 - 0.3 }
            for rule in [OutlierRule.tukey(), .modifiedZScore()] {
                let flags = outlierFlags(values, rule: rule)
                #expect(flags[5])
                #expect(outlierFlags(transformed, rule: rule) == flags)
            }
        }
    }
}
