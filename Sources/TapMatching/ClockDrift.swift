/// A linear drift of the touch clock against the audio clock.
///
/// The latency model is `latency(t) = latencyAtZero + ppm × 1e-6 × t`, with `t` the onset
/// time (audio clock, seconds).
public struct ClockDrift: Sendable, Codable, Equatable {
    /// Skew in parts per million: the latency grows by `ppm × 1e-6` seconds per second of
    /// audio. Positive when the touch clock runs fast against the audio clock.
    public var ppm: Double
    /// The modelled latency at audio time zero (seconds).
    public var latencyAtZero: Double
    /// Standard error of ``ppm`` (ppm), from the least-squares fit over the inlying pairs.
    public var standardError: Double

    /// Creates a drift description.
    public init(ppm: Double, latencyAtZero: Double, standardError: Double) {
        self.ppm = ppm
        self.latencyAtZero = latencyAtZero
        self.standardError = standardError
    }

    /// Whether the skew differs from zero by more than three standard errors.
    ///
    /// The drift is reported whatever its size, so that a researcher sees the estimate
    /// with its uncertainty; this flag is the conventional test of "there is drift".
    public var isSignificant: Bool { abs(ppm) > 3 * standardError }

    /// The modelled latency (seconds) at audio time `t` (seconds).
    public func latency(at t: Double) -> Double { latencyAtZero + ppm * 1e-6 * t }
}
