import Foundation
import Testing
@testable import TapStatistics

@Suite("PortableMath")
struct PortableMathTests {
    /// Relative error allowed against libm: a few ulps.
    let tolerance = 4e-16

    func relativeError(_ a: Double, _ b: Double) -> Double {
        b == 0 ? abs(a) : abs(a - b) / abs(b)
    }

    @Test("exp agrees with libm over [-700, 700]")
    func exponential() {
        var x = -700.0
        while x <= 700 {
            #expect(relativeError(PortableMath.exp(x), Foundation.exp(x)) < tolerance, "x = \(x)")
            x += 0.731
        }
        for x in [0.0, 1e-300, -1e-12, 0.5, -0.5, 1, 2.302585092994046] {
            #expect(relativeError(PortableMath.exp(x), Foundation.exp(x)) < tolerance, "x = \(x)")
        }
        #expect(PortableMath.exp(0) == 1)
        #expect(PortableMath.exp(800) == .infinity)
        #expect(PortableMath.exp(-800) == 0)
        #expect(PortableMath.exp(.nan).isNaN)
        #expect(PortableMath.exp(-.infinity) == 0)
    }

    @Test("log agrees with libm from 1e-300 to 1e300, including subnormals")
    func logarithm() {
        var x = 1e-300
        while x < 1e300 {
            #expect(abs(PortableMath.log(x) - Foundation.log(x)) <= tolerance * max(1, abs(Foundation.log(x))),
                    "x = \(x)")
            x *= 1.37
        }
        for x in [1.0, 0.5, 2, 1.4142135623730951, 0.7071, 1 + 1e-12, Double.leastNonzeroMagnitude, 0x1p-1030] {
            #expect(abs(PortableMath.log(x) - Foundation.log(x)) <= tolerance * max(1, abs(Foundation.log(x))),
                    "x = \(x)")
        }
        #expect(PortableMath.log(1) == 0)
        #expect(PortableMath.log(0) == -.infinity)
        #expect(PortableMath.log(-1).isNaN)
        #expect(PortableMath.log(.nan).isNaN)
        #expect(PortableMath.log(.infinity) == .infinity)
    }

    @Test("sin and cos agree with libm over [-1000, 1000]")
    func trigonometry() {
        var x = -1000.0
        while x <= 1000 {
            #expect(abs(PortableMath.sin(x) - Foundation.sin(x)) < 1e-13, "x = \(x)")
            #expect(abs(PortableMath.cos(x) - Foundation.cos(x)) < 1e-13, "x = \(x)")
            x += 0.0917
        }
        #expect(PortableMath.sin(0) == 0)
        #expect(PortableMath.cos(0) == 1)
        #expect(abs(PortableMath.sin(PortableMath.pi / 6) - 0.5) < 1e-16)
    }

    @Test("decibel conversions")
    func decibels() {
        #expect(abs(PortableMath.amplitude(decibels: 20) - 10) < 1e-14)
        #expect(abs(PortableMath.power(decibels: -50) - 1e-5) < 1e-19)
        #expect(abs(PortableMath.pow10(3) - 1000) < 1e-12)
    }
}
