import TapAudio
import TapStatistics

extension TapScore {
    /// How far a set-aside sound may lie from the recording's taps' median
    /// ``OnsetFeatures/bandProfile`` (root mean square over the bands, dB) to be taken back as a
    /// tap that sounded with its click (`tapsOnClicks`).
    public static let tapOnClickProfileDistance = 5.0
    /// How much nearer the taps' median profile such a sound lies than the set-aside sounds
    /// that resemble it, at least, dB: fewer than ``alikeSetAsideSounds`` of them may lie
    /// within its distance from the taps' median plus this margin. Where more do, the sound
    /// must lie this much nearer the taps' median profile than the set-aside sounds' median
    /// profile (and fill an empty beat: `tapsOnClicks`).
    public static let tapOnClickProfileMargin = 2.0
    /// How many other set-aside sounds must resemble one for it to stay set aside: two, so that
    /// two taps on clicks cannot keep each other set aside. (Nor can more, where each fills an
    /// empty beat of the taps' rhythm: see `tapsOnClicks`.)
    public static let alikeSetAsideSounds = 2
    /// The longest interval between two taps, as a multiple of the recording's median, that
    /// is one beat of the tapper's rhythm when judging whether a set-aside sound fills an
    /// empty beat (`fillsAnEmptyBeat`); a longer one spans a beat the tapper skipped or the
    /// detector lost, and would make the rhythm look unsteady around it.
    public static let singleBeatIntervalBound = 1.5
    /// The fewest measured set-aside sounds (the one judged among them) whose profiles and
    /// levels stand for what the clicks leave.
    public static let minimumMeasuredSetAsideSounds = 3
    /// How far over the set-aside sounds' median peak level a tap taken back from them peaks,
    /// at least, dB: a tap adds at least as much power again as a click leaves (two equal
    /// powers make 3 dB more).
    public static let tapOnClickRiseDB = 3.0

    /// The indices (ascending) of `setAside`, the stimulus onsets of a recording, that may be
    /// taps which sounded with their click: each spreads its power over the octave bands as the
    /// recording's taps do (within ``tapOnClickProfileDistance`` of their median profile,
    /// `tapProfile`) and not as the other set-aside sounds do (fewer than
    /// ``alikeSetAsideSounds`` of them lie within its distance from the taps' median plus
    /// ``tapOnClickProfileMargin``), and it peaks ``tapOnClickRiseDB`` or more over their median
    /// level. Only onsets with features and a finite level are measured (a heard click is
    /// listed without features); none with fewer than ``minimumMeasuredSetAsideSounds``.
    ///
    /// Where a tapper taps on several clicks, those sounds resemble each other and would keep
    /// each other set aside. So a sound that resembles ``alikeSetAsideSounds`` or more of the
    /// others is still taken when it lies nearer the taps' median profile than the median
    /// profile of all the measured set-aside sounds (itself included) by
    /// ``tapOnClickProfileMargin`` or more, and `isInEmptyBeat` says the taps' rhythm has an
    /// empty beat where it sounds (`fillsAnEmptyBeat`): seed 109's `loudspeaker-held-1` of the
    /// robustness corpus tapped on 5 of its 45 wood-block clicks. Where a recording leaves two
    /// kinds of leftover, their median may lie between them, and then the empty beat is what
    /// keeps a leftover of the kind nearer the taps set aside where the tapper tapped; a
    /// leftover in a beat the tapper skipped that also sounds like the taps is taken (the
    /// rhythm alone cannot tell such a beat: Docs/robustness.md, session 42).
    ///
    /// What a click's subtraction leaves is set aside by where it starts (where the click was
    /// heard to start) and how loud it is (clearly under the click); a tap that falls on its
    /// click, as through a loudspeaker the tapper synchronises with what they hear, passes both
    /// tests. Its sound still tells: the profile is measured on what a sound adds over the
    /// 10 ms before it, and what the subtraction leaves of a click keeps that click's colour,
    /// like what it leaves of the other clicks (a recording can leave two kinds, from a click's
    /// start and from its tail, so the nearest are compared, not their median), while a tap
    /// keeps the taps'. Where no click could be subtracted, the clicks themselves are set
    /// aside, and the same holds of a tap the click grid took for its click.
    static func tapsOnClicks(_ setAside: [Onset], tapProfile: [Double],
                             isInEmptyBeat: (Seconds) -> Bool = { _ in false }) -> [Int] {
        let measured: [(index: Int, profile: [Double])] = setAside.indices.compactMap { index in
            comparableProfile(setAside[index]).flatMap { $0.count == tapProfile.count ? (index, $0) : nil }
        }
        guard let setAsideProfile = medianProfile(setAside, taps: measured.map(\.index), fewest: minimumMeasuredSetAsideSounds),
              let level = Summary(measured.map { setAside[$0.index].strength })?.median else { return [] }
        let profiles = measured.map(\.profile)
        return measured.indices.filter { position in
            guard setAside[measured[position].index].strength >= level + tapOnClickRiseDB else { return false }
            let toTaps = profileDistance(profiles[position], tapProfile)
            guard toTaps <= tapOnClickProfileDistance else { return false }
            let alike = profiles.indices.filter { other in
                other != position && profileDistance(profiles[position], profiles[other]) <= toTaps + tapOnClickProfileMargin
            }
            return alike.count < alikeSetAsideSounds
                || (profileDistance(profiles[position], setAsideProfile) >= toTaps + tapOnClickProfileMargin
                    && isInEmptyBeat(setAside[measured[position].index].time))
        }.map { measured[$0].index }
    }

