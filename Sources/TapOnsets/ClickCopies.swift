import TapAudio
import TapStatistics

/// Sounds scored as taps that are copies of the recording's set-aside clicks: a metronome
/// replays one waveform, so a click that sounds alone where no tap masks it (a beat the
/// participant left silent, a click a noise gate let through) sounds as the clicks set aside
/// do, to the decibel, while a finger's taps vary from tap to tap.
///
/// A sound is such a copy when at least ``minimumCopies`` of the stimulus onsets with features
/// (a count-in's clicks, what a subtraction left of clicks, or, where no click could be
/// subtracted, the clicks set aside whole) lie within ``profileTolerance`` of its
/// ``OnsetFeatures/bandProfile`` (root mean square over the bands), within ``levelTolerance``
/// of its peak level and within ``centroidTolerance`` of its spectral centroid (where both
/// were measured; alike as `StimulusMarkers.soundAlike` judges markers, with tighter bounds),
/// and it lies ``CountInClicks/bleedDropDB`` or more under the median level of the taps:
/// bleed reaches the microphone far fainter than a tap on the device, and a tapper whose taps
/// are as alike as a metronome's clicks (a key, a pad), some of which were set aside with
/// their clicks, keeps the taps at their own level. On the robustness corpus's eight seeds,
/// set-aside sounds lie a median 1.7 dB from the second nearest of them in profile (a quarter
/// within 1.1 dB); a gated recording's lone clicks lay 0.0–0.1 dB from the count-in's, and the
/// copies found lay 11–30 dB under the taps.
public enum ClickCopies {
    /// How far a copy's band profile may lie from a set-aside click's, dB (root mean square).
    public static let profileTolerance = 1.0
    /// How far a copy's peak level may lie from a set-aside click's, dB.
    public static let levelTolerance = 1.0
    /// The largest ratio of a copy's spectral centroid to a set-aside click's: where a click's
    /// power fills two octave bands and the rest lie at the profile's floor, two sounds can
    /// share a profile to a decibel and still differ in pitch (a beep's clicks on the phone's
    /// chain kept their centroids within 2 %, and the taps there lay 9–12 % off them).
    public static let centroidTolerance = 1.05
    /// The fewest set-aside clicks a sound must copy.
    public static let minimumCopies = 2

    /// Indices of `onsets` (scored; those at ``TapScore/outsiderReferenceScore`` or more are
    /// the taps, whatever the cut) that copy at least ``minimumCopies`` of `clicks` (the
    /// recording's stimulus onsets; those without a band profile or a finite level are not
    /// compared; centroids are compared where both were measured, as
    /// `StimulusMarkers.soundAlike` does). None with fewer than ``TapScore/outsiderMinimumTaps``
    /// taps.
    public static func indices(in onsets: [Onset], clicks: [Onset]) -> Set<Int> {
        let measured = clicks.compactMap { click in TapScore.comparableProfile(click).map { (click, $0) } }
        let taps = TapScore.referenceTaps(onsets)
        let levels = taps.map { onsets[$0].strength }.filter(\.isFinite)
        guard measured.count >= minimumCopies, levels.count >= TapScore.outsiderMinimumTaps,
              let tapLevel = Summary(levels)?.median else { return [] }
        return Set(taps.filter { index in
            let onset = onsets[index]
            guard let profile = onset.features?.bandProfile, onset.strength <= tapLevel - CountInClicks.bleedDropDB else { return false }
            // Alike as markers are, with tighter bounds; the centroid compared is the onset's
            // own, not its whole sound's: a tap just before a click sounds on into it, and its
            // sound's centroid is the click's.
            var copied = 0
            for (click, clickProfile) in measured where TapScore.profileDistance(profile, clickProfile) <= profileTolerance
                && StimulusMarkers.soundAlike([onset, click], levelSpread: levelTolerance, centroidSpread: centroidTolerance) {
                copied += 1
                if copied >= minimumCopies { return true }
            }
            return false
        })
    }
}
