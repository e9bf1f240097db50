import Foundation
import Testing
@testable import TapStatistics

@Suite("Student t and normal quantiles")
struct StudentTTests {
    /// Table values quoted to the digits given in printed tables.
    @Test("printed table values", arguments: [
        (1.0, 12.706204736, 1e-9), (2, 4.302652730, 1e-9), (10, 2.228138852, 1e-9),
        (30, 2.042272456, 1e-9), (1000, 1.962339, 1e-6),
    ])
    func tableValues(df: Double, expected: Double, tolerance: Double) {
        #expect(abs(studentTQuantile(probability: 0.975, degreesOfFreedom: df) - expected) <= tolerance)
    }

    /// Reference quantiles from a 40-digit mpmath root of the regularized incomplete beta
    /// function, covering closed-form, Newton and Cornish–Fisher paths, extreme tails,
    /// non-integer ν and p next to ½.
    @Test("high-precision references to 1e-11 relative", arguments: [
        (0.975, 1.0, 12.706204736174693314), (0.975, 2, 4.3026527297494617894),
        (0.975, 3, 3.1824463052837084359), (0.975, 4, 2.7764451051977934898),
        (0.975, 10, 2.2281388519862742245), (0.975, 30, 2.0422724563012378878),
        (0.975, 1000, 1.9623390808264081039), (0.995, 5, 4.0321429835552271793),
        (0.995, 4, 4.6040948713499920459), (0.95, 3, 2.353363434801822899),
        (0.9, 1.5, 2.1963984175655377638), (0.6, 4, 0.270722294707597363),
        (0.9999999, 7, 19.933902249446191452), (1e-12, 3.5, -3163.030683798014986),
        (1e-30, 1.2, -4.0205493151330070594e24), (0.5000001, 12, 2.5593362568787821815e-7),
        (0.25, 100, -0.67695104301147147794), (0.999, 2.5, 13.822193110865959679),
        (0.975, 1e5, 1.9599877075346092587), (0.975, 999_999, 1.9599663568164789346),
        (1e-100, 2.2, -2.2117717510896669512e45), (0.51, 1e5, 0.025068970970446705394),
        (0.975, 1e7, 1.9599642217672051104), (1e-10, 5e6, -6.3613540916048878806),
        (0.9, 2e6, 1.2815519888371268775), (0.975, 0.5, 164.5576734804882408),
        (1e-8, 1, -31830988.618379056016), (0.2, 1, -1.3763819204711734373),
        (0.7, 1, 0.72654252800536067274), (1e-8, 3.7, -179.37209232102915242),
        (0.2, 3.7, -0.94987782429608442686), (0.7, 3.7, 0.5724353841388496213),
        (1e-8, 25, -8.0708651419341337891), (0.2, 25, -0.85623615767646852384),
        (0.7, 25, 0.53115378958192827379),
        // Either side of the switch to the Cornish–Fisher expansion at ν = 2·10⁴.
        (0.975, 2e4, 1.9600826051581348142), (1e-10, 20_001, -6.364639496368645301),
        (1e-100, 2e4, -21.394636651281659128), (1e-100, 20_001, -21.394630563670271236),
        (0.6, 20_001, 0.25335047309556329842),
    ])
    func references(p: Double, df: Double, expected: Double) {
        let t = studentTQuantile(probability: p, degreesOfFreedom: df)
        #expect(isRelativelyClose(t, expected, 1e-11), "t(\(p), \(df)) = \(t)")
    }

    @Test("normal limit: infinite ν gives 1.959963984540054")
    func normalLimit() {
        let t = studentTQuantile(probability: 0.975, degreesOfFreedom: .infinity)
        #expect(isRelativelyClose(t, 1.9599639845400538556, 1e-14))
    }

