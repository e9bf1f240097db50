import TapStatistics

extension TapScore {
    /// How far a masked sound's ``OnsetFeatures/bandProfile`` may lie from the recording's
    /// taps' median profile (root mean square over the bands, dB) for it to sound like them
    /// (`maskedTaps`). Tighter than ``outsiderProfileDistance``, which sets aside sounds that
    /// already score as taps: here the profile is the evidence that lets a sound in. Chosen on
    /// the corpus's development split (eight seeds without stimulus files, session 27), with a
    /// prototype of the rule on the detector's saved output: 8 dB took back 18 taps and no
    /// other sound there; 11 dB, 23 taps and 5 other sounds. The
    /// outsider rule's riding suspects (`ridingOutliers`) use the same bound from the other
    /// side: retuning it moves both.
    public static let maskedTapProfileDistance = 8.0

    /// The memberships of an onset's own properties but the mask's (sustained SNR, attack,
    /// decay): what it would score standing clear of the sounds before it.
    static func scoreButForMask(_ features: OnsetFeatures) -> Double {
        snrMembership(features) * attackMembership(features) * decayMembership(features)
    }

    /// The sounds (indices of `onsets`, in time order, with the score each takes) that fill
    /// the one empty beat of a tapper keeping a steady rhythm: a tap under speech, music or a
    /// loud sound's tail, which rises too little over what it sits on (the mask membership) to
    /// score as a tap.
    ///
    /// Such a sound scores as a tap but for the mask (``scoreButForMask(_:)`` times its level
    /// membership, `levels`, at least ``outsiderReferenceScore``), spreads its power over the
    /// octave bands as the recording's taps do (within ``maskedTapProfileDistance`` of their
    /// median profile: the profile is measured on what the sound adds over the 10 ms before
    /// it, so the sound it rides on is taken out), and lies about one local interval after the
    /// tap before it and one before the tap after it (within ``rhythmTolerance``), where the
    /// eight intervals around are steady (their robust SD at most the tolerance). It takes the
    /// score it would have clear of the mask. Of several in one gap, the earliest fills it: a
    /// tap's own ringing, a click's tail or the rest of a syllable come after the sound that
    /// started them.
    ///
    /// `scores` are the onsets' scores so far (under ``outsiderReferenceScore`` makes a
    /// candidate), `taps` those at the reference score in time order, `setAside` the sounds a
    /// rule already set aside (a key's release, an outsider), which stay so; a train's member
    /// (or a syllable's pulse) is a candidate, since a tap under voiced speech sits among its
    /// glottal pulses. None with fewer than ``outsiderMinimumTaps`` taps with a profile.
    ///
    /// Not a gap filler: here a beat with no sound that sounds like the taps stays empty, and a
    /// metronome's click where a tap was silent does not sound like one (session 24 found
    /// that filling gaps with the best sound under the cut took in 36 other sounds, mostly
    /// such clicks, for 60 taps). Nor are the residues set aside at clicks candidates: taking
    /// back those in an empty beat found taps that sounded with their clicks, but also clicks
    /// where the tapper skipped a beat (session 27). (`tapsOnClicks` takes such a residue in an
    /// empty beat only where it also sounds like the taps and nearer them than the residues.) The one step that fills a beat by the
    /// rhythm alone comes later and listens elsewhere: the high band's
    /// (`HighBandTaps.emptyBeatTaps`), with the only sound an 8 kHz high-pass hears near the
    /// beat, peaking soon, and only where the band chosen heard other sounds as many as taps.
    static func maskedTaps(_ onsets: [Onset], scores: [Double], levels: [Double], taps: [Int],
                           setAside: Set<Int>) -> [(index: Int, score: Double)] {
        guard let median = medianProfile(onsets, taps: taps) else { return [] }
        let tapTimes = taps.map { onsets[$0].time }
        let rhythm = localIntervals(onsets, anchors: taps, voidedBy: [])
        // The earliest candidate of each gap, by the tap after it.
        var filling: [Int: (index: Int, score: Double)] = [:]
        for index in onsets.indices where scores[index] < outsiderReferenceScore && !setAside.contains(index) {
            guard let features = onsets[index].features, let profile = features.bandProfile,
                  profileDistance(profile, median) <= maskedTapProfileDistance else { continue }
            let score = scoreButForMask(features) * levels[index]
            guard score >= outsiderReferenceScore else { continue }
            guard let gap = steadyGap(at: onsets[index].time, tapTimes: tapTimes, rhythm: rhythm), filling[gap.next] == nil,
                  abs(gap.before - gap.rhythm.interval) <= gap.rhythm.tolerance,
                  abs(gap.after - gap.rhythm.interval) <= gap.rhythm.tolerance else { continue }
            filling[gap.next] = (index, score)
        }
        return filling.values.sorted { $0.index < $1.index }
    }

    /// The median ``OnsetFeatures/bandProfile`` of the measured `taps`, band by band; nil with
    /// fewer than `fewest` measured (by default ``outsiderMinimumTaps``, what makes the taps'
    /// reference), or profiles empty or of unequal length.
    static func medianProfile(_ onsets: [Onset], taps: [Int], fewest: Int = outsiderMinimumTaps) -> [Double]? {
        let measured = taps.compactMap { onsets[$0].features?.bandProfile }
        guard measured.count >= fewest, let bands = measured.first?.count, bands > 0,
              measured.allSatisfy({ $0.count == bands }) else { return nil }
        return (0..<bands).map { band in Summary(measured.map { $0[band] })!.median }
    }

    /// The onset's ``OnsetFeatures/bandProfile`` where it can be compared with others: present,
    /// not empty, every band finite, and the onset's level finite (onsets a script made may
    /// carry neither); nil otherwise.
    static func comparableProfile(_ onset: Onset) -> [Double]? {
        guard let profile = onset.features?.bandProfile, !profile.isEmpty, profile.allSatisfy(\.isFinite),
              onset.strength.isFinite else { return nil }
        return profile
    }

    /// Root mean square difference of two band profiles, dB; infinite for profiles of unequal
    /// length.
    static func profileDistance(_ profile: [Double], _ median: [Double]) -> Double {
        guard profile.count == median.count, !median.isEmpty else { return .infinity }
        let squares = zip(profile, median).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }
        return (squares / Double(median.count)).squareRoot()
    }
}
