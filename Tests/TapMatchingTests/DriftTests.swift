import Testing
import TapMatching

/// Clock drift between the touch clock and the audio clock.
@Suite struct DriftTests {
    @Test(arguments: [(50.0, UInt64(21)), (-100.0, UInt64(22))])
    func driftOverTenMinutesIsRecoveredWithin5ppm(ppm: Double, seed: UInt64) throws {
        var spec = Scenario.noisy()  // 1200 taps at 0.5 s: ten minutes
        spec.driftPPM = ppm          // 30 ms / 60 ms of drift over the session
        let session = SyntheticSession(spec, seed: seed)
        let result = matchTouches(session.touches, toOnsets: session.onsets)
        let drift = try #require(result.drift)
        #expect(abs(drift.ppm - ppm) <= 5, "estimated \(drift.ppm) ± \(drift.standardError) ppm")
        #expect(drift.isSignificant)
        // SE ≈ 6 ms / (173 s × √1150) ≈ 1 ppm.
        #expect(drift.standardError > 0.3 && drift.standardError < 3)
        #expect(abs(drift.latencyAtZero - session.expectedLatency(spec)) <= 0.001)
        let score = PairingScore(result, session: session)
        #expect(score.precision >= 0.995, "\(score)")
        #expect(score.recall >= 0.995, "\(score)")
    }

    /// 150 ms of drift over ten minutes: only the drift search of the latency scan can
    /// find a model that the first pass (±40 ms) can follow; without it pairs are lost.
    @Test func largeDriftIsFollowedOnlyWithDriftEstimation() throws {
        var spec = Scenario.noisy()
        spec.latency = 0.130
        spec.driftPPM = -250
        let session = SyntheticSession(spec, seed: 25)
        let result = matchTouches(session.touches, toOnsets: session.onsets)
        let drift = try #require(result.drift)
        #expect(abs(drift.ppm + 250) <= 5, "estimated \(drift.ppm) ppm")
        #expect(PairingScore(result, session: session).recall >= 0.995)

        var constant = MatchingConfiguration.default
        constant.estimatesDrift = false
        let withoutDrift = matchTouches(
            session.touches, toOnsets: session.onsets, configuration: constant)
        #expect(withoutDrift.drift == nil)
        #expect(PairingScore(withoutDrift, session: session).recall < 0.9)
    }

    @Test func steadyClockGivesAnInsignificantDrift() throws {
        let session = SyntheticSession(Scenario.noisy(), seed: 23)
        let result = matchTouches(session.touches, toOnsets: session.onsets)
        let drift = try #require(result.drift)
        #expect(!drift.isSignificant, "estimated \(drift.ppm) ± \(drift.standardError) ppm")
        #expect(abs(drift.ppm) <= 5)
    }

    @Test func shortSessionsReportNoDrift() {
        var spec = Scenario.noisy(taps: 30)  // 15 s, below the 20 s minimum span
        spec.driftPPM = 100
        let session = SyntheticSession(spec, seed: 24)
        let result = matchTouches(session.touches, toOnsets: session.onsets)
        #expect(result.drift == nil)
        #expect(result.pairs.count >= 25)
    }

    @Test func driftModelGivesLatencyAtAnyTime() {
        let drift = ClockDrift(ppm: 50, latencyAtZero: 0.015, standardError: 1)
        #expect(abs(drift.latency(at: 600) - 0.045) < 1e-12)
        #expect(drift.isSignificant)
        #expect(!ClockDrift(ppm: 2, latencyAtZero: 0, standardError: 1).isSignificant)
    }
}
