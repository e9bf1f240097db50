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

    /// The rhythm that the outsider rule judges by, once the crowds are settled.
    struct SettledRhythm {
        /// The taps that vouch for the rhythm (no suspect, and of a crowd only its winner),
        /// in time order.
        var anchors: [Int]
        /// The local intervals between successive anchors, and where each starts.
        var intervalStarts: [Seconds], intervals: [Seconds]
        /// Crowd members set aside: outsiders.
        var losers: Set<Int>
        /// Members of crowds none of whose members keeps the rhythm, not set aside already:
        /// they are judged by the gap between two beats.
        var offRhythm: Set<Int>
        /// The taps that void the intervals they sit in: the suspects and the crowd members
        /// not chosen.
        var voiding: Set<Int>
    }

    /// The anchors and local intervals of `outsiders` (`taps` in time order; `suspects` are no
    /// anchors and void the intervals they sit in), with the crowds (`crowdedTaps`) settled.
    ///
    /// Where crowds are the exception (their members fewer than ``pressShare`` of the taps;
    /// otherwise the taps are key presses, or every tap is heard with a second sound, and the
    /// crowds say nothing), a crowd's members vouch for no rhythm until the rhythm of the
    /// other taps has chosen among them (`judgeCrowds`). Its winner is an anchor again; every
    /// other member, set aside or not, still voids the intervals it sits in (letting those
    /// set aside keep their intervals moved one false onset from `keyboard` to `speech` on
    /// the corpus's six seeds).
    ///
    /// The crowds are judged once, against the taps outside them: of several crowds in a row
    /// before the first such tap, only the last can reach it. Judging again with the winners
    /// as anchors (up to four rounds) let 3 more sounds through on the six seeds and found no
    /// tap more, and is not done.
    static func settleCrowds(_ onsets: [Onset], taps: [Int], suspects: Set<Int>, unlikeTheTaps: Set<Int> = [],
                             noiseLike: Set<Int> = []) -> SettledRhythm {
        let crowds = crowdedTaps(onsets, taps: taps)
        let crowded = Set(crowds.joined())
        // The rhythm of the taps but the suspects and the crowd members not (yet) chosen, which
        // void the intervals they sit in.
        func rhythm(unchosen: Set<Int>, losers: Set<Int> = [], offRhythm: Set<Int> = []) -> SettledRhythm {
            let anchors = taps.filter { !suspects.contains($0) && !unchosen.contains($0) }
            let voiding = suspects.union(unchosen)
            let (starts, intervals) = localIntervals(onsets, anchors: anchors, voidedBy: voiding)
            return SettledRhythm(anchors: anchors, intervalStarts: starts, intervals: intervals, losers: losers, offRhythm: offRhythm,
                                 voiding: voiding)
        }
        guard !crowds.isEmpty, isException(crowded.count, amongTaps: taps.count) else { return rhythm(unchosen: []) }
        let outside = rhythm(unchosen: crowded)
        guard !outside.anchors.isEmpty else { return outside }
        let verdict = judgeCrowds(crowds, onsets, anchors: outside.anchors.map { onsets[$0].time },
                                  intervalStarts: outside.intervalStarts, intervals: outside.intervals,
                                  unlikeTheTaps: unlikeTheTaps, noiseLike: noiseLike)
        return rhythm(unchosen: crowded.subtracting(verdict.winners), losers: verdict.losers, offRhythm: verdict.offRhythm)
    }

    /// What the rhythm says of the crowds, given the `anchors` (ascending times) and the local
    /// intervals of the taps outside the crowds.
    ///
    /// A member's fit (`rhythmFit`) is how far one local interval before and after it lies
    /// from the nearest anchor. The best-fitting member on the rhythm is the crowd's winner.
    /// Another member loses to it when it is off the rhythm on both sides, or when it fits
    /// worse by ``clickBeatTolerance`` of an interval *and* sounds ``crowdLeadDB`` weaker
    /// (a key's release after its press). Which of two sounds on the rhythm fits better is
    /// otherwise as often the tapper's scatter as the truth, and a click left in after a tap
    /// keeps a steadier beat than the tap: both are left to the other rules. A crowd with no
    /// local interval nearby is left as it is, but for the members unlike the taps (below).
    ///
    /// Where no member keeps the rhythm, the members before the first anchor lose (no
    /// member has the first tap one interval after it: a key pressed and released before the
    /// taps start), and the others are `offRhythm`: an extra between two beats one interval
    /// apart (the gap rule of `outsiders`). After the last anchor the members are not set
    /// aside, as there a crowd is most often the tapper's last taps heard with the clicks
    /// that came with them, neither an anchor (but for the members unlike the taps, below).
    ///
    /// A crowd before the first anchor whose members all sound unlike the taps (`unlikeTheTaps`,
    /// or far flatter than them, `noiseLike`) loses whole, whatever the rhythm: keys pressed
    /// and released before the taps start, one of which lay one interval before the first tap
    /// by chance (since session 36). Flatness, weak evidence alone (`outsiders`), counts here
    /// beside the crowd itself, a second sign; `noiseLike` serves this rule only (a member far
    /// flatter than the taps does not lose to one like them below). No stimulus onset exempts
    /// such a crowd (as `clickReleaseReach` exempts a press whose release is a heard click):
    /// a first tap unlike the others heard with a click left in unlike them is lost; the
    /// corpus and the chains lost none.
    ///
    /// Then, where a crowd holds a member that sounds like the recording's taps, the members
    /// of `unlikeTheTaps` (unlike in centroid, band spread, attack or decay, a little off in both
    /// centroid and spread, or rising out of an earlier sound spread further from the taps than
    /// a masked tap may: `outsiders`) lose to it, wherever the crowd lies and whatever the
    /// rhythm, and the rhythm chooses among the others (since session 25: a syllable 65 ms from a tap, a click heard through a gate a
    /// tap had opened). Two sounds 40–100 ms apart both lie within the rhythm's tolerance of
    /// the beat, and which fits it better says little. A sound whose band profile alone is off
    /// loses so too, though out of a crowd one anchor on the rhythm keeps it (a quiet tap's
    /// profile scatters): measured alone, the crowds decided by sound set aside 21 more sounds
    /// on the eight corpus seeds and lost no tap. A crowd's later member rises out of the
    /// earlier one as a rule, so a tap 8–11 dB off the taps' spread after a knock that sounds
    /// like them loses to the knock; measured, keeping the riding sounds out of this step
    /// (session 27) gave back 15 of the 21 false onsets the riding rule removed and lost 3
    /// more taps, so they take part.
    static func judgeCrowds(_ crowds: [[Int]], _ onsets: [Onset], anchors: [Seconds],
                            intervalStarts: [Seconds], intervals: [Seconds], unlikeTheTaps: Set<Int> = [],
                            noiseLike: Set<Int> = []) -> (losers: Set<Int>, winners: Set<Int>, offRhythm: Set<Int>) {
        var losers = Set<Int>(), winners = Set<Int>(), offRhythm = Set<Int>()
        guard let firstAnchor = anchors.first else { return (losers, winners, offRhythm) }
        for wholeCrowd in crowds {
            // Before the taps start, a crowd that sounds unlike them in every member (far
            // flatter counts here too) is keys pressed and released: one of them one interval
            // before the first tap is there by chance.
            if onsets[wholeCrowd[0]].time < firstAnchor,
               wholeCrowd.allSatisfy({ unlikeTheTaps.contains($0) || noiseLike.contains($0) }) {
                losers.formUnion(wholeCrowd)
                continue
            }
            // Of sounds too close together to both be taps, one that sounds like the
            // recording's taps is the tap: the others lose before the rhythm is asked.
            let alike = wholeCrowd.filter { !unlikeTheTaps.contains($0) }
            let crowd = alike.isEmpty ? wholeCrowd : alike
            losers.formUnion(wholeCrowd.filter { !crowd.contains($0) })
            guard let rhythm = localRhythm(at: onsets[crowd[0]].time, starts: intervalStarts, intervals: intervals)
            else { continue }
            let interval = rhythm.interval
            // The taps' own rhythm, not the stimulus's: a click left in after a tap keeps the
            // metronome's beat.
            let fits = crowd.map { rhythmFit(onsets[$0].time, interval: interval, tolerance: rhythm.tolerance,
                                             anchors: anchors) }
            guard let best = fits.indices.min(by: { fits[$0] < fits[$1] }), fits[best].isFinite else {
                // No anchor lies among a crowd's members (they are successive taps), so a
                // crowd lies wholly before the first anchor or not at all.
                if onsets[crowd[0]].time < firstAnchor { losers.formUnion(crowd) } else { offRhythm.formUnion(crowd) }
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
        return (losers, winners, offRhythm)
    }

    /// Runs of taps (of `taps`, in time order) each ``pairGap`` after the one before: a key's
    /// press and its release both scored as taps, a press and the tap after it. Of sounds
    /// this close at most one is a tap. The gaps are the pair rule's: closer than 40 ms, a
    /// second onset is most often the same sound rising again (the mask's and the trains'
    /// business), and from 100 ms on two taps can both be real (a double tap, fast tapping).
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
    /// (ascending) within `tolerance`; infinite where neither side has one. (Counting a side
    /// with none as `tolerance`, so that a sound on the rhythm on both sides fits better than
    /// one on it on one, let 7 more sounds through on the corpus's six seeds and found no tap
    /// more.)
    static func rhythmFit(_ time: Seconds, interval: Seconds, tolerance: Seconds, anchors: [Seconds]) -> Double {
        func distance(to target: Seconds) -> Double? {
            anchors.nearest(to: target).map { abs($0 - target) }.flatMap { $0 <= tolerance ? $0 : nil }
        }
        let before = distance(to: time - interval), after = distance(to: time + interval)
        guard before != nil || after != nil else { return .infinity }
        let sides = [before, after].compactMap { $0 }
        return sides.reduce(0, +) / Double(sides.count)
    }
}
