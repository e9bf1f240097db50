import TapAudio
import TapStatistics

/// Crowds: taps closer together than a tapper taps (Docs/algorithms.md, "Crowded taps").
///
/// A key pressed just before a tap, a press and its release that both scored as taps, a
/// tap heard with a sound 40–100 ms after it: of two sounds this close at most one is a
/// tap. The pair rule (`pressReleasePairs`) settles an isolated pair whose second sound is
/// the weaker; a crowd is settled by the rhythm of the taps around it.
extension TapScore {
    /// How much weaker than the crowd's best fit to the rhythm a member also on the rhythm
    /// must sound to lose to it, dB.
    public static let crowdLeadDB = 6.0

    /// What the rhythm says of the crowds (`crowdedTaps`), given the anchors (the taps that
    /// vouch for the rhythm: no suspect and no crowd member, ascending) and the local
    /// intervals between them (`localIntervals`).
    ///
    /// A member's fit (`rhythmFit`) is how far one local interval before and after it lies
    /// from the nearest anchor. The best-fitting member on the rhythm is the crowd's winner.
    /// Another member loses to it when it is off the rhythm on both sides, or when it fits
    /// worse by ``clickBeatTolerance`` of an interval *and* sounds ``crowdLeadDB`` weaker
    /// (a key's release after its press). Which of two sounds on the rhythm fits better is
    /// otherwise as often the tapper's scatter as the truth, and a click left in after a tap
    /// keeps a steadier beat than the tap: both are left to the other rules.
    ///
    /// Where no member keeps the rhythm, the members before the first anchor lose (no
    /// member has the first tap one interval after it: a key pressed and released before the
    /// taps start), and every member is `offRhythm`: an extra between two beats one interval
    /// apart (the gap rule of `outsiders`). After the last anchor the members are not set
    /// aside, as there a crowd is most often the tapper's last taps heard with the clicks
    /// that came with them, neither an anchor.
    static func judgeCrowds(_ crowds: [[Int]], _ onsets: [Onset], anchors: [Seconds],
                            intervalStarts: [Seconds], intervals: [Seconds])
        -> (losers: Set<Int>, winners: Set<Int>, offRhythm: Set<Int>) {
        var losers = Set<Int>(), winners = Set<Int>(), offRhythm = Set<Int>()
        guard let firstAnchor = anchors.first else { return (losers, winners, offRhythm) }
        for crowd in crowds {
            let position = intervalStarts.firstIndex(notBelow: onsets[crowd[0]].time)
            guard let summary = Summary(Array(intervals[max(0, position - 4)..<min(intervals.count, position + 4)])) else { continue }
            let interval = summary.median
            // The taps' own rhythm, not the stimulus's: a click left in after a tap keeps the
            // metronome's beat.
            let fits = crowd.map { rhythmFit(onsets[$0].time, interval: interval, tolerance: rhythmTolerance * interval,
                                             anchors: anchors) }
            guard let best = fits.indices.min(by: { fits[$0] < fits[$1] }), fits[best].isFinite else {
                losers.formUnion(crowd.filter { onsets[$0].time < firstAnchor })
                offRhythm.formUnion(crowd)
                continue
            }
            winners.insert(crowd[best])
            let winner = onsets[crowd[best]]
            for (member, fit) in zip(crowd, fits) where member != crowd[best] {
                if !fit.isFinite || (fit - fits[best] >= clickBeatTolerance * interval
                                     && onsets[member].strength <= winner.strength - crowdLeadDB) {
                    losers.insert(member)
                }
            }
        }
        return (losers, winners, offRhythm.subtracting(losers))
    }

    /// Runs of taps (of `taps`, in time order) each within ``pairGap`` of the next: a key's
    /// press and its release both scored as taps, a press and the tap after it. Taps come at
    /// least 150 ms apart, so at most one of a run is a tap.
    static func crowdedTaps(_ onsets: [Onset], taps: [Int]) -> [[Int]] {
        var crowds: [[Int]] = [], run: [Int] = []
        for tap in taps {
            if let last = run.last, pairGap.contains(onsets[tap].time - onsets[last].time) {
                run.append(tap)
            } else {
                if run.count > 1 { crowds.append(run) }
                run = [tap]
            }
        }
        if run.count > 1 { crowds.append(run) }
        return crowds
    }

    /// How far a sound at `time` lies from the taps' rhythm: the mean distance, over the sides
    /// where there is one, from one `interval` before or after it to the nearest of `anchors`
    /// (ascending) within `tolerance`; infinite where neither side has one.
    static func rhythmFit(_ time: Seconds, interval: Seconds, tolerance: Seconds, anchors: [Seconds]) -> Double {
        func distance(to target: Seconds) -> Double? {
            anchors.nearest(to: target).map { abs($0 - target) }.flatMap { $0 <= tolerance ? $0 : nil }
        }
        let sides = [distance(to: time - interval), distance(to: time + interval)].compactMap { $0 }
        return sides.isEmpty ? .infinity : sides.reduce(0, +) / Double(sides.count)
    }
}
