import TapAudio
import TapStatistics

extension TapScore {
    /// The sounds of `candidates` (any order; indices, ascending in time) that the recording's
    /// `taps` (those at ``outsiderReferenceScore``) say are taps too, whatever they scored:
    /// each spreads its power over the octave bands as the taps do and fills a beat their
    /// steady rhythm leaves empty.
    ///
    /// A tap whose modes ring for tens of milliseconds, or beat against each other, can decay
    /// less over its first 50 ms than over its first 10 and score as a sustained sound however
    /// loud it is (the sine-burst simulator's taps at SNRs up to 39 dB,
    /// `Scripts/sine-burst-sim`). Its sound and its place still tell. A sound is taken where
    /// all hold:
    /// - it peaks no more than ``levelRange`` (the tap score's level range) under the taps'
    ///   median level: a gated background's blips lie 50–60 dB under the taps, and one can
    ///   spread its power as they do;
    /// - its ``OnsetFeatures/bandProfile`` lies within ``maskedTapProfileDistance`` of the taps'
    ///   median profile (`medianProfile`, from at least ``outsiderMinimumTaps`` taps), and
    ///   ``tapOnClickProfileMargin`` or more nearer it than the median profile of the
    ///   candidates measured, itself included (where at least ``outsiderMinimumTaps`` are:
    ///   fewer make no reference for what else sounds in the recording);
    /// - it fills an empty beat of the taps' rhythm (`fillsAnEmptyBeat`, over their
    ///   `singleBeatIntervals`), judged in time order against `heard` (every sound taken for a
    ///   tap at any cut, at least the taps) and the sounds already taken, so that one beat
    ///   takes one sound (a tap's ringing or a syllable after it lies in the beat it filled).
    ///
    /// Profiles and levels are compared in the band detected in: taps and candidates the 8 kHz
    /// band added (``Onset/highBandCutoff``) are profiled over fewer bands and measured there,
    /// so they keep the rhythm but are neither the reference nor candidates.
    ///
    /// What else a rule set aside (a key's release, an outsider off the taps' centroid) is a
    /// candidate too: here a sound must sound like the taps in its band profile and lie where
    /// their rhythm asks for a tap, one interval from a tap on one side at least. A beat with no
    /// sound that sounds like the taps stays empty (`maskedTaps` says why a gap filler is no
    /// rule).
    static func tapsInEmptyBeats(candidates: [Onset], taps: [Onset], heard: [Seconds]) -> [Int] {
        let taps = taps.filter(\.time.isFinite).sorted { $0.time < $1.time }
        let inBand = taps.filter { $0.highBandCutoff == nil && comparableProfile($0) != nil }
        guard let tapProfile = medianProfile(inBand, taps: Array(inBand.indices)),
              let tapLevel = Summary(inBand.map(\.strength))?.median else { return [] }
        let measured: [(index: Int, profile: [Double])] = candidates.indices
            .filter { candidates[$0].time.isFinite && candidates[$0].highBandCutoff == nil }
            .sorted { candidates[$0].time < candidates[$1].time }
            .compactMap { index in comparableProfile(candidates[index]).flatMap { $0.count == tapProfile.count ? (index, $0) : nil } }
        let othersProfile = medianProfile(candidates, taps: measured.map(\.index))
        let rhythm = singleBeatIntervals(localIntervals(taps, anchors: Array(taps.indices), voidedBy: []))
        var tapTimes = Array(Set(taps.map(\.time) + heard.filter(\.isFinite))).sorted()
        var taken: [Int] = []
        for (index, profile) in measured {
            let toTaps = profileDistance(profile, tapProfile)
            guard candidates[index].strength >= tapLevel - levelRange, toTaps <= maskedTapProfileDistance,
                  othersProfile.map({ profileDistance(profile, $0) >= toTaps + tapOnClickProfileMargin }) ?? true,
                  fillsAnEmptyBeat(candidates[index].time, tapTimes: tapTimes, intervals: rhythm) else { continue }
            taken.append(index)
            tapTimes.insert(candidates[index].time, at: tapTimes.firstIndex(notBelow: candidates[index].time))
        }
        return taken
    }
}

extension TapOnsetDetection {
    /// The detection with the sounds that fill the taps' empty beats and sound like them
    /// (`TapScore.tapsInEmptyBeats`) scored ``TapScore/outsiderReferenceScore``: taps at the
    /// default cut, and at any `cut` what that score makes them (the score then says the rhythm
    /// took the sound, not how it sounds). The taps that judge are those at that score, and
    /// the candidates the other sounds under it, whatever `cut` split them, so that a sweep of
    /// the cut does not move the scores it sweeps over; every sound reported as a tap keeps its
    /// beat. Not on a drum kit completed from the spectral flux, whose hits are no tapper's
    /// beats.
    func fillingEmptyBeats(cut: Double) -> TapOnsetDetection {
        guard densePercussionOnsets == nil else { return self }
        let sounds = onsets + otherOnsets
        let reference = TapScore.referenceTaps(sounds).map { sounds[$0] }
        let candidates = otherOnsets.indices.filter { otherOnsets[$0].tapScore < TapScore.outsiderReferenceScore }
        let filling = TapScore.tapsInEmptyBeats(candidates: candidates.map { otherOnsets[$0] }, taps: reference,
                                                heard: onsets.map(\.time))
        guard !filling.isEmpty else { return self }
        var others = otherOnsets
        for position in filling {
            others[candidates[position]].tapScore = TapScore.outsiderReferenceScore
            others[candidates[position]].kind = TapScore.outsiderReferenceScore >= cut ? .tap : .other
        }
        var copy = self
        copy.onsets = (onsets + others.filter { $0.kind == .tap }).sorted { $0.time < $1.time }
        copy.otherOnsets = others.filter { $0.kind != .tap }
        return copy
    }
}
