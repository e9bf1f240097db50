import Testing
@testable import TapMatching

/// Pairing accuracy on simulated sessions with known ground truth.
@Suite struct AccuracyTests {
    static let seeds: [UInt64] = [11, 12, 13]

    @Test(arguments: [0.015, -0.040, 0.140])
    func noisySessionsPairAtLeast995PercentCorrectly(latency: Double) {
        // −40 ms and +140 ms sit 10 ms inside the default range's edges.
        let (score, latencyError) = Scenario.pooledScore(
            Scenario.noisy(latency: latency), seeds: Self.seeds)
        #expect(score.precision >= 0.995, "\(score)")
        #expect(score.recall >= 0.995, "\(score)")
        // Residual jitter is ~6 ms over ~1150 pairs per session: the median is within 1 ms.
        #expect(latencyError <= 0.001, "latency error \(latencyError * 1000) ms")
    }

    @Test func noBleedPairsAtLeast998PercentCorrectly() {
        var spec = Scenario.noisy()
        spec.bleedProbability = 0
        let (score, latencyError) = Scenario.pooledScore(spec, seeds: Self.seeds)
        #expect(score.precision >= 0.998, "\(score)")
        #expect(score.recall >= 0.998, "\(score)")
        #expect(latencyError <= 0.001)
    }

    /// When every bleed click is a separate onset, N(30 ms, 20 ms) after its tap, one tap in
    /// five has a click within 15 ms, closer than the touch jitter can discriminate. Even a
    /// Bayes-optimal choice between the two onsets errs on ~4.7 % of taps (nearest-residual
    /// 6.2 %), so exact identity cannot reach 99.5 % here; what the matcher must still get
    /// right is the latency, and the pairs that are not the tap's own onset must be onsets
    /// within 20 ms of it (so the measured latency is off by less than that).
    @Test func unresolvedBleedHasAnAccuracyFloor() {
        var spec = Scenario.noisy()
        spec.detectorResolution = 0
        let (score, latencyError) = Scenario.pooledScore(spec, seeds: Self.seeds)
        #expect(score.precision >= 0.90, "\(score)")
        #expect(score.nearPrecision >= 0.99, "\(score)")
        #expect(latencyError <= 0.0015, "latency error \(latencyError * 1000) ms")
    }

    /// A silent tap (touch, no sound of its own) can only be paired wrongly: with its beat's
    /// bleed or a distractor when one falls inside the tolerance.
    @Test func silentTapsCostLittlePrecision() {
        var spec = Scenario.noisy()
        spec.silentTapFraction = 0.02
        let (score, _) = Scenario.pooledScore(spec, seeds: Self.seeds)
        #expect(score.precision >= 0.985, "\(score)")
        #expect(score.recall >= 0.995, "\(score)")
    }

    @Test func tapItPresetMatchesATapItSession() {
        let (score, latencyError) = Scenario.pooledScore(
            Scenario.noisy(), seeds: Self.seeds, configuration: .tapIt)
        #expect(score.precision >= 0.995, "\(score)")
        #expect(score.recall >= 0.995, "\(score)")
        #expect(latencyError <= 0.001)
    }

    /// An hour at 0.9 s intervals: ~4000 touches, ~6000 onsets (bleed on 80 % of beats,
    /// half of it resolved from the tap).
    @Test func hourLongSessionIsMatched() {
        var spec = Scenario.noisy(taps: 4000)
        spec.interval = 0.9
        spec.bleedProbability = 0.8
        let session = SyntheticSession(spec, seed: 42)
        #expect(session.touches.count >= 3900 && session.onsets.count >= 5800)
        let result = matchTouches(session.touches, toOnsets: session.onsets)
        let score = PairingScore(result, session: session)
        #expect(score.precision >= 0.995, "\(score)")
        #expect(score.recall >= 0.995, "\(score)")
        #expect(abs((result.latencyEstimate ?? .infinity) - session.expectedLatency(spec)) <= 0.001)
        let drift = try! #require(result.drift)
        #expect(abs(drift.ppm) <= 3 * drift.standardError + 0.5)
    }
}
