import TapAudio
import TapStatistics

/// Metronome clicks heard before the taps begin (a count-in) when no click grid could be
/// found: once the participant taps, each tap masks the click that follows it within tens of
/// milliseconds, so only the first clicks stand alone, too few for
/// ``StimulusLockedOnsets`` (six at least), and the tap score takes them for taps.
///
/// The first sounds of the recording's tap list are a count-in's clicks when they sound alike
/// (`soundAlike(_:)`: peak levels, or heights over the background, within ``levelSpreadDB``,
/// spectral centroids within 20 %), lie ``bleedDropDB`` or more under the later taps (by peak
/// level or by height over the background),
/// and the beat they span is the one the later taps keep: a metronome's interval is the beat,
/// and the taps keep one phase to its grid, their mean asynchrony (tens of milliseconds early
/// in most people; Repp 2005, "Sensorimotor synchronization: a review of the tapping
/// literature", Psychon. Bull. Rev. 12). Two sounds start the count-in, and each further one
/// within ``runTolerance`` of their grid that sounds like them joins it (a count-in of a bar).
/// Of the next ``laterTapsExamined`` taps (at least ``minimumLaterTaps``), at least
/// ``phaseShareOnBeat`` lie within ``phaseTolerance`` of a period of their median offset from
/// the grid, that offset is at least ``minimumAsynchrony``, and the period of those on the
/// beat (least squares over their beat numbers) agrees with the clicks' within
/// ``periodAgreement`` (or their difference in build-up time, up to ``gatedPeriodAgreement``,
/// where a noise gate opened on each click; or ``farPeriodAgreement`` where the clicks lie
/// ``farBleedDropDB`` or more under the taps). If the two are the participant's own first taps, their interval is off
/// the later taps' period (extended over tens of periods, it drifts off them), or the taps
/// that follow keep about zero offset to it, or the two are as loud as the rest and as high
/// over their background.
///
/// A participant whose taps coincide with the beat (their median offset under
/// ``minimumAsynchrony``) usually keeps the count-in clicks as taps: timing cannot tell them
/// apart. The rule does not run when a stimulus onset already comes before the first tap.
public enum CountInClicks {
    /// How far under the later taps' median peak level, or their median height over the
    /// background (``Onset/snrDB``), the clicks' mean lies, at least, dB: bleed from headphones
    /// reaches the microphone far fainter than a finger's tap on the device (the count-ins of
    /// the robustness corpus's dev splits: 13–26 dB under the taps), and a gain control that
    /// raises the clicks leaves their height over the background. A metronome from a
    /// loudspeaker, as loud as the taps and as high over the background, is not taken for a
    /// count-in.
    public static let bleedDropDB = 10.0
    /// The beat periods considered (the clicks' interval), seconds.
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
    /// the taps keep (the count-ins of the robustness corpus's dev splits: within 0.03–0.38 ms,
    /// but for those a noise gate moved, ``gatedPeriodAgreement``);
    /// the interval between a participant's first two taps is off the later taps' period by
    /// milliseconds to tens of milliseconds (2.3–17.9 ms there), and the grid it spans drifts
    /// across them.
    public static let periodAgreement: Seconds = 0.001
    /// Where the taps scatter so much that their period is known less well than
    /// ``periodAgreement``, they agree with the clicks' within this many standard errors of
    /// their period (the least-squares slope's): a count-in's interval is off the later
    /// taps' period by 1.0–1.9 ms, 1.1–2.8 standard errors, in some of the corpus's recordings
    /// (a tapper whose taps scatter by 20 ms), and a participant's own first interval by
    /// milliseconds to tens of milliseconds, at which the grid drifts off the taps that follow
    /// (see ``phaseShareOnBeat``).
    public static let periodAgreementErrors = 3.0

    /// How close to the grid of the first two a further click of the count-in lies, seconds
    /// (a digital metronome is sample-exact; a count-in of a bar or more has more clicks).
    public static let runTolerance: Seconds = 0.001
    /// How many of the taps after the count-in show their phase to it, at most: the first
    /// ones, over which a grid spanned by one interval drifts by at most a few milliseconds
    /// (an interval 0.1 ms off drifts 2.4 ms over 24 beats).
    public static let laterTapsExamined = 24