    /// The median ``OnsetFeatures/bandProfile`` of `taps`, band by band: what the recording's
    /// taps sound like to ``spreadsLikeATapOnItsClick(_:tapProfile:)``. Nil with fewer than
    /// ``outsiderMinimumTaps`` measured, or profiles empty or of unequal length (the 8 kHz
    /// band's taps are profiled over fewer bands than the configured band's).
    public static func medianBandProfile(of taps: [Onset]) -> [Double]? {
        medianProfile(taps, taps: Array(taps.indices))
    }

    /// Whether `sound`, set aside at a click, spreads its power over the octave bands as closely
    /// to the recording's taps as a tap that sounded with its click must, to be taken back:
    /// within ``tapOnClickProfileDistance`` of `tapProfile` (``medianBandProfile(of:)`` of the
    /// taps). Only that test of `tapsOnClicks`, which also compares the sound with the other
    /// set-aside sounds and their level: a caller with other evidence (a touch) asks this
    /// alone. What a click's subtraction leaves keeps the click's colour.
    public static func spreadsLikeATapOnItsClick(_ sound: Onset, tapProfile: [Double]) -> Bool {
        guard let profile = comparableProfile(sound) else { return false }
        return profileDistance(profile, tapProfile) <= tapOnClickProfileDistance
    }

    /// `sounds` (any order) scored and classified as ``classify(_:cut:stimulusTimes:)`` does,
    /// with the taps that sounded with their clicks taken back from `stimulus` (the recording's
    /// stimulus onsets; `tapsOnClicks`, judged against the taps `sounds` alone give): those that
    /// score as taps among the sounds (at ``outsiderReferenceScore``, so that a sweep of the cut
    /// does not move them) join them; any that does not goes back, and the rest are scored
    /// again without it. Returns the scored sounds in time order and the stimulus onsets left.
    static func classify(_ sounds: [Onset], takingTapsOnClicksFrom stimulus: [Onset], cut: Double)
        -> (sounds: [Onset], stimulus: [Onset]) {
        let sounds = sounds.sorted { $0.time < $1.time }
        let alone = classify(sounds, cut: cut, stimulusTimes: stimulus.map(\.time))
        let reference = referenceTaps(alone)
        guard let tapProfile = medianProfile(alone, taps: reference) else { return (alone, stimulus) }
        let tapTimes = reference.map { alone[$0].time }
        let rhythm = singleBeatIntervals(localIntervals(alone, anchors: reference, voidedBy: []))
        var taken = tapsOnClicks(stimulus, tapProfile: tapProfile) { fillsAnEmptyBeat($0, tapTimes: tapTimes, intervals: rhythm) }
        while !taken.isEmpty {
            let takenSet = Set(taken)
            let left = stimulus.indices.filter { !takenSet.contains($0) }.map { stimulus[$0] }
            // Each onset with the stimulus onset it was, if it was one, in time order.
            let trial = (sounds.map { ($0, Int?.none) } + taken.map { (stimulus[$0], Int?.some($0)) }).sorted { $0.0.time < $1.0.time }
            let scored = classify(trial.map(\.0), cut: cut, stimulusTimes: left.map(\.time))
            let failing = Set(trial.indices.compactMap { scored[$0].tapScore < outsiderReferenceScore ? trial[$0].1 : nil })
            if failing.isEmpty { return (scored, left) }
            taken.removeAll { failing.contains($0) }
        }
        return (alone, stimulus)
    }

    /// The intervals of `rhythm` (from `localIntervals`) no longer than
    /// ``singleBeatIntervalBound`` times their median, with where each starts: the tapper's
    /// beats, without the gaps where a beat went untapped or undetected. (`maskedTaps` reads
    /// the rhythm with its gaps: it fills a beat only between two taps one interval away.)
    static func singleBeatIntervals(_ rhythm: (starts: [Seconds], intervals: [Seconds])) -> (starts: [Seconds], intervals: [Seconds]) {
        guard let median = Summary(rhythm.intervals)?.median else { return rhythm }
        let kept = rhythm.intervals.indices.filter { rhythm.intervals[$0] <= singleBeatIntervalBound * median }
        return (kept.map { rhythm.starts[$0] }, kept.map { rhythm.intervals[$0] })
    }

    /// Whether a sound at `time` fills a beat of a steady rhythm that the taps (`tapTimes`, in
    /// time order) left empty: taps on both sides, none within one local interval less the
    /// tolerance (``rhythmTolerance``) of it, and the tap before or the tap after it one
    /// interval away within the tolerance. The rhythm (`intervals`, from
    /// `singleBeatIntervals`) is read around `time` and must be steady. One neighbour on the
    /// beat is enough, so each of two empty beats in a row is filled; of three or more in a
    /// row, only the first and the last.
    static func fillsAnEmptyBeat(_ time: Seconds, tapTimes: [Seconds], intervals: (starts: [Seconds], intervals: [Seconds])) -> Bool {
        guard let gap = steadyGap(at: time, tapTimes: tapTimes, rhythm: intervals) else { return false }
        let interval = gap.rhythm.interval, tolerance = gap.rhythm.tolerance
        return gap.before >= interval - tolerance && gap.after >= interval - tolerance
            && (abs(gap.before - interval) <= tolerance || abs(gap.after - interval) <= tolerance)
    }
}
