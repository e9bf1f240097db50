import TapAudio
import TapStatistics

/// Metronome clicks heard before the taps begin (a count-in) when no click grid could be
/// found: once the participant taps, each tap masks the click that follows it within tens of
/// milliseconds, so only the first clicks stand alone, too few for
/// ``StimulusLockedOnsets`` (six at least), and the tap score takes them for taps.
///
/// The first two sounds of the recording's tap list are a count-in's clicks when they are
/// alike (peak levels within ``levelSpreadDB``, spectral centroids within ``centroidSpread``,
/// as ``StimulusMarkers`` compares sounds), ``bleedDropDB`` or more under the later taps, and
/// the beat they span is the one the later taps keep: a metronome's interval is the beat, and
/// the taps keep one phase to its grid, their mean asynchrony (tens of milliseconds early in
/// most people; Repp 2005, "Sensorimotor synchronization: a review of the tapping
/// literature", Psychon. Bull. Rev. 12). So the later taps' own period (least squares over
/// their beat numbers) agrees with the interval within ``periodAgreement``, at least
/// ``phaseShareOnBeat`` of them lie within ``phaseTolerance`` of a period of their median
/// offset from the grid, and that offset is at least ``minimumAsynchrony``. If the two are the
/// participant's own first taps, their interval is off the later taps' period (an interval
/// between two taps, extended over tens of periods, drifts off the later ones), or the taps
/// that follow keep about zero offset to it, or the two are as loud as the rest.
///
/// A participant whose taps coincide with the beat (offset under ``minimumAsynchrony``) keeps
/// the count-in clicks as taps: they cannot be told apart by timing.
public enum CountInClicks {
    /// The largest difference in peak level between the two clicks, dB.
    public static let levelSpreadDB = 2.0
    /// How far under the later taps' median peak level the clicks lie, at least, dB: bleed
    /// from headphones reaches the microphone far fainter than a finger's tap on the device
    /// (the count-ins of the robustness corpus's dev splits: 13–26 dB under the taps). A
    /// metronome from a loudspeaker, as loud as the taps, is not taken for a count-in.
    public static let bleedDropDB = 10.0
    /// The largest ratio of the two clicks' spectral centroids.
    public static let centroidSpread = 1.1
    /// The beat periods considered, seconds.
    public static let periodRange: ClosedRange<Seconds> = 0.25...2.0
    /// The fewest later taps that must show their phase to the grid.
    public static let minimumLaterTaps = 8
    /// How far from their median offset to the grid the later taps may lie, as a fraction of
    /// the period.
    public static let phaseTolerance = 0.15
    /// The share of later taps within ``phaseTolerance`` of their median offset, at least.
    public static let phaseShareOnBeat = 0.8
    /// The smallest median offset of the later taps from the grid, seconds.
    public static let minimumAsynchrony: Seconds = 0.005
    /// How closely the later taps' own period (least squares over their beat numbers) agrees
    /// with the interval between the two sounds, seconds. A metronome's interval is the beat
    /// the taps keep (the count-ins of the robustness corpus's dev splits: within 0.03–0.38 ms);
    /// the interval between a participant's first two taps is off the later taps' period by
    /// milliseconds to tens of milliseconds (2.3–17.9 ms there), and the grid it spans drifts
    /// across them.
    public static let periodAgreement: Seconds = 0.001

    /// Indices of `onsets` (in time order) that are count-in clicks: only onsets of kind
    /// ``OnsetKind/tap`` are considered.
    public static func indices(in onsets: [Onset]) -> Set<Int> {
        let taps = onsets.indices.filter { onsets[$0].kind == .tap }
        guard taps.count >= 2 + minimumLaterTaps else { return [] }
        let first = onsets[taps[0]], second = onsets[taps[1]]
        let period = second.time - first.time
        guard periodRange.contains(period), abs(first.strength - second.strength) <= levelSpreadDB,
              alike(first, second) else { return [] }
        let later = taps.dropFirst(2).map { onsets[$0] }
        guard let tapLevel = Summary(later.map(\.strength))?.median,
              (first.strength + second.strength) / 2 <= tapLevel - bleedDropDB else { return [] }
        // Each later tap's beat on the grid and signed distance from it.
        let times = later.map(\.time)
        let beats = times.map { (($0 - first.time) / period).rounded() }
        let offsets = zip(times, beats).map { $0 - (first.time + $1 * period) }
        guard let median = Summary(offsets)?.median, abs(median) >= minimumAsynchrony,
              let tapPeriod = slope(of: times, over: beats), abs(tapPeriod - period) <= periodAgreement else { return [] }
        let onBeat = offsets.count { abs($0 - median) <= phaseTolerance * period }
        guard Double(onBeat) >= phaseShareOnBeat * Double(offsets.count) else { return [] }
        return [taps[0], taps[1]]
    }

    /// The least-squares slope of `values` over `positions`; nil when the positions do not vary.
    private static func slope(of values: [Double], over positions: [Double]) -> Double? {
        let meanPosition = positions.reduce(0, +) / Double(positions.count)
        let meanValue = values.reduce(0, +) / Double(values.count)
        var covariance = 0.0, variance = 0.0
        for (position, value) in zip(positions, values) {
            covariance += (position - meanPosition) * (value - meanValue)
            variance += (position - meanPosition) * (position - meanPosition)
        }
        return variance > 0 ? covariance / variance : nil
    }

    /// Whether two sounds' spectral centroids lie within ``centroidSpread`` (true when either
    /// was not measured).
    private static func alike(_ a: Onset, _ b: Onset) -> Bool {
        guard let x = a.features?.spectralCentroid, let y = b.features?.spectralCentroid, x > 0, y > 0 else { return true }
        return max(x, y) <= centroidSpread * min(x, y)
    }
}