    /// Indices of `onsets` (in time order) that are count-in clicks. The count-in starts with
    /// the first two onsets of kind ``OnsetKind/tap``, or with the first tap and a sound scored
    /// as ``OnsetKind/other`` before the second tap that sounds like it (one of a count-in's
    /// two clicks can score under the cut, as in 6 items of the robustness corpus's eight
    /// seeds); further clicks and the later taps are taps. `stimulusTimes` are the
    /// stimulus onsets already set aside: when one comes before the first tap, the clicks
    /// before the taps were found (on the click grid, or by this rule before), and the rule
    /// does not run.
    public static func indices(in onsets: [Onset], stimulusTimes: [Seconds] = []) -> Set<Int> {
        let taps = onsets.indices.filter { onsets[$0].kind == .tap }
        guard taps.count >= 2 + minimumLaterTaps,
              taps.allSatisfy({ onsets[$0].time.isFinite && onsets[$0].strength.isFinite && onsets[$0].snrDB.isFinite }) else { return [] }
        let firstTap = taps[0]
        let others = onsets.indices.filter { index in
            onsets[index].kind == .other && onsets[index].features != nil && onsets[index].time < onsets[taps[1]].time
                && onsets[index].time.isFinite && onsets[index].strength.isFinite && onsets[index].snrDB.isFinite
        }
        let pairs = [(taps[0], taps[1])] + others.map { $0 < firstTap ? ($0, firstTap) : (firstTap, $0) }
        for (first, second) in pairs {
            if let clicks = countIn(first, second, in: onsets, taps: taps, stimulusTimes: stimulusTimes) { return clicks }
        }
        return []
    }

    /// Whether `sounds` are one click played again: peak levels, or heights over the
    /// background, within ``levelSpreadDB`` (`StimulusMarkers.soundAlike`), and spectral
    /// centroids within ``centroidSpread``.
    static func soundAlike(_ sounds: [Onset]) -> Bool {
        StimulusMarkers.soundAlike(sounds, orHeights: true, levelSpread: levelSpreadDB, centroidSpread: centroidSpread)
    }

    /// How far apart a count-in's clicks may peak, or stand over their background, at most,
    /// dB. A digital metronome plays one click, but what processes the recording moves its
    /// level: a noise gate opens a different way on each click (the corpus's seed 97
    /// `gated-dev-2`: two count-in clicks 5.0 dB apart in level, 4.7 dB in height) and a fast gain
    /// control moves the clicks with the background it follows. Chosen on the robustness
    /// corpus's development splits and the phone chains' (errors there against the markers'
    /// 2 dB, the bound before: 1 fewer at 4 dB, 8 fewer at 6, 9 fewer at 9; no tap lost at 6).
    /// Not 9, for what it costs: simulated tappers whose soft first two taps lie up to 12 dB
    /// apart lose them to a count-in in 5 of 400 at 6 dB, 4 at 2 dB, 9 at 9 dB
    /// (`CountInClicksTests`). Every click of a longer count-in lies within it of every other.
    public static let levelSpreadDB = 6.0

    /// The largest ratio of spectral centroids among a count-in's clicks (a lossy codec moved
    /// them up to 16 % apart through `Scripts/phone-chain`; markers keep 10 %).
    public static let centroidSpread = 1.2

    /// How far the later taps' period may lie from the clicks' interval where the two clicks
    /// build up differently, at most, seconds: the bound is their difference in build-up time
    /// up to this. A noise gate that opens on each click moved the gated count-ins of the
    /// robustness corpus's seeds 1 and 103 1.76 and 1.70 ms off (their clicks building up 5.9
    /// and 2.7 ms apart); a participant's own first interval lay 2.3 ms or more off on that
    /// corpus (see ``periodAgreement``), but a tapper's scatter puts it anywhere: soft first
    /// taps that sound alike and build up 3 ms apart are taken for a count-in in 22 of 400
    /// simulated tappers against 12 of 400 built up alike (the 10 more lay 1.4–1.95 ms off).
    /// Where either sound has no features, the bound does not grow.
    public static let gatedPeriodAgreement: Seconds = 0.002
    /// How far under the later taps the clicks must lie, both by peak level and by height over
    /// the background, for ``farPeriodAgreement`` to apply, dB. At 18 dB two more of the gated
    /// count-in clicks below were set aside, but a hesitant tapper's first two taps 16 dB under
    /// the rest were taken in 8 more of the 400 simulations of `CountInClicksTests`.
    public static let farBleedDropDB = 21.0
    /// How far the later taps' period may lie from the clicks' interval where the clicks lie
    /// ``farBleedDropDB`` or more under the taps, seconds. A noise gate that opens on each click
    /// moves its detected start by up to the gate's attack, whatever the two clicks' build-up:
    /// the gated count-ins of the robustness corpus's seeds 401–416, 21–32 dB under the taps,
    /// lay 2.7–5.1 ms off the taps' period with build-ups 0.4–2.6 ms apart (with an 18 dB
    /// bound, 4 ms set aside 3 clicks fewer there, 10 ms none more). The cost: a participant
    /// whose first two taps come 24 dB softer than the rest and sound alike loses them in 80
    /// of 400 simulated tappers (`CountInClicksTests`), where their interval lies within this
    /// bound of the later taps' period.
    public static let farPeriodAgreement: Seconds = 0.006

