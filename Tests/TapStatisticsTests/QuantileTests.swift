import Testing
import TapStatistics

@Suite("Type-7 quantiles")
struct QuantileTests {
    @Test("R: quantile(1:10) = 1, 3.25, 5.5, 7.75, 10")
    func integersOneToTen() {
        let values = (1...10).map(Double.init)
        let expected: [(Double, Double)] = [(0, 1), (0.25, 3.25), (0.5, 5.5), (0.75, 7.75), (1, 10)]
        for (p, q) in expected {
            #expect(abs(quantile(values, p) - q) <= 1e-12, "p = \(p)")
        }
    }

    @Test("R: quantile(c(-1.2, 0, 2.2, 3.1, 4.7, 5.5, 9.8), c(.1, .9))")
    func interpolatesBetweenOrderStatistics() {
        let sorted = [-1.2, 0.0, 2.2, 3.1, 4.7, 5.5, 9.8]
        #expect(abs(quantile(sorted, 0.1) - -0.48) <= 1e-12)
        #expect(abs(quantile(sorted, 0.9) - 7.22) <= 1e-12)
        #expect(quantile(sorted, 0.5) == 3.1)
    }

    @Test("one value: every quantile is that value")
    func singleValue() {
        for p in [0, 0.3, 0.5, 1.0] { #expect(quantile([-4.25], p) == -4.25) }
    }

    @Test("two values interpolate linearly")
    func twoValues() {
        #expect(quantile([1, 3], 0.25) == 1.5)
        #expect(quantile([1, 3], 0.5) == 2)
        #expect(quantile([1, 3], 1) == 3)
    }

    @Test("ties stay exact")
    func ties() {
        #expect(quantile([2, 2, 2, 5], 0.5) == 2)
        #expect(quantile([0.1, 0.1, 0.1], 0.37) == 0.1)
    }
}
