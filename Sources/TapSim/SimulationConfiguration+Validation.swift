/// A configuration value the simulator cannot work with.
public struct SimulationConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The offending field, as named in ``SimulationConfiguration``.
    public var field: String
    /// Why the value is rejected.
    public var reason: String

    /// Creates an error for `field`.
    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    /// "`field`: reason".
    public var description: String { "\(field): \(reason)" }
}

extension SimulationConfiguration {
    /// Checks every field; throws for the first value the simulator cannot honour.
    /// The `simulate…` functions stop with a precondition failure on such a configuration.
    public func validate() throws(SimulationConfigurationError) {
        func check(_ ok: Bool, _ field: String, _ reason: String) throws(SimulationConfigurationError) {
            if !ok { throw SimulationConfigurationError(field: field, reason: reason) }
        }
        func finite(_ range: ClosedRange<Double>) -> Bool {
            range.lowerBound.isFinite && range.upperBound.isFinite
        }
        func probability(_ p: Double) -> Bool { p >= 0 && p <= 1 }

        try check(sampleRate.isFinite && sampleRate >= 8000, "sampleRate", "must be at least 8000 Hz")
        try check(channels >= 1, "channels", "must be at least 1")
        try check(taskDuration.isFinite && taskDuration > 0, "taskDuration", "must be positive")
        try check(finite(tempoRange) && tempoRange.lowerBound >= 0.05, "tempoRange",
                  "inter-onset intervals must be at least 0.05 s")
        try check(firstClickTime.isFinite && firstClickTime >= 0, "firstClickTime", "must be ≥ 0")
        try check(endMargin.isFinite && endMargin >= 0, "endMargin", "must be ≥ 0")
        try check(leadInClicks >= 0, "leadInClicks", "must be ≥ 0")
        try check(asynchronyMean.isFinite, "asynchronyMean", "must be finite")
        try check(asynchronyMeanSpread.isFinite && asynchronyMeanSpread >= 0,
                  "asynchronyMeanSpread", "must be ≥ 0")
        try check(asynchronySD.isFinite && asynchronySD >= 0, "asynchronySD", "must be ≥ 0")
        try check(finite(snrRange), "snrRange", "must be finite")
        try check(noiseLevelDBFS.isFinite && noiseLevelDBFS <= 0, "noiseLevelDBFS",
                  "must be finite and ≤ 0 dBFS")
        try check(probability(pinkNoiseFraction), "pinkNoiseFraction", "must be in 0...1")
        try check(humFrequency.isFinite && humFrequency > 0 && 5 * humFrequency < sampleRate / 2,
                  "humFrequency", "must be positive with its 5th harmonic below Nyquist")
        try check(humLevelDB?.isFinite ?? true, "humLevelDB", "must be finite or nil")
        try check(bleedLevelRange.map(finite) ?? true, "bleedLevelRange", "must be finite or nil")
        try check(bleedDelay.isFinite && bleedDelay >= 0, "bleedDelay", "must be ≥ 0")
        try check(distractorRate.isFinite && distractorRate >= 0, "distractorRate", "must be ≥ 0")
        try check(probability(knockProbability), "knockProbability", "must be in 0...1")
        try check(finite(distractorLevelRange), "distractorLevelRange", "must be finite")
        try check(distractorClearance.isFinite && distractorClearance >= 0,
                  "distractorClearance", "must be ≥ 0")
        try check(probability(silentTapProbability), "silentTapProbability", "must be in 0...1")
        try check(probability(missedTouchProbability), "missedTouchProbability", "must be in 0...1")
        try check(probability(spuriousTouchProbability), "spuriousTouchProbability",
                  "must be in 0...1")
        try check(bufferFrames >= 1, "bufferFrames", "must be at least 1")
        try check(latencyMean.isFinite && latencyMean >= bufferDuration / 2, "latencyMean",
                  "must be at least half a buffer (the mean quantisation delay)")
        try check(latencySD.isFinite && latencySD * latencySD >= bufferDuration * bufferDuration / 12,
                  "latencySD", "must be at least the quantisation SD, buffer/√12")
        try check(clockDriftPPM.isFinite && abs(clockDriftPPM) < 1e5, "clockDriftPPM",
                  "must be finite and below 10⁵ in magnitude")
        try check(peakLimit > 0 && peakLimit <= 1, "peakLimit", "must be in (0, 1]")
    }
}