    @Test("edges: p = 0, ½, 1")
    func edges() {
        for df in [1.0, 2, 7.5, 1e8, .infinity] {
            #expect(studentTQuantile(probability: 0, degreesOfFreedom: df) == -.infinity)
            #expect(studentTQuantile(probability: 0.5, degreesOfFreedom: df) == 0)
            #expect(studentTQuantile(probability: 1, degreesOfFreedom: df) == .infinity)
        }
    }

    @Test("antisymmetry t(p) = −t(1 − p) and monotone in p", arguments: [1.0, 2, 2.5, 9, 60, 5e6])
    func symmetryAndMonotonicity(df: Double) {
        var previous = -Double.infinity
        for i in 1..<200 {
            let p = Double(i) / 200
            let t = studentTQuantile(probability: p, degreesOfFreedom: df)
            #expect(t > previous, "p = \(p)")
            previous = t
            let mirrored = studentTQuantile(probability: 1 - p, degreesOfFreedom: df)
            #expect(isClose(t, -mirrored, relative: 1e-13))
        }
    }

    @Test("ν → 1 is continuous with the closed form", arguments: [1e-4, 1e-7])
    func continuityAtOne(epsilon: Double) {
        for p in [0.001, 0.3, 0.975] {
            let exact = studentTQuantile(probability: p, degreesOfFreedom: 1)
            let near = studentTQuantile(probability: p, degreesOfFreedom: 1 + epsilon)
            #expect(isRelativelyClose(near, exact, 100 * epsilon))
        }
    }

    @Test("round trip through the t CDF", arguments: [1.5, 3, 17, 250, 40_000])
    func roundTrip(df: Double) {
        for p in [1e-9, 0.01, 0.2, 0.49, 0.51, 0.8, 0.99] {
            let t = studentTQuantile(probability: p, degreesOfFreedom: df)
            let back = studentTCDF(t, degreesOfFreedom: df)
            #expect(isRelativelyClose(back, p, 1e-12), "ν = \(df), p = \(p)")
        }
    }

    @Test("normal quantile references", arguments: [
        (0.975, 1.9599639845400538556), (0.5000001, 2.5066282733116483012e-7),
        (1e-10, -6.3613409024040561991), (1e-300, -37.047096299361199237),
        (0.84, 0.99445788320975303998), (0.999, 3.0902323061678132778),
        (1e-20, -9.2623400897984075796),
    ])
    func normalQuantile(p: Double, expected: Double) {
        #expect(isRelativelyClose(standardNormalQuantile(p), expected, 1e-13))
    }

    // Internal special functions, against mpmath.
    @Test("log-gamma and log-beta")
    func specialFunctions() {
        let logGammas: [(Double, Double)] = [
            (0.5, 0.57236494292470008707), (1, 0), (3.7, 1.4280723266653881292),
            (10, 12.801827480081469611), (123.4, 469.33609744219058579), (1e6, 12815504.56914761166),
        ]
        for (x, expected) in logGammas {
            #expect(abs(logGamma(x) - expected) <= 1e-14 * Swift.max(1, abs(expected)), "x = \(x)")
        }
        #expect(isRelativelyClose(logBeta(5e5, 0.5), -5.9888164957774643103, 1e-13))
        #expect(isRelativelyClose(logBeta(2.5, 3.5), -3.3018352699620526098, 1e-14))
    }

    @Test("regularized incomplete beta")
    func incompleteBeta() {
        func beta(_ a: Double, _ b: Double, _ x: Double) -> Double {
            regularizedIncompleteBeta(a: a, b: b, x: x, y: 1 - x, logX: log(x), logY: log1p(-x)).lower
        }
        #expect(isRelativelyClose(beta(2, 3, 0.4), 0.5248, 1e-14))
        #expect(isRelativelyClose(beta(0.5, 50, 0.01), 0.68269560212580241567, 1e-13))
        #expect(beta(3, 4, 0) == 0 && beta(3, 4, 1) == 1)
        // P(T ≤ 2) with 5 degrees of freedom.
        #expect(isRelativelyClose(studentTCDF(2, degreesOfFreedom: 5), 0.94903026058507082188, 1e-14))
    }
}
