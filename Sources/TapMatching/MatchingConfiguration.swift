/// Settings for ``matchTouches(_:toOnsets:configuration:)``.
///
/// All times are in seconds. A *latency* is `touchTime − onsetTime`: positive when the
/// device logs a touch after the tap sound. The matcher looks for one latency model
/// `L(t)` (a constant, or a line when clock drift is estimated) and pairs each touch with
/// at most one onset whose latency lies within a *tolerance* of `L(t)`.
///
/// The defaults suit touch screens that log taps 0–100 ms late with a few milliseconds of
/// jitter and audio-buffer quantization (residual spread up to about ±15 ms).
public struct MatchingConfiguration: Sendable, Equatable, Codable {
    /// Where the latency model may lie (default −50 ms … +150 ms).
    ///
    /// Bounds the search for the latency model; individual pairs may deviate from the
    /// model by up to the tolerance. Only touch–onset differences inside this range vote in
    /// the search, so with drift the range also bounds how far the latency may wander over
    /// the session.
    public var latencyRange: ClosedRange<Double>

    /// The largest allowed |latency − L(t)| of a pair (default 40 ms).
    ///
    /// Used for the first assignment pass, and the upper clamp of the adaptive tolerance.
    public var maximumTolerance: Double

    /// The smallest tolerance the adaptive rule may choose (default 20 ms).
    ///
    /// Keeps a few distorted pairs from shrinking the tolerance to nothing when the
    /// residuals are nearly identical (for example frame-exact timestamps).
    public var minimumTolerance: Double

    /// Multiplier `k` of the adaptive tolerance (default 4).
    ///
    /// After a first pass with ``maximumTolerance``, the tolerance of the final passes is
    /// `clamp(k × 1.4826 × MAD(residuals), minimumTolerance, maximumTolerance)`, where
    /// `1.4826 × MAD` estimates the residual SD robustly (it equals the SD for Gaussian
    /// data). A task has only a few dozen taps, so its MAD is a noisy estimate of the spread:
    /// with a 4 ms floor the simulated Tap-It suite lost genuine pairs in the tails (latencies
    /// 12–14 ms from the median when the task's MAD came out small), biasing the SD low by up
    /// to 1.7 ms. A 15 ms floor kept those but still dropped a touch at 0 ms latency, 3.2 SDs
    /// below a 17.5 ms mean (a simulated task's mean then 0.63 ms and its SD 1.1 ms off); the
    /// 20 ms floor, four SDs of Tap-It's 5 ms jitter, keeps it and changed no other task of the
    /// four simulated suites. A larger `k` (6 was tried) admits the touch of a
    /// silent tap paired with leftover bleed 30+ ms off (a task's SD then 3 ms too high). The
    /// adaptive rule needs at least
    /// 8 first-pass pairs; with fewer, ``maximumTolerance`` is kept.
    public var toleranceFactor: Double

    /// Half-width of the kernel used by the latency search (default 5 ms).
    ///
    /// The search scores each candidate latency by an Epanechnikov kernel density of the
    /// touch–onset differences, so a narrow, well-populated cluster beats a broad one with
    /// the same count.
    public var searchHalfWidth: Double

    /// Whether to estimate clock drift between the touch clock and the audio clock
    /// (default `true`).
    public var estimatesDrift: Bool

    /// The fewest pairs for which drift is estimated (default 10).
    public var minimumPairsForDrift: Int

    /// The shortest span of paired onset times (seconds) for which drift is estimated
    /// (default 20 s).
    public var minimumSpanForDrift: Double

    /// The largest drift the latency search considers, in parts per million (default 300).
    ///
    /// Consumer audio crystals are specified to about ±100 ppm each, so two clocks rarely
    /// differ by more than 200 ppm.
    public var maximumDriftPPM: Double

    /// Creates a configuration; every argument defaults to the value of ``default``.
    public init(
        latencyRange: ClosedRange<Double> = -0.050 ... 0.150,
        maximumTolerance: Double = 0.040,
        minimumTolerance: Double = 0.020,
        toleranceFactor: Double = 4,
        searchHalfWidth: Double = 0.005,
        estimatesDrift: Bool = true,
        minimumPairsForDrift: Int = 10,
        minimumSpanForDrift: Double = 20,
        maximumDriftPPM: Double = 300
    ) {
        self.latencyRange = latencyRange
        self.maximumTolerance = maximumTolerance
        self.minimumTolerance = minimumTolerance
        self.toleranceFactor = toleranceFactor
        self.searchHalfWidth = searchHalfWidth
        self.estimatesDrift = estimatesDrift
        self.minimumPairsForDrift = minimumPairsForDrift
        self.minimumSpanForDrift = minimumSpanForDrift
        self.maximumDriftPPM = maximumDriftPPM
    }

    /// General-purpose settings: latency −50 … +150 ms, tolerance 4–40 ms, drift on.
    public static let `default` = MatchingConfiguration()

    /// Settings for Tap-It recordings: touches about 15 ms late (SD about 5 ms) plus
    /// audio-buffer quantization, so latency −10 … +80 ms and tolerance 4–30 ms.
    public static let tapIt = MatchingConfiguration(
        latencyRange: -0.010 ... 0.080,
        maximumTolerance: 0.030
    )

    /// Settings for frame-exact timestamps (for example MIDI events stamped on the audio
    /// clock): latency −5 … +5 ms, fixed 2 ms tolerance, no drift (same clock).
    public static let exact = MatchingConfiguration(
        latencyRange: -0.005 ... 0.005,
        maximumTolerance: 0.002,
        minimumTolerance: 0.002,
        searchHalfWidth: 0.001,
        estimatesDrift: false
    )
}
