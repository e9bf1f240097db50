import TapAudio

/// Sounds scored as taps that are copies of the recording's set-aside clicks: a metronome
/// replays one waveform, so a click that sounds alone where no tap masks it (a beat the
/// participant left silent, a click a noise gate let through) sounds as the clicks set aside
/// do, to the decibel, while a finger's taps vary from tap to tap.
///
/// A sound is such a copy when at least ``minimumCopies`` of the stimulus onsets with features
/// (a count-in's clicks, what a subtraction left of clicks, or, where no click could be
/// subtracted, the clicks set aside whole) lie within ``profileTolerance`` of its
/// ``OnsetFeatures/bandProfile`` (root mean square over the bands that carry either sound,
/// ``carryingBandShareDB``, or over all where fewer than two do; since session 34), within
/// ``levelTolerance`` of its peak level and within ``centroidTolerance`` of its spectral
/// centroid (where both were measured; alike as `StimulusMarkers.soundAlike` judges markers,
/// with tighter bounds), and it lies ``CountInClicks/bleedDropDB`` or more under the median
/// level of the taps: bleed reaches the microphone far fainter than a tap on the device, and a
/// tapper whose taps are as alike as a metronome's clicks (a key, a pad), some of which were
/// set aside with their clicks, keeps the taps at their own level. On the robustness corpus's
/// eight seeds, set-aside sounds lie a median 1.7 dB from the second nearest of them in
/// profile (a quarter within 1.1 dB); a gated recording's lone clicks lay 0.0–0.1 dB from the
/// count-in's, and the copies found lay 11–30 dB under the taps (session 28, over the whole
/// profile).
public enum ClickCopies {
    /// How far a copy's band profile may lie from a set-aside click's, dB (root mean square over
    /// the bands that carry either sound).
    public static let profileTolerance = 1.0
    /// The least share of a sound's power (its band profile, dB) a band must hold, in one of
    /// two sounds at least, to be compared. The other bands hold the noise: in four clicks 9 dB
    /// over the floor they differed by up to 15 dB, while the two bands that carry the clicks
    /// agreed to 0.2 dB (seed 127 `rate8k-dev-1` of the robustness corpus), so over the whole
    /// profile no quiet click was a copy.
    public static let carryingBandShareDB = -12.0
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
        guard measured.count >= minimumCopies, let tapLevel = TapScore.referenceTapLevel(onsets) else { return [] }
        return Set(taps.filter { index in
            let onset = onsets[index]
            guard let profile = onset.features?.bandProfile, onset.strength <= tapLevel - CountInClicks.bleedDropDB else { return false }
            // Alike as markers are, with tighter bounds; the centroid compared is the onset's
            // own, not its whole sound's: a tap just before a click sounds on into it, and its
            // sound's centroid is the click's.
            var copied = 0
            for (click, clickProfile) in measured where carryingBandDistance(profile, clickProfile) <= profileTolerance
                && StimulusMarkers.soundAlike([onset, click], levelSpread: levelTolerance, centroidSpread: centroidTolerance) {
                copied += 1
                if copied >= minimumCopies { return true }
            }
            return false
        })
    }

    /// The root mean square difference of a sound's band profile from a click's (dB) over the
    /// bands holding ``carryingBandShareDB`` or more of either sound's power; over every band
    /// where fewer than two bands do (one band's share says nothing of the sound's shape).
    /// Infinite for profiles of unequal length or with a value that is not finite.
    static func carryingBandDistance(_ profile: [Double], _ click: [Double]) -> Double {
        guard profile.count == click.count, profile.allSatisfy(\.isFinite), click.allSatisfy(\.isFinite) else { return .infinity }
        let carrying = profile.indices.filter { max(profile[$0], click[$0]) >= carryingBandShareDB }
        guard carrying.count >= 2 else { return TapScore.profileDistance(profile, click) }
        return TapScore.profileDistance(carrying.map { profile[$0] }, carrying.map { click[$0] })
    }
}
