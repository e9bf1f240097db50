extension SimulationConfiguration {
    /// The defaults: Tap-It-like recordings with noise at −50 dBFS, +10 dB hum, 0–15 dB
    /// metronome bleed, a distractor every 10 s, 2 % silent taps, 2 % missed touches and 1 %
    /// spurious touches.
    public static var tapIt: SimulationConfiguration { SimulationConfiguration() }

    /// An easy check: only a tiny noise floor (−80 dBFS), loud taps (40–60 dB SNR), no hum,
    /// bleed or distractors, and every tap audible and logged exactly once.
    public static var clean: SimulationConfiguration {
        var configuration = SimulationConfiguration()
        configuration.noiseLevelDBFS = -80
        configuration.snrRange = 40...60
        configuration.humLevelDB = nil
        configuration.bleedLevelRange = nil
        configuration.distractorRate = 0
        configuration.silentTapProbability = 0
        configuration.missedTouchProbability = 0
        configuration.spuriousTouchProbability = 0
        return configuration
    }

    /// A stress test: low tap SNRs (6–15 dB), strong bleed (10–20 dB re noise, louder than
    /// many taps), +15 dB hum and a distractor every 3 s.
    public static var hard: SimulationConfiguration {
        var configuration = SimulationConfiguration()
        configuration.snrRange = 6...15
        configuration.bleedLevelRange = 10...20
        configuration.humLevelDB = 15
        configuration.distractorRate = 1.0 / 3
        configuration.distractorClearance = 0.05
        return configuration
    }
}
