import Foundation
import TapAudio

/// Taps that a high band hears where the band the detection ran in heard none.
///
/// Under speech or music a tap can sit under a syllable or a note in the band the detector
/// listens in: there it starts no event (the threshold rises with the fluctuation those sounds
/// bring), or an event scored as lying in that sound's mask or decay. ``DetectionBandChoice``
/// moves the whole detection to a higher band when the taps stand clearer there over the whole
/// recording; but the masking comes and goes within a recording, and most of it stays in the
/// band chosen. A tap's contact is broadband, and above most of speech's and music's power it
/// stands clear where it is masked below.
///
/// So where a recording's other sounds are at least as many as its taps (``othersPerTap``:
/// speech, music; tapping with few other sounds is left as it is, and costs nothing), the
/// detection runs again with a high-pass at ``cutoff``, and each tap found there that scores
/// ``leastScore`` or more is added where the band chosen heard
///
/// - no onset within ``reach``, or only `other` onsets whose own properties (SNR, mask, attack,
///   decay: `TapScore.ownScore`) score under the cut. An `other` onset whose own properties
///   pass the cut was set aside by a rule (a key's release, a train of glottal pulses, a sound
///   off the taps' rhythm) or by its level far under the recording's taps: the band chosen
///   judged it in its context, and that judgement stands;
/// - and no tap less than ``TapScore/pairGap``'s lower bound away (no finger taps twice that
///   soon, as `TapScore` holds).
///
/// Then, where the taps keep a steady rhythm, a beat they leave empty is filled by the one
/// sound the high band heard near it, whatever its score, if it peaks within
/// ``emptyBeatLongestAttack`` of its start (`emptyBeatTaps`), judged by the
/// same two rules but one: under a syllable the high band hears a tap's contact only a few dB
/// over its background, as it hears the speech's own sounds, so the rhythm decides there, and
/// a glottal pulse of the band chosen (a train's member or a syllable's pulse, which the band
/// chosen sets aside whatever its own properties) is no verdict against it.
///
/// The onsets of the band chosen that the added tap stands for leave the other sounds. An
/// added tap carries what the high band measured: its time, its strength and SNR over the
/// high-passed background, its features and its score, and ``Onset/highBandCutoff`` says so
/// (``TapOnsetDetection/highBandTaps`` counts them).
///
/// Not where a stimulus file's bleed was subtracted (the high band would hear the stimulus
/// again, which nothing marks there), not on a drum kit completed from the spectral flux (its
/// hits are the taps), only at sample rates over ``cutoff`` / 0.4 (20 kHz: the band keeps some
/// width under Nyquist, as ``DetectionBandChoice`` requires), and not with
/// ``OnsetDetectorConfiguration/choosesDetectionBand`` off (`--fixed-band`). The numbers were
/// chosen on the development splits of the robustness corpus and its phone chains
/// (Docs/robustness.md, "Taps heard in a high band" and "Empty beats filled from the high
/// band").
public enum HighBandTaps {
    /// The high band's cut-off, Hz: above most of speech's power (voiced speech's harmonics
    /// and formants lie under 4 kHz) and above a 4 kHz band the band choice may already have
    /// chosen.
    public static let cutoff = 8000.0
    /// The least score a tap found in the high band needs to be added: every property clear of
    /// its boundary (a score of 0.5 means one property sits at it).
    public static let leastScore = 0.9
    /// How near an onset of the band chosen must lie to stand for the same sound, seconds.
    public static let reach: Seconds = 0.003
    /// How many other sounds per tap the band chosen must have heard for the high band to run.
    public static let othersPerTap = 1.0
    /// How near an empty beat's time a sound of the high band must lie to fill it, as a share
    /// of ``TapScore/rhythmTolerance``: half, since the beat's time is known from the taps on
    /// both sides (0.3 found 19 fewer taps on the dev splits for 4 fewer other sounds).
    public static let emptyBeatReachShare = 0.5
    /// The longest gap between two taps whose empty beats are filled, in beats: three (two
    /// taps lost in a row under one long syllable).
    public static let mostBeatsInAGap = 3
    /// How soon after its start a sound that fills an empty beat peaks, at most (its
    /// ``OnsetFeatures/attackDuration``), seconds: a tap's contact over 8 kHz peaks within a
    /// few milliseconds. Of the 43 sounds that filled a beat on the dev splits (eight seeds'
    /// and the chains') without this bound, the 28 within 0.5 ms of their tap peaked 0–1.3 ms
    /// after their start (one 12.8 ms); the 7 that lay 4.3–8.9 ms off their tap and the 4
    /// with no tap within 10 ms peaked 5–15 ms after it (a syllable, a note or what a codec
    /// left just before or after the tap).
    public static let emptyBeatLongestAttack: Seconds = 0.004

