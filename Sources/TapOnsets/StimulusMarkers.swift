import TapAudio

/// The alignment markers of REPP (Anglada-Tort, Harrison & Jacoby 2022, "REPP: A robust
/// cross-platform solution for online sensorimotor synchronization experiments", Behavior
/// Research Methods 54): three short bursts, 280 and 230 ms apart, played before and after the
/// stimulus so that the recording can be aligned to it. Through a loudspeaker they reach the
/// microphone as sharp, loud sounds that the tap score takes for taps.
///
/// A triplet with those gaps (each within ``gapTolerance``) whose sounds are alike — peak levels
/// within ``levelSpreadDB`` and, when measured, spectral centroids within ``centroidSpread`` —
/// is markers. A participant's taps vary in level by several decibels and in timing by tens
/// of milliseconds, so three taps that fit both are rare.
public enum StimulusMarkers {
    /// The gaps between the first and second, and the second and third markers, seconds
    /// (REPP's `MARKERS_IOI`).
    public static let gaps: [Seconds] = [0.280, 0.230]
    /// How far a gap may be off, seconds.
    public static let gapTolerance: Seconds = 0.002
    /// The largest difference in peak level among the three, dB.
    public static let levelSpreadDB = 2.0
    /// The largest ratio of spectral centroids among the three.
    public static let centroidSpread = 1.1

    /// Indices of `onsets` (in time order) that are markers.
    public static func indices(in onsets: [Onset]) -> Set<Int> {
        var markers = Set<Int>()
        for first in onsets.indices {
            guard let second = follower(of: first, after: gaps[0], in: onsets),
                  let third = follower(of: second, after: gaps[1], in: onsets) else { continue }
            guard soundAlike([first, second, third].map { onsets[$0] }) else { continue }
            markers.formUnion([first, second, third])
        }
        return markers
    }

    /// Whether `sounds` are one sound played again (markers, a metronome's clicks): peak
    /// levels within `levelSpread` dB (``levelSpreadDB`` by default; or, with `orHeights`,
    /// their heights over the background, ``Onset/snrDB``, within it: a gain control moves the
    /// levels of sounds it raises, not their heights) and, when every one was measured,
    /// spectral centroids within `centroidSpread` (a ratio; ``centroidSpread`` by default).
    static func soundAlike(_ sounds: [Onset], orHeights: Bool = false, levelSpread: Double = levelSpreadDB,
                           centroidSpread: Double = centroidSpread) -> Bool {
        func within(_ values: [Double]) -> Bool {
            guard let highest = values.max(), let lowest = values.min() else { return false }
            return highest - lowest <= levelSpread
        }
        guard within(sounds.map(\.strength)) || orHeights && within(sounds.map(\.snrDB)) else { return false }
        let centroids = sounds.compactMap { $0.features?.spectralCentroid }.filter { $0 > 0 }
        guard centroids.count == sounds.count, let brightest = centroids.max(), let dullest = centroids.min() else { return true }
        return brightest <= centroidSpread * dullest
    }

    /// The onset that starts `gap` after onset `index`, within ``gapTolerance``.
    private static func follower(of index: Int, after gap: Seconds, in onsets: [Onset]) -> Int? {
        var next = index + 1
        while next < onsets.count && onsets[next].time - onsets[index].time <= gap + gapTolerance {
            if abs(onsets[next].time - onsets[index].time - gap) <= gapTolerance { return next }
            next += 1
        }
        return nil
    }
}
