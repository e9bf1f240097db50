import TapAudio
import TapStatistics

/// Sounds scored as taps that belong to a family of metronome clicks heard on their own.
///
/// A metronome replays one waveform at one period. Where a recording's processing (a noise
/// suppressor, a codec, a gain control) scatters its clicks too far in time for the click grid
/// (``StimulusLockedOnsets``: 0.3–1 ms) and too far in level and sound for ``ClickCopies``
/// (1 dB), the clicks heard alone still sound alike to a few decibels and keep the metronome's
/// period to a couple of milliseconds; a finger's taps scatter by tens of milliseconds around
/// the beat and vary in sound, and the detector's score already takes most heard clicks for
/// other sounds.
///
/// A sound scored as a tap, lying ``CountInClicks/bleedDropDB`` or more under the taps' median
/// level (bleed reaches the microphone far fainter than a tap on the device), is a click when
/// at least ``minimumFamily`` sounds near it (within ``reach``, of the ``maximumPartners``
/// nearest that sound like it), each on a beat of its own,
/// - lie as far under the taps,
/// - sound like it (within ``levelTolerance`` in peak level, ``centroidTolerance`` in spectral
///   centroid where both were measured, ``profileTolerance`` in band profile over the bands that
///   carry either: `ClickCopies.carryingBandDistance`),
/// - keep one grid within ``timeTolerance``, with a period within ``periodSlack`` of the taps'
///   median interval, that passes within ``timeTolerance`` of the sound itself
///   (`largestFamily(around:partners:interval:)`),
///
/// and at least ``otherShare`` of those were scored as other sounds, or the sound and all of
/// them lie ``quietFamilyDropDB`` or more under the taps.
public enum ClickFamily {
    /// How far a click of the family may lie from the sound in band profile, dB (root mean
    /// square over the bands that carry either).
    public static let profileTolerance = 2.0
    /// How far a click of the family may lie from the sound in peak level, dB.
    public static let levelTolerance = 3.0
    /// The largest ratio of the sound's spectral centroid to a family click's.
    public static let centroidTolerance = 1.1
    /// How far from the family's grid a click of it, and the sound, may lie, seconds.
    public static let timeTolerance: Seconds = 0.002
    /// How far the family's period may lie from the taps' median interval, as a fraction of it.
    public static let periodSlack = 0.06
    /// How far before and after the sound its family is sought, seconds (the period need not
    /// hold across a long recording).
    public static let reach: Seconds = 10
    /// How many alike sounds, the nearest in time, are weighed at most: the cost per sound is
    /// the square of their number, and a recording full of alike sounds (a noisy background)
    /// must not make it grow.
    public static let maximumPartners = 32
    /// The fewest family clicks (on as many beats) a sound must have.
    public static let minimumFamily = 3
    /// The least share of the family that the detector's score took for other sounds.
    public static let otherShare = 0.75
    /// How far under the taps' median level the sound and every click of its family must lie
    /// to be taken without ``otherShare``, dB. Through a noise gate that opens on each click,
    /// the clicks heard alone score as taps (the robustness corpus's `gated` items of seeds
    /// 401–416: the 51 clicks that passed as taps scored 0.64–0.999 and lay 15–35 dB under
    /// the taps' median), and the share would keep them all; a finger's taps that far under
    /// the others are rare, and they still need a family on one grid to 2 ms. At 12 dB instead
    /// the same false onsets were set aside, at 20 dB one fewer.
    public static let quietFamilyDropDB = 15.0

    /// Indices of `onsets` (in time order, scored: kinds ``OnsetKind/tap`` and
    /// ``OnsetKind/other``) of kind ``OnsetKind/tap`` that are clicks of a family. None with
    /// fewer than ``TapScore/outsiderMinimumTaps`` taps, or where the taps' median interval lies
    /// outside ``CountInClicks/periodRange`` (sounds that close together are no tapping a
    /// metronome's period can be told from).
    public static func indices(in onsets: [Onset]) -> Set<Int> {
        let taps = TapScore.referenceTaps(onsets)
        let tapTimes = taps.map { onsets[$0].time }.filter(\.isFinite).sorted()
        guard let tapLevel = TapScore.referenceTapLevel(onsets),
              let interval = Summary(zip(tapTimes, tapTimes.dropFirst()).map { $1 - $0 })?.median,
              CountInClicks.periodRange.contains(interval) else { return [] }
        let quiet = onsets.indices.filter { index in
            onsets[index].kind != .stimulus && onsets[index].time.isFinite && TapScore.comparableProfile(onsets[index]) != nil
                && onsets[index].strength <= tapLevel - CountInClicks.bleedDropDB
        }
        var clicks: Set<Int> = []
        for (position, index) in quiet.enumerated() where onsets[index].kind == .tap {
            let partners = alikeNeighbours(of: position, among: quiet, in: onsets)
            let family = largestFamily(around: onsets[index].time, partners: partners.map { onsets[$0].time }, interval: interval)
            guard family.count >= minimumFamily else { continue }
            let heardAsOther = Double(family.count { onsets[partners[$0]].kind == .other }) >= otherShare * Double(family.count)
            let quietLimit = tapLevel - quietFamilyDropDB
            let quietFamily = onsets[index].strength <= quietLimit && family.allSatisfy { onsets[partners[$0]].strength <= quietLimit }
            guard heardAsOther || quietFamily else { continue }
            clicks.insert(index)
        }
        return clicks
    }