    /// One line for people where the high band added taps; nil where it added none.
    public static func message(added: Int) -> String? {
        guard added > 0 else { return nil }
        return String(format: "%d tap%@ heard with a high-pass at %.0f Hz where the band detected in heard none (other sounds "
                      + "at least as many as the taps, as under speech or music)", added, added == 1 ? "" : "s", cutoff)
    }

    /// `detection` (in the band chosen) with the taps the high band adds: its clear taps first,
    /// then the sounds that fill the empty beats those leave; `detect` runs the whole detection
    /// with a configuration (the high-pass at ``cutoff``). Unchanged where the step does not
    /// apply; ``TapOnsetDetection/highBandTaps`` counts the taps added.
    static func completed(_ detection: TapOnsetDetection, sampleRate: Double, configuration: OnsetDetectorConfiguration,
                          detect: (OnsetDetectorConfiguration) throws(AudioError) -> TapOnsetDetection) throws(AudioError)
        -> TapOnsetDetection {
        let chosenCutoff = detection.detectionBand?.cutoff ?? configuration.highPassCutoff
        // Where no tap at all was heard but other sounds were, the masking is at its worst.
        let heardAnything = !detection.onsets.isEmpty || !detection.otherOnsets.isEmpty
        guard configuration.choosesDetectionBand, detection.stimulusBleed?.status != .removed,
              detection.densePercussionOnsets == nil, cutoff < DetectionBandChoice.highestCutoffFraction * sampleRate,
              cutoff > chosenCutoff, heardAnything,
              Double(detection.otherOnsets.count) >= othersPerTap * Double(detection.onsets.count) else { return detection }
        var high = configuration
        high.highPassCutoff = cutoff
        // Whether the taps are a drum kit's is judged in the configured band (as for the band
        // choice); a kit's taps are more than its other sounds, and this step does not run on it.
        high.completesDensePercussion = false
        let heard = try detect(high)
        let cut = configuration.minimumTapScore
        let clear = adding(heard.onsets.filter { $0.tapScore >= leastScore }, to: detection, cut: cut)
        // The high band's stimulus onsets (clicks on its own grid) fill no beat.
        let sounds = (heard.onsets + heard.otherOnsets).sorted { $0.time < $1.time }
        let filling = emptyBeatTaps(sounds, taps: clear.onsets.map(\.time), cut: cut)
        guard !filling.isEmpty else { return clear }
        // A tap under voiced speech sits among its glottal pulses: where the rhythm asks for a
        // tap, a pulse the band chosen set aside there is no verdict against it (as for a
        // masked tap). The pulses are the band chosen's own, found again by the same rules on its
        // taps and other sounds (not read back from its classification, which ran before some
        // sounds became stimulus onsets).
        let chosen = (detection.onsets + detection.otherOnsets).sorted { $0.time < $1.time }
        let pulses = TapScore.trainMembers(chosen).union(TapScore.syllablePulses(chosen)).map { chosen[$0].time }
        return adding(filling, to: clear, cut: cut, standingFor: Set(pulses))
    }

