import Foundation
import Testing
import TapStatistics

@Suite("Summary")
struct SummaryTests {
    /// Reference values from R / NumPy for c(3.1, -1.2, 4.7, 0, 2.2, 9.8, 5.5):
    /// mean 3.442857142857143, sd 3.680967781647078, quantile type 7: 1.1, 3.1, 5.1,
    /// mad(constant = 1) 2.4, t.test CI (0.0385297403051390, 6.847184545409148).
    @Test("matches R on a mixed-sign sample")
    func mixedSample() throws {
        let summary = try #require(Summary([3.1, -1.2, 4.7, 0.0, 2.2, 9.8, 5.5]))
        #expect(summary.count == 7)
        #expect(isClose(summary.mean, 3.442857142857143, relative: 1e-14))
        #expect(isClose(try #require(summary.standardDeviation), 3.680967781647078, relative: 1e-14))
        #expect(isClose(try #require(summary.standardError), 1.391275047754182, relative: 1e-14))
        #expect(isClose(summary.lowerQuartile, 1.1, relative: 1e-14))
        #expect(summary.median == 3.1)
        #expect(isClose(summary.upperQuartile, 5.1, relative: 1e-14))
        #expect(isClose(summary.interquartileRange, 4.0, relative: 1e-14))
        #expect(isClose(summary.medianAbsoluteDeviation, 2.4, relative: 1e-14))
        #expect(isClose(summary.scaledMAD, 3.55824, relative: 1e-14))
        #expect(summary.minimum == -1.2)
        #expect(summary.maximum == 9.8)
        let interval = try #require(summary.confidenceInterval95)
        #expect(isClose(interval.lowerBound, 0.038529740305139004, relative: 1e-12))
        #expect(isClose(interval.upperBound, 6.847184545409148, relative: 1e-12))
    }

    /// Latencies in seconds: c(.012, .015, .011, .019, .014, .013).
    @Test("matches R on small latencies in seconds")
    func latencies() throws {
        let summary = try #require(Summary([0.012, 0.015, 0.011, 0.019, 0.014, 0.013]))
        #expect(isRelativelyClose(summary.mean, 0.014, 1e-14))
        #expect(isRelativelyClose(try #require(summary.standardDeviation), 0.00282842712474619, 1e-12))
        #expect(isRelativelyClose(summary.lowerQuartile, 0.01225, 1e-12))
        #expect(isRelativelyClose(summary.median, 0.0135, 1e-12))
        #expect(isRelativelyClose(summary.upperQuartile, 0.01475, 1e-12))
        #expect(isRelativelyClose(summary.medianAbsoluteDeviation, 0.0015, 1e-12))
        let interval = try #require(summary.confidenceInterval95)
        #expect(isRelativelyClose(interval.lowerBound, 0.011031747770442822, 1e-12))
        #expect(isRelativelyClose(interval.upperBound, 0.016968252229557175, 1e-12))
    }

    @Test("empty input gives nil")
    func empty() {
        #expect(Summary([]) == nil)
    }

    @Test("values near the largest Double: an infinite spread, a mean among them, no crash")
    func extremeValues() throws {
        // Their sum, and their deviations' squares, pass the largest Double.
        let summary = try #require(Summary([1.7e308, 1.6e308, -1e300]))
        #expect(summary.mean.isFinite && summary.mean > 1e307 && summary.mean <= 1.7e308)
        #expect(summary.standardDeviation == .infinity && summary.standardError == .infinity)
        #expect(summary.confidenceInterval95 == -Double.infinity ... .infinity)
        #expect(summary.median == 1.6e308)
        let wide = try #require(Summary([1.7e308, -1.7e308]))
        #expect(wide.mean.isFinite && wide.standardDeviation == .infinity)
        // Ordinary values are summarised as before.
        let ordinary = try #require(Summary([1, 2, 3, 4]))
        #expect(ordinary.mean == 2.5 && abs(ordinary.standardDeviation! - 1.2909944487358056) < 1e-15)
    }

    @Test("one value: location only, no spread-based fields")
    func singleValue() throws {
        let summary = try #require(Summary([-0.25]))
        #expect(summary.count == 1)
        #expect(summary.mean == -0.25 && summary.median == -0.25)
        #expect(summary.minimum == -0.25 && summary.maximum == -0.25)
        #expect(summary.lowerQuartile == -0.25 && summary.upperQuartile == -0.25)
        #expect(summary.interquartileRange == 0 && summary.medianAbsoluteDeviation == 0)
        #expect(summary.standardDeviation == nil)
        #expect(summary.standardError == nil)
        #expect(summary.variance == nil)
        #expect(summary.confidenceInterval95 == nil)
        #expect(summary.confidenceInterval(level: 0.99) == nil)
    }