    /// Up to ``maximumPartners`` of `quiet` (indices of `onsets`, in time order) within
    /// ``reach`` of the one at `position` that sound like it, the nearest in time first: read
    /// outwards from it, so that a long run of sounds far away is never compared.
    static func alikeNeighbours(of position: Int, among quiet: [Int], in onsets: [Onset]) -> [Int] {
        let sound = onsets[quiet[position]]
        var found: [Int] = []
        var before = position - 1, after = position + 1
        while found.count < maximumPartners {
            let earlier = before >= 0 ? sound.time - onsets[quiet[before]].time : .infinity
            let later = after < quiet.count ? onsets[quiet[after]].time - sound.time : .infinity
            guard min(earlier, later) <= reach else { break }
            let next: Int
            if earlier <= later {
                next = quiet[before]
                before -= 1
            } else {
                next = quiet[after]
                after += 1
            }
            if soundAlike(sound, onsets[next]) { found.append(next) }
        }
        return found
    }

    /// Whether two sounds sound alike as the clicks of one metronome do after processing: as
    /// markers are judged (`StimulusMarkers.soundAlike`), with this family's bounds, and in band
    /// profile as `ClickCopies` compares them.
    static func soundAlike(_ a: Onset, _ b: Onset) -> Bool {
        guard let p = a.features?.bandProfile, let q = b.features?.bandProfile else { return false }
        return StimulusMarkers.soundAlike([a, b], levelSpread: levelTolerance, centroidSpread: centroidTolerance)
            && ClickCopies.carryingBandDistance(p, q) <= profileTolerance
    }

    /// The indices of `partners` (times) that keep one grid with `time`, the largest such set:
    /// each partner proposes a period (its distance over the nearest whole number of
    /// `interval`s, within ``periodSlack`` of it), which gathers the partners within
    /// ``timeTolerance`` of its grid through `time`, one per beat (the nearest to its line). The
    /// gathered partners' own grid, fitted on them alone by least squares, must keep a period
    /// within the slack and pass within the tolerance of `time`: the sound lies on the clicks'
    /// grid, not merely whole periods from each of them on a stretched one. It gathers again,
    /// twice (the first fit moves the grid off the proposer's, the second settles it).
    static func largestFamily(around time: Seconds, partners: [Seconds], interval: Seconds) -> [Int] {
        let offsets = partners.map { $0 - time }
        func keeps(_ period: Seconds) -> Bool { period.isFinite && abs(period - interval) <= periodSlack * interval }
        /// The partners within the tolerance of `grid` (of offsets from the sound), the nearest
        /// one per whole number of periods but the sound's own (0).
        func gathered(_ grid: StimulusLockedOnsets.Grid) -> [(index: Int, whole: Double)] {
            var nearest: [Double: (index: Int, distance: Double)] = [:]
            for index in offsets.indices {
                let whole = ((offsets[index] - grid.phase) / grid.period).rounded()
                let distance = abs(offsets[index] - grid.phase - whole * grid.period)
                guard whole != 0, distance <= timeTolerance, distance < nearest[whole]?.distance ?? .infinity else { continue }
                nearest[whole] = (index, distance)
            }
            return nearest.map { (index: $0.value.index, whole: $0.key) }
        }
        var best: [Int] = []
        for offset in offsets {
            let periods = (abs(offset) / interval).rounded()
            guard periods >= 1, keeps(abs(offset) / periods) else { continue }
            var family = gathered(StimulusLockedOnsets.Grid(phase: 0, period: abs(offset) / periods))
            for _ in 0..<2 {
                let grid = StimulusLockedOnsets.fitLine(family.map { (k: $0.whole, time: offsets[$0.index]) })
                guard family.count >= 2, keeps(grid.period), abs(grid.phase) <= timeTolerance else {
                    family = []
                    break
                }
                family = gathered(grid)
            }
            if family.count > best.count { best = family.map(\.index) }
        }
        return best
    }
}

extension TapOnsetDetection {
    /// The detection with the taps that are clicks of a family (``ClickFamily``) moved to the
    /// stimulus onsets, as stimulus onsets; everything else as it was.
    func settingAsideClickFamilies() -> TapOnsetDetection {
        // Each sound with whether it is one of the taps, all in time order.
        let sounds = (onsets.map { (onset: $0, isTap: true) } + otherOnsets.map { (onset: $0, isTap: false) })
            .sorted { $0.onset.time < $1.onset.time }
        let clicks = ClickFamily.indices(in: sounds.map(\.onset))
        guard !clicks.isEmpty else { return self }
        var copy = self
        copy.onsets = sounds.indices.filter { sounds[$0].isTap && !clicks.contains($0) }.map { sounds[$0].onset }
        let setAside = clicks.sorted().map { index in
            var click = sounds[index].onset
            click.kind = .stimulus
            return click
        }
        copy.stimulusOnsets = (stimulusOnsets + setAside).sorted { $0.time < $1.time }
        return copy
    }
}
