import TapStatistics

extension TapScore {
    /// The sounds of `others` (any order; indices, ascending in time) that the recording's
    /// `taps` say are taps too, whatever they scored: each spreads its power over the octave
    /// bands as the taps do and fills a beat their steady rhythm leaves empty.
    ///
    /// A tap whose modes ring for tens of milliseconds, or beat against each other, can decay
    /// less over its first 50 ms than over its first 10, or peak late, and score as a
    /// sustained sound however loud it is (the sine-burst simulator's taps at SNRs up to
    /// 39 dB, `Scripts/sine-burst-sim`). Its sound and its place still tell. A sound is taken
    /// where all hold:
    /// - it peaks no more than ``levelRange`` under the taps' median level (the tap score's
    ///   level membership: a gated background's blips lie 50–60 dB under the taps, and one can
    ///   spread its power as they do);
    /// - its ``OnsetFeatures/bandProfile`` lies within ``maskedTapProfileDistance`` of the taps'
    ///   median profile (`medianProfile`, from at least ``outsiderMinimumTaps`` taps), and
    ///   ``tapOnClickProfileMargin`` or more nearer it than the median profile of the other
    ///   sounds measured, itself included (where at least ``outsiderMinimumTaps`` are: fewer
    ///   make no reference for what else sounds in the recording);
    /// - it fills an empty beat of the taps' rhythm (`fillsAnEmptyBeat`, over their
    ///   `singleBeatIntervals`), judged in time order against the taps and the sounds already
    ///   taken, so that one beat takes one sound (a tap's ringing or a syllable after it lies in
    ///   the beat it filled).
    ///
    /// The rules before set aside sounds unlike the taps, or off their rhythm; this one only
    /// takes a sound that is neither. A beat with no sound that sounds like the taps stays
    /// empty (`maskedTaps` says why a gap filler is no rule).
    static func tapsInEmptyBeats(others: [Onset], taps: [Onset]) -> [Int] {
        let taps = taps.filter(\.time.isFinite).sorted { $0.time < $1.time }
        guard let tapProfile = medianProfile(taps, taps: Array(taps.indices)),
              let tapLevel = Summary(taps.map(\.strength).filter(\.isFinite))?.median else { return [] }
        let measured: [(index: Int, profile: [Double])] = others.indices
            .filter { others[$0].time.isFinite }
            .sorted { others[$0].time < others[$1].time }
            .compactMap { index in comparableProfile(others[index]).flatMap { $0.count == tapProfile.count ? (index, $0) : nil } }
        let othersProfile = measured.count >= outsiderMinimumTaps
            ? tapProfile.indices.map { band in Summary(measured.map { $0.profile[band] })!.median } : nil
        let rhythm = singleBeatIntervals(localIntervals(taps, anchors: Array(taps.indices), voidedBy: []))
        var tapTimes = taps.map(\.time)
        var taken: [Int] = []
        for (index, profile) in measured {
            let toTaps = profileDistance(profile, tapProfile)
            guard others[index].strength >= tapLevel - levelRange, toTaps <= maskedTapProfileDistance,
                  othersProfile.map({ profileDistance(profile, $0) >= toTaps + tapOnClickProfileMargin }) ?? true,
                  fillsAnEmptyBeat(others[index].time, tapTimes: tapTimes, intervals: rhythm) else { continue }
            taken.append(index)
            tapTimes.insert(others[index].time, at: tapTimes.firstIndex(notBelow: others[index].time))
        }
        return taken
    }
}

extension TapOnsetDetection {
    /// The detection with the sounds that fill the taps' empty beats and sound like them
    /// (`TapScore.tapsInEmptyBeats`) scored ``TapScore/outsiderReferenceScore``: taps at the
    /// default cut, and at any `cut` what that score makes them (its tap score then says the
    /// rhythm took it, not how it sounds). The taps are those at that score and the
    /// candidates the sounds under it, whatever `cut` split them, so that a sweep of the cut
    /// does not move the scores it sweeps over.
    func fillingEmptyBeats(cut: Double) -> TapOnsetDetection {
        let sounds = onsets + otherOnsets
        let isTap = sounds.map { $0.tapScore >= TapScore.outsiderReferenceScore }
        let candidates = sounds.indices.filter { !isTap[$0] }
        let filling = TapScore.tapsInEmptyBeats(others: candidates.map { sounds[$0] },
                                                taps: sounds.indices.filter { isTap[$0] }.map { sounds[$0] })
        guard !filling.isEmpty else { return self }
        var rescored = sounds
        for position in filling {
            rescored[candidates[position]].tapScore = TapScore.outsiderReferenceScore
            rescored[candidates[position]].kind = TapScore.outsiderReferenceScore >= cut ? .tap : .other
        }
        var copy = self
        copy.onsets = rescored.filter { $0.kind == .tap }.sorted { $0.time < $1.time }
        copy.otherOnsets = rescored.filter { $0.kind != .tap }
        return copy
    }
}
