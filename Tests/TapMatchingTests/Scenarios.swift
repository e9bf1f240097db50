import TapMatching

/// The noisy sessions of the accuracy tests, shared so every test states its variation.
enum Scenario {
    /// Ten minutes of tapping at 2 Hz: 15 ms latency, 5 ms jitter, 3–12 ms buffer
    /// quantization, bleed at tap + N(30 ms, 20 ms) on every beat, 10 % distractor onsets,
    /// 3 % missed touches, 2 % spurious touches. The detector resolves events 30 ms apart:
    /// a bleed click closer to its tap than that cannot be told from the tap by any matcher
    /// that sees only times (see `unresolvedBleedHasAnAccuracyFloor`).
    static func noisy(latency: Double = 0.015, taps: Int = 1200) -> SessionSpec {
        var spec = SessionSpec()
        spec.tapCount = taps
        spec.latency = latency
        spec.detectorResolution = 0.030
        return spec
    }

    /// Matches several seeds of `spec` and pools their scores.
    static func pooledScore(
        _ spec: SessionSpec, seeds: [UInt64],
        configuration: MatchingConfiguration = .default
    ) -> (score: PairingScore, worstLatencyError: Double) {
        var total = PairingScore()
        var worst = 0.0
        for seed in seeds {
            let session = SyntheticSession(spec, seed: seed)
            let result = matchTouches(
                session.touches, toOnsets: session.onsets, configuration: configuration)
            total.add(PairingScore(result, session: session))
            let error = abs((result.latencyEstimate ?? .infinity) - session.expectedLatency(spec))
            worst = max(worst, error)
        }
        return (total, worst)
    }
}