    /// How differently two sounds build up (onset to power peak), seconds; zero without
    /// features. A noise gate that opens on each click takes the first part of one more than
    /// of the other, and its detected start moves by up to that difference.
    static func buildUpDifference(_ first: Onset, _ second: Onset) -> Seconds {
        guard let a = first.features?.attackDuration, let b = second.features?.attackDuration, a.isFinite, b.isFinite else { return 0 }
        return abs(a - b)
    }

    /// The count-in that starts with onsets `firstIndex` and `secondIndex`, if the later taps
    /// bear it out.
    private static func countIn(_ firstIndex: Int, _ secondIndex: Int, in onsets: [Onset], taps: [Int],
                                stimulusTimes: [Seconds]) -> Set<Int>? {
        let first = onsets[firstIndex], second = onsets[secondIndex]
        guard !stimulusTimes.contains(where: { $0 < first.time - runTolerance }) else { return nil }
        guard soundAlike([first, second]) else { return nil }
        // The count-in: the first two and every further tap on their grid that sounds like them.
        var run = [firstIndex, secondIndex]
        var period = second.time - first.time
        var following = taps.drop { onsets[$0].time <= second.time }
        while following.count > minimumLaterTaps {
            let next = onsets[following.first!]
            guard abs(next.time - (first.time + Double(run.count) * period)) <= runTolerance,
                  soundAlike(run.map { onsets[$0] } + [next]) else { break }
            run.append(following.removeFirst())
            period = (next.time - first.time) / Double(run.count - 1)
        }
        guard periodRange.contains(period), following.count >= minimumLaterTaps else { return nil }
        let later = following.prefix(laterTapsExamined).map { onsets[$0] }
        // Under the later taps by their peak level, or by their height over the background
        // (``Onset/snrDB``): a gain control raises the quiet stretch before the first tap,
        // clicks and background together, up to a few dB under the taps, and leaves the
        // clicks' height over that background as it was.
        let clickLevel = run.reduce(0) { $0 + onsets[$1].strength } / Double(run.count)
        let clickSNR = run.reduce(0) { $0 + onsets[$1].snrDB } / Double(run.count)
        guard let tapLevel = Summary(later.map(\.strength))?.median, let tapSNR = Summary(later.map(\.snrDB))?.median,
              clickLevel <= tapLevel - bleedDropDB || clickSNR <= tapSNR - bleedDropDB else { return nil }
        // Each later tap's beat on the grid and signed distance from it; the taps off the
        // beat (a stray sound among them) take no part in the period.
        let times = later.map(\.time)
        let beats = times.map { (($0 - first.time) / period).rounded() }
        let offsets = zip(times, beats).map { $0 - (first.time + $1 * period) }
        guard let median = Summary(offsets)?.median, abs(median) >= minimumAsynchrony else { return nil }
        let onBeat = offsets.indices.filter { abs(offsets[$0] - median) <= phaseTolerance * period }
        guard Double(onBeat.count) >= phaseShareOnBeat * Double(offsets.count) else { return nil }
        // Taps all on one beat give a period that is not a number: no count-in.
        let points = onBeat.map { (k: beats[$0], time: times[$0]) }
        let line = StimulusLockedOnsets.fitLine(points)
        let farUnder = clickLevel <= tapLevel - farBleedDropDB && clickSNR <= tapSNR - farBleedDropDB
        guard abs(line.period - period) <= max(periodAgreement, periodAgreementErrors * StimulusLockedOnsets.periodError(of: line, points),
                                               min(buildUpDifference(first, second), gatedPeriodAgreement),
                                               farUnder ? farPeriodAgreement : 0) else { return nil }
        return Set(run)
    }
}
