import TapTestSupport
import Foundation
import Testing
import TapStatistics

@Suite("Circular statistics")
struct CircularTests {
    @Test("two symmetric angles")
    func symmetricPair() throws {
        let summary = try #require(CircularSummary(angles: [0.1, -0.1]))
        #expect(summary.count == 2)
        #expect(abs(summary.meanDirection) <= 1e-16)
        #expect(abs(summary.resultantLength - cos(0.1)) <= 1e-15)
        #expect(abs(summary.circularStandardDeviation - (-2 * log(cos(0.1))).squareRoot()) <= 1e-12)
        #expect(abs(summary.circularVariance - (1 - cos(0.1))) <= 1e-15)
    }

    @Test("mean direction wraps across ±π and stays in (−π, π]")
    func wrapAround() throws {
        let summary = try #require(CircularSummary(angles: [Double.pi - 0.1, -Double.pi + 0.2]))
        #expect(abs(summary.meanDirection - (-Double.pi + 0.05)) <= 1e-12)
        let opposite = try #require(CircularSummary(angles: [-Double.pi, -Double.pi]))
        #expect(opposite.meanDirection > 0 && abs(opposite.meanDirection - Double.pi) <= 1e-15)
        // Angles outside one turn are fine: only cos and sin matter.
        let turns = try #require(CircularSummary(angles: [0.3 + 4 * Double.pi, 0.3 - 2 * Double.pi]))
        #expect(abs(turns.meanDirection - 0.3) <= 1e-12)
    }

    @Test("identical angles: R = 1, SD = 0")
    func identical() throws {
        let summary = try #require(CircularSummary(angles: [1.2, 1.2, 1.2]))
        #expect(summary.resultantLength == 1 && summary.circularStandardDeviation == 0)
        #expect(abs(summary.meanDirection - 1.2) <= 1e-15)
    }

    @Test("uniform spread: R ≈ 0")
    func uniform() throws {
        let angles = (0..<4).map { Double($0) * Double.pi / 2 }
        let summary = try #require(CircularSummary(angles: angles))
        #expect(summary.resultantLength <= 1e-15)
        #expect(summary.circularStandardDeviation > 8)
    }

    @Test("empty input gives nil")
    func empty() {
        #expect(CircularSummary(angles: []) == nil)
        #expect(CircularSummary(times: [], period: 0.5) == nil)
    }

    @Test("phase angles of times", arguments: [
        (0.25, 1.0, Double.pi / 2), (1.25, 1, Double.pi / 2), (-0.25, 1, -Double.pi / 2),
        (0.5, 1, Double.pi), (-0.5, 1, Double.pi), (0, 1, 0), (-0.03, 0.6, -0.1 * Double.pi),
        (1.2 + 0.15, 0.6, Double.pi / 2),
    ])
    func phaseAngles(time: Double, period: Double, expected: Double) {
        #expect(abs(phaseAngle(time: time, period: period) - expected) <= 1e-12)
    }

    @Test("time from phase angle inverts phaseAngle within a period")
    func inverse() {
        #expect(abs(timeFromPhaseAngle(Double.pi / 2, period: 0.6) - 0.15) <= 1e-15)
        #expect(abs(timeFromPhaseAngle(-Double.pi / 2 + 2 * Double.pi, period: 0.6) - -0.15) <= 1e-14)
        for time in stride(from: -0.29, through: 0.3, by: 0.01) {
            let angle = phaseAngle(time: time, period: 0.6)
            #expect(abs(timeFromPhaseAngle(angle, period: 0.6) - time) <= 1e-15)
        }
    }

    @Test("asynchronies summarized as phases")
    func asynchronies() throws {
        let summary = try #require(CircularSummary(times: [-0.02, -0.03, -0.025], period: 0.5))
        #expect(abs(summary.meanDirection - 2 * Double.pi * -0.025 / 0.5) <= 1e-12)
        #expect(abs(timeFromPhaseAngle(summary.meanDirection, period: 0.5) - -0.025) <= 1e-12)
    }

    /// For concentrated data the circular SD approaches the linear SD (σ = 0.05 rad here;
    /// with n = 4000 the sampling error is about 1 %).
    @Test("circular SD ≈ linear SD for concentrated angles")
    func concentrated() throws {
        var generator = SplitMix64(seed: 2024)
        let angles = (0..<4000).map { _ in 2.5 + 0.05 * generator.normal() }
        let summary = try #require(CircularSummary(angles: angles))
        #expect(abs(summary.circularStandardDeviation - 0.05) <= 0.0025)
        #expect(abs(summary.meanDirection - 2.5) <= 0.005)
    }

    @Test("JSON round trip")
    func codable() throws {
        let summary = try #require(CircularSummary(angles: [0.2, 0.4, -0.1]))
        let decoded = try JSONDecoder().decode(CircularSummary.self, from: JSONEncoder().encode(summary))
        #expect(decoded == summary)
    }
}