    @Test("two values: CI uses t(0.975, 1) = 12.7062047361747")
    func twoValues() throws {
        let summary = try #require(Summary([4, 2]))
        #expect(summary.mean == 3)
        #expect(isClose(try #require(summary.standardDeviation), 2.0.squareRoot(), relative: 1e-15))
        #expect(isClose(try #require(summary.standardError), 1, relative: 1e-15))
        #expect(summary.lowerQuartile == 2.5 && summary.median == 3 && summary.upperQuartile == 3.5)
        #expect(summary.medianAbsoluteDeviation == 1)
        let interval = try #require(summary.confidenceInterval95)
        #expect(isClose(interval.lowerBound, 3 - 12.706204736174693, relative: 1e-13))
        #expect(isClose(interval.upperBound, 3 + 12.706204736174693, relative: 1e-13))
    }

    @Test("constant data: exact mean, zero spread, degenerate CI")
    func allEqual() throws {
        let summary = try #require(Summary(Array(repeating: 0.1, count: 7)))
        #expect(summary.mean == 0.1)
        #expect(summary.standardDeviation == 0)
        #expect(summary.confidenceInterval95 == 0.1...0.1)
        #expect(summary.medianAbsoluteDeviation == 0 && summary.interquartileRange == 0)
    }

    @Test("negative values: mirror image of the positive sample")
    func negatedSample() throws {
        let values = [3.1, -1.2, 4.7, 0.0, 2.2, 9.8, 5.5]
        let positive = try #require(Summary(values))
        let negative = try #require(Summary(values.map { -$0 }))
        #expect(isClose(negative.mean, -positive.mean, relative: 1e-15))
        #expect(negative.standardDeviation == positive.standardDeviation)
        #expect(isClose(negative.lowerQuartile, -positive.upperQuartile, relative: 1e-15))
        #expect(isClose(negative.upperQuartile, -positive.lowerQuartile, relative: 1e-15))
        #expect(negative.minimum == -positive.maximum)
        #expect(isClose(negative.medianAbsoluteDeviation, positive.medianAbsoluteDeviation, relative: 1e-15))
    }

    /// The textbook catastrophic-cancellation case: the naive Σx² − n·mean² formula loses
    /// every digit here, a stable algorithm gives variance 30 exactly.
    @Test("large offset does not destroy the variance")
    func largeOffset() throws {
        let summary = try #require(Summary([4, 7, 13, 16].map { 1e9 + $0 }))
        #expect(summary.mean == 1e9 + 10)
        #expect(isClose(try #require(summary.variance), 30, relative: 1e-12))
    }

    /// sum/n rounds to 0.7686666666666667; the corrected two-pass mean gives the correctly
    /// rounded 0.7686666666666666 (checked with exact rational arithmetic).
    @Test("mean is correctly rounded where the naive sum/n is not")
    func correctedMean() throws {
        let summary = try #require(Summary([0.686, 0.969, 0.726, 0.528, 0.764, 0.939]))
        #expect(summary.mean == 0.7686666666666666)
    }

    @Test("confidenceInterval(level: 0.95) equals confidenceInterval95; 99 % is wider")
    func otherLevels() throws {
        let summary = try #require(Summary([0.5, 1.5, 2.0, 3.25, 4.0]))
        let ninetyFive = try #require(summary.confidenceInterval(level: 0.95))
        let stored = try #require(summary.confidenceInterval95)
        #expect(ninetyFive == stored)
        let ninetyNine = try #require(summary.confidenceInterval(level: 0.99))
        #expect(ninetyNine.lowerBound < stored.lowerBound && ninetyNine.upperBound > stored.upperBound)
        // t(0.995, 4) = 4.604094871349992
        let se = try #require(summary.standardError)
        #expect(isClose(ninetyNine.upperBound - summary.mean, 4.604094871349992 * se, relative: 1e-12))
    }

    @Test("JSON round trip preserves every field")
    func codable() throws {
        let summary = try #require(Summary([0.012, 0.015, 0.011, 0.019]))
        let data = try JSONEncoder().encode(summary)
        #expect(try JSONDecoder().decode(Summary.self, from: data) == summary)
        let single = try #require(Summary([1]))
        #expect(try JSONDecoder().decode(Summary.self, from: JSONEncoder().encode(single)) == single)
    }

    @Test("NaN or infinite input is a precondition failure")
    func nonFiniteTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Summary([1, .nan, 2])
        }
        await #expect(processExitsWith: .failure) {
            _ = Summary([1, .infinity])
        }
    }
}