    /// The sounds of the high band (`sounds`, in time order) that fill the empty beats of a
    /// tapper keeping a steady rhythm, as taps scoring at least `cut`.
    ///
    /// A tap under a syllable or a note whose contact rises only a few dB over the high band's
    /// background scores there as little as the speech's own sounds do (a fricative, a
    /// syllable's start: SNR 6–12 dB for both), so its score cannot tell them apart; where it
    /// lies can. Between two taps `taps` (ascending) two or ``mostBeatsInAGap`` local intervals
    /// apart (within ``TapScore/rhythmTolerance``), where the intervals around are steady
    /// (their robust SD at most the tolerance; up to four on each side, the gap among them),
    /// each beat between them (the gap divided equally) is filled by the one sound within
    /// ``emptyBeatReachShare`` of the tolerance of it, if there is exactly one (of two, which
    /// is the tap is not known: a syllable's start and the tap under it, or a note's) and it
    /// peaks within ``emptyBeatLongestAttack`` of its start. A sound the high band's own rules
    /// set aside (a release, an outsider) is a candidate as well: there the rhythm decides. It
    /// becomes a tap scoring at least `cut` (its tap score then says the rhythm took it, not
    /// how it sounds), and ``adding(_:to:cut:)`` judges it as it judges the high band's clear
    /// taps. None with fewer than ``TapScore/outsiderMinimumTaps`` taps.
    static func emptyBeatTaps(_ sounds: [Onset], taps: [Seconds], cut: Double) -> [Onset] {
        guard taps.count >= TapScore.outsiderMinimumTaps else { return [] }
        let starts = Array(taps.dropLast()), intervals = zip(taps.dropFirst(), taps).map { $0 - $1 }
        let times = sounds.map(\.time)
        var filling: [Onset] = []
        for (start, gap) in zip(starts, intervals) {
            guard let rhythm = TapScore.localRhythm(at: start + gap / 2, starts: starts, intervals: intervals)
            else { continue }
            let interval = rhythm.interval, tolerance = rhythm.tolerance
            let beatsInGap = (gap / interval).rounded()
            guard rhythm.isSteady, beatsInGap >= 2, beatsInGap <= Double(mostBeatsInAGap),
                  abs(gap - beatsInGap * interval) <= tolerance else { continue }
            let beatReach = emptyBeatReachShare * tolerance
            for beat in 1..<Int(beatsInGap) {
                let expected = start + gap * Double(beat) / beatsInGap
                let near = sounds[times.firstIndex(notBelow: expected - beatReach)...].prefix { $0.time <= expected + beatReach }
                guard near.count == 1, var sound = near.first,
                      let attack = sound.features?.attackDuration, attack <= emptyBeatLongestAttack else { continue }
                sound.kind = .tap
                sound.tapScore = max(sound.tapScore, cut)
                filling.append(sound)
            }
        }
        return filling
    }

    /// `detection` with each of `candidates` (taps of the high band, in time order) added where
    /// the band chosen heard no tap-like sound (see the type's rules), and the other sounds
    /// they stand for taken out. An `other` sound at one of the times `pulses` (the band
    /// chosen's glottal pulses, for the sounds that fill an empty beat) may be stood for
    /// whatever its own properties.
    static func adding(_ candidates: [Onset], to detection: TapOnsetDetection, cut: Double,
                       standingFor pulses: Set<Seconds> = []) -> TapOnsetDetection {
        let others = detection.otherOnsets
        let heard = detection.allOnsets
        let heardTimes = heard.map(\.time), otherTimes = others.map(\.time)
        var taps = detection.onsets.map(\.time)
        var added: [Onset] = [], replaced = Set<Int>()
        for candidate in candidates {
            let first = heardTimes.firstIndex(notBelow: candidate.time - reach)
            let close = heard[first...].prefix { $0.time <= candidate.time + reach }
            // A stimulus onset there is the same sound, already placed (so is a tap, which the
            // gap below also keeps out); an `other` one whose own properties pass the cut keeps
            // the verdict that set it aside.
            guard close.allSatisfy({ $0.kind == .other && (($0.features.map(TapScore.ownScore) ?? 1) < cut || pulses.contains($0.time)) })
            else { continue }
            if let nearest = taps.nearest(to: candidate.time), abs(nearest - candidate.time) < TapScore.pairGap.lowerBound { continue }
            var tap = candidate
            tap.highBandCutoff = cutoff
            added.append(tap)
            taps.insert(candidate.time, at: taps.firstIndex(notBelow: candidate.time))
            let firstOther = otherTimes.firstIndex(notBelow: candidate.time - reach)
            replaced.formUnion((firstOther..<others.count).prefix { otherTimes[$0] <= candidate.time + reach })
        }
        guard !added.isEmpty else { return detection }
        var copy = detection
        copy.onsets = (detection.onsets + added).sorted { $0.time < $1.time }
        copy.otherOnsets = others.indices.filter { !replaced.contains($0) }.map { others[$0] }
        return copy
    }
}
