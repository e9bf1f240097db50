import Foundation
import TapAudio
import TapStatistics

/// How much an onset sounds like a finger tap, from its ``OnsetFeatures`` and from the other
/// sounds of the same recording, on a scale of 0 to 1.
///
/// The score is the product of the memberships, each the degree (0–1) to which one
/// property looks like a tap's, a logistic curve that is 0.5 at its boundary:
///
/// | property | boundary | why |
/// |---|---|---|
/// | sustained SNR (first 10 ms over the floor) | ``sustainedSNRBoundary`` dB | noise excursions are brief |
/// | peak over the mask of earlier sounds | ``maskBoundary`` dB, ``tailMaskBoundary`` dB on an earlier sound's decay | a tap's own ringing and rattle, a room's reverberant tail stay under it |
/// | attack (start to power peak) | ``attackBoundary`` s | taps peak within milliseconds |
/// | decay | ``decayBoundary`` dB | coughs and speech are sustained |
/// | level under the recording's taps | ``levelRange`` dB | background blips far below every tap |
///
/// The second sound of a press–release pair (see `pressReleasePairs`), the onsets of a
/// train (see `trainMembers`; a syllable's pulses: see `syllablePulses`), sounds unlike the
/// recording's taps (in centroid, in how they spread their power over octave bands or in how
/// slowly they build up) or pressed like a key that fall off their rhythm (see `outsiders`),
/// and the sounds of a crowd that the rhythm or their sound sets aside (see `judgeCrowds`)
/// have their scores multiplied by ``pairFactor``, and so is a tap less than 40 ms after
/// another (see `tooSoonAfterATap`). A sound under 0.5 only for its mask membership (or a
/// train's factor) that spreads its power like the taps and fills the one empty beat of a
/// steady rhythm takes the score it would have clear of the mask (see `maskedTaps`). (Before
/// the sounds are classified, ``TapOnsetDetection/classified(cut:)`` takes back from the
/// stimulus onsets the taps that sounded with their clicks: see `tapsOnClicks`.) A score of
/// 0.5 therefore means one property sits at its boundary and the others are clearly
/// tap-like; the default cut (``OnsetDetectorConfiguration/minimumTapScore``) is 0.5. The level membership compares the
/// onset's peak with the recording's reference level, the second-loudest onset that passes
/// the others: a tap 30 dB quieter than that is still scored 1, a blip 50 dB under it is
/// scored near 0.
public enum TapScore {
    /// Sustained SNR at which the membership is 0.5, dB.
    public static let sustainedSNRBoundary = 4.0
    /// Peak over the mask at which the membership is 0.5, dB, where the mask is floor +
    /// threshold (the onset rose out of the background).
    public static let maskBoundary = 1.5
    /// The same where the mask is an earlier sound's decay (``OnsetFeatures/onEarlierSound``):
    /// 2.5 dB over it, a sound carries nearly the power of what it sits on (its own power
    /// 10·log10(10^0.25 − 1) = −1.1 dB against the mask's; 3 dB over would be equal). The
    /// bumps of a room's reverberant tail rise 1.6–4.6 dB over the mask, most of them (median
    /// 2.1–2.4 dB) under this. The boundary switches where an earlier sound's mask first
    /// stands over floor + threshold.
    public static let tailMaskBoundary = 2.5
    /// Decay (``OnsetFeatures/decayDB``) at which the membership is 0.5, dB.
    public static let decayBoundary = -1.0
    /// Attack duration at which the membership is 0.5, seconds.
    public static let attackBoundary: Seconds = 0.020
    /// How far under the reference level the level membership is 0.5, dB.
    public static let levelRange = 40.0

    /// The memberships of the four properties an onset has on its own (SNR, mask, attack,
    /// decay).
    static func ownScore(_ features: OnsetFeatures) -> Double {
        snrMembership(features) * maskMembership(features) * attackMembership(features) * decayMembership(features)
    }

    /// How far the first 10 ms stand over the floor, as a membership (``sustainedSNRBoundary``).
    static func snrMembership(_ features: OnsetFeatures) -> Double {
        logistic((features.sustainedSNR - sustainedSNRBoundary) / 0.7)
    }

    /// How far the peak stands over the mask of earlier sounds, as a membership
    /// (``maskBoundary``, ``tailMaskBoundary`` on an earlier sound's decay).
    static func maskMembership(_ features: OnsetFeatures) -> Double {
        logistic((features.aboveMaskDB - (features.onEarlierSound ? tailMaskBoundary : maskBoundary)) / 0.8)
    }

    /// How soon the power peaks, as a membership (``attackBoundary``).
    static func attackMembership(_ features: OnsetFeatures) -> Double {
        logistic((attackBoundary - features.attackDuration) / 0.002)
    }

    /// How far the sound decays, as a membership (``decayBoundary``).
    static func decayMembership(_ features: OnsetFeatures) -> Double {
        logistic((decayBoundary - features.decayDB) / 1.0)
    }

    /// The level membership of a peak at `strength` dBFS against the `reference` level.
    static func levelScore(strength: Double, reference: Double) -> Double {
        logistic((strength - (reference - levelRange)) / 2.0)
    }

    /// Scores and classifies every onset with features (others keep score 1 and their kind),
    /// `onsets` in time order: ``OnsetKind/tap`` at or above `cut`, ``OnsetKind/other`` below.
    /// `stimulusTimes` (any order) are the stimulus onsets set aside in the same recording:
    /// they keep the taps' rhythm where a tap was reported as the click it merged with.
    ///
    /// Onsets a script made may hold values that are not numbers: features that are not are
    /// dropped, a level that is not one scores as no evidence either way (level membership 1),
    /// and an onset without a finite time, which has no place in the taps' rhythm, is another
    /// sound (score 0). Stimulus times that are not numbers are ignored.
    public static func classify(_ onsets: [Onset], cut: Double, stimulusTimes: [Seconds] = []) -> [Onset] {
        let measurable = onsets.map(\.measurable)
        let stimulusTimes = stimulusTimes.filter(\.isFinite)
        let placed = measurable.indices.filter { measurable[$0].time.isFinite }
        guard placed.count < onsets.count else { return classifyPlaced(measurable, cut: cut, stimulusTimes: stimulusTimes) }
        var result = measurable.map(\.unplaced)
        for (position, scored) in classifyPlaced(placed.map { measurable[$0] }, cut: cut, stimulusTimes: stimulusTimes).enumerated() {
            result[placed[position]] = scored
        }
        return result
    }

    /// ``classify(_:cut:stimulusTimes:)`` of onsets with finite times and measurable features.
    private static func classifyPlaced(_ onsets: [Onset], cut: Double, stimulusTimes: [Seconds]) -> [Onset] {
        let own = onsets.map { $0.features.map(ownScore) ?? 1 }
        // A level that is not a number (an onset a script made) is no evidence either way, and
        // neither it nor an infinite one is the reference.
        let candidates = onsets.indices.filter { own[$0] >= 0.5 }.map { onsets[$0].strength }.filter { !$0.isNaN && $0 < .infinity }.sorted(by: >)
        let reference = candidates.count >= 2 ? candidates[1] : candidates.first
        let pairs = pressReleasePairs(onsets, own: own)
        let releases = Set(pairs.map(\.release))
        let paired = releases.union(trainMembers(onsets)).union(syllablePulses(onsets))
        let levels = onsets.map { onset in onset.strength.isNaN ? 1 : reference.map { levelScore(strength: onset.strength, reference: $0) } ?? 1 }
        let scores = onsets.indices.map { own[$0] * levels[$0] * (paired.contains($0) ? pairFactor : 1) }
        // The reference is what scores as a tap at the default cut, whatever `cut` is: a sweep
        // of the cut must not change the scores it sweeps over.
        let taps = onsets.indices.filter { onsets[$0].features != nil && scores[$0] >= outsiderReferenceScore }
        let outsiders = outsiders(onsets, taps: taps, stimulusTimes: stimulusTimes, pairs: pairs)
        var finalScores = onsets.indices.map { scores[$0] * (outsiders.contains($0) ? pairFactor : 1) }
        // A tap masked by what it sits on, filling the beat its rhythm leaves empty.
        let heardTaps = onsets.indices.filter { onsets[$0].features != nil && finalScores[$0] >= outsiderReferenceScore }
        for (index, score) in maskedTaps(onsets, scores: finalScores, levels: levels, taps: heardTaps,
                                         setAside: releases.union(outsiders)) {
            finalScores[index] = score
        }
        // What follows a tap closer than a finger taps again is no tap.
        for index in tooSoonAfterATap(onsets, scores: finalScores) { finalScores[index] *= pairFactor }
        return onsets.indices.map { index in
            var onset = onsets[index]
            guard onset.features != nil else { return onset }
            onset.tapScore = finalScores[index]
            onset.kind = onset.tapScore >= cut ? .tap : .other
            return onset
        }
    }

    /// The taps (scores at ``outsiderReferenceScore``, `onsets` in time order) that follow the
    /// last tap kept before them by less than the shortest press-to-release gap (``pairGap``,
    /// 40 ms): no finger taps twice that soon, and what follows a tap so closely is its own
    /// rattle or a click left in after it.
    static func tooSoonAfterATap(_ onsets: [Onset], scores: [Double]) -> [Int] {
        var tooSoon: [Int] = [], lastKept: Seconds = -.infinity
        for index in onsets.indices where onsets[index].features != nil && scores[index] >= outsiderReferenceScore {
            if onsets[index].time - lastKept < pairGap.lowerBound {
                tooSoon.append(index)
            } else {
                lastKept = onsets[index].time
            }
        }
        return tooSoon
    }

    /// Indices of the scored `onsets` that are taps at ``outsiderReferenceScore``, whatever
    /// cut split them: the taps a rule applied after the scoring measures the recording by.
    static func referenceTaps(_ onsets: [Onset]) -> [Int] {
        onsets.indices.filter { onsets[$0].features != nil && onsets[$0].tapScore >= outsiderReferenceScore }
    }

    /// The median peak level of the reference taps (``referenceTaps(_:)``) with a finite one,
    /// dB; nil with fewer than ``outsiderMinimumTaps`` of them: what the rules that set aside
    /// bleed compare a sound's level with (bleed reaches the microphone far fainter than a tap).
    static func referenceTapLevel(_ onsets: [Onset]) -> Double? {
        let levels = referenceTaps(onsets).map { onsets[$0].strength }.filter(\.isFinite)
        guard levels.count >= outsiderMinimumTaps else { return nil }
        return Summary(levels)?.median
    }

    /// The fewest taps whose spectra make a reference for the recording's tap sound.
    public static let outsiderMinimumTaps = 8
    /// The score (before the outsider rule) at which an onset joins that reference: the
    /// default cut, ``OnsetDetectorConfiguration/minimumTapScore``.
    public static let outsiderReferenceScore = 0.5
    /// How far from the taps' median spectral centroid an outsider lies, at least, in robust
    /// SDs (1.4826 × MAD of the log centroids, no less than ``outsiderSpreadFloorOctaves``).
    public static let outsiderCentroidSpreads = 4.0
    /// The smallest robust SD of the taps' centroids the rule assumes, octaves: an outsider
    /// lies at least an octave from the taps however alike they sound.
    public static let outsiderSpreadFloorOctaves = 0.25
    /// How far an onset's ``OnsetFeatures/bandProfile`` lies from the taps' median profile
    /// (root mean square over the bands, dB) for it to spread its power unlike them. Measured
    /// on the corpus's development splits (seeds 1, 2026, 31, 47, 53): 0.8 % of the taps lie
    /// beyond 11 dB of their recording's median (69 of 8186; quieter than most, a median
    /// sustained SNR of 14 dB against 25 dB for all taps, since the noise scatters a profile),
    /// and 68 % of the knocks and key presses that passed as taps (103 of 152).
    public static let outsiderProfileDistance = 11.0
    /// How near a tap must lie to one local inter-tap interval before or after an onset for
    /// that onset to be on the taps' rhythm, as a fraction of the interval.
    public static let rhythmTolerance = 0.15
    /// How long after a heard click (a stimulus onset) the second sound of a pair is that
    /// click's own, or what its subtraction left, seconds: 0.9 and 6.7 ms in seeds 109
    /// `loudspeaker-aac-dev-2` and 103 `loudspeaker-aac-held-2` (the first taps, each followed
    /// by its click); a key released 17.8 ms after a click (seed 1 `keyboard-held-2`) is not.
    public static let clickReleaseReach: Seconds = 0.010
    /// How near another click must lie to one interval before or after a press's second sound
    /// for that sound to be a click keeping the metronome's beat, as a fraction of the
    /// interval: a metronome keeps its period to the sample, so the slack is the taps' median
    /// interval against the clicks' (a third of ``rhythmTolerance``, 25 ms at 500 ms).
    public static let clickBeatTolerance = rhythmTolerance / 3

    /// Indices of taps (among `taps`, in time order) that sound unlike the recording's other
    /// taps and fall off their rhythm: a knuckle's knock, a key pressed between the taps, a
    /// syllable.
    ///
    /// One finger on one surface keeps its spectrum, so the taps' spectral centroids cluster;
    /// a sound ``outsiderCentroidSpreads`` robust SDs (at least an octave) from their median
    /// is another kind of sound *or* a tap that came out differently (TapSim's
    /// taps vary by up to two octaves). Taps that came out differently still keep the rhythm:
    /// there is an anchor about one local interval before and after them, within
    /// ``rhythmTolerance``. Anchors are the taps that sound like the others (so that sounds
    /// under suspicion cannot vouch for each other) and the stimulus onsets (`stimulusTimes`:
    /// a tap that merged with its click is reported as the click); the local interval is the
    /// median of the eight intervals around the onset between successive anchors with no
    /// suspect (nor a crowd's member other than its winner, below) between them. Before the
    /// first anchor and after the last, that side needs none. Only both together make an
    /// outsider.
    ///
    /// The two kinds of suspect below sound like the taps in their centroid and keep their
    /// place by one anchor about one interval away on either side; there the edges count as
    /// no anchor (since session 13), so a key pressed or a knock heard before the taps start
    /// needs the first tap one interval after it. Before the first anchor the stimulus onsets
    /// vouch for no suspect of either kind (since session 23: a count-in's clicks sound with no
    /// tap), unless the suspect is a pair's first sound whose second lies within
    /// ``clickReleaseReach`` after a heard click: a tap heard with its click. A suspect that
    /// stays an anchor (shaped unlike the taps, below) is not its own first anchor (since
    /// session 33: a knock before the taps, or a count-in's first click left in, was kept by
    /// the click one interval after it); if it is the first anchor, a tap unlike the others
    /// one interval after it vouches for it too. A press (below) that also sounds unlike the
    /// taps in its shape or flatness (below; not in its centroid) carries two signs of a key,
    /// and before the first anchor no tap vouches for it (since session 36: keys pressed
    /// 0.6–0.7 s before the first tap). A first tap that rings, heard with another sound
    /// 40–100 ms after it, is such a press, and is lost.
    ///
    /// A key pressed between the taps sounds like them as often as not, but comes with its
    /// release 40–100 ms later (`pairs`, from `pressReleasePairs`). Where such pairs are the
    /// exception (fewer than ``pressShare`` of the taps start one), the first sound of a pair
    /// is a suspect too, and an outsider when it is off the rhythm on *both* sides and its
    /// second sound keeps no beat either (no click about one interval before or after it,
    /// within ``clickBeatTolerance``: a stimulus onset or a sound that is neither an anchor nor
    /// a press). A tap followed by a click that was not subtracted passes one of these: its
    /// neighbours keep the rhythm on one side, or the click keeps the metronome's beat.
    ///
    /// A tap whose centroid lies within reach but whose power spreads over the octave bands
    /// unlike the others' (a knock's contact burst, a key's plastic click), or that lies a
    /// little off them in both (`jointOutliers`: the two distances over their bounds, squared,
    /// sum to more than 1; since session 25), or that builds up far more slowly than they do
    /// (`attackOutliers`: a syllable, a click through a gate a tap opened; since session 25),
    /// or that rings on where they die away (`decayOutliers`: a knuckle's knock on a
    /// resonant table; since session 32), or that rose a little out of an earlier sound and
    /// spreads its power further from the taps than a masked tap may (`ridingOutliers`: a
    /// syllable's new start; since session 27),
    /// is judged as a press is: an outsider only off the rhythm on both sides, since a quiet
    /// tap's profile scatters with the noise in it, a tap sounding on another sound peaks late
    /// with it and one rising out of it carries some of it. It stays an anchor for the other
    /// suspects. A tap far flatter than the others and alike otherwise (`noiseLikeOutliers`: a
    /// knock's noise burst; since session 34) is judged by the gap between two beats alone
    /// (below), and stays an anchor and a beat for the others; the rhythm that judges it is
    /// read without its own two intervals (since session 35). Every other anchor, one that
    /// sounds like the taps in every way, is judged so too, on the stricter terms of
    /// `isExtraInAGap` (since session 36: a knock or a key that sounds like the taps, weaker
    /// than both beats around it and far from both); a crowd's member the rhythm left
    /// undecided is not.
    ///
    /// Before all of these, any suspect that lies between two successive *beats* (anchors
    /// that spread their power and build up as the taps do) one local interval apart, within
    /// ``rhythmTolerance``, is an outsider: a steady tapper leaves no room for a tap there,
    /// wherever in the gap the sound falls. By chance a key pressed between the taps lies
    /// about one interval from a tap on one side about half the time, and the rules above keep
    /// it. This holds only where the rhythm is steady: the robust spread (1.4826 × MAD) of the
    /// local intervals within the same tolerance, as in synchronization and continuation
    /// tapping and not in a drum pattern's mix of note values. A silent tap leaves a gap of two
    /// intervals, and a tap that came out differently keeps its gap. A sound that is a beat
    /// itself (a noise-like one, or one judged by the gap alone) is judged by the beats on
    /// either side of it. The anchors that spread
    /// their power or build up unlike the taps cut the intervals they sit in, so a knock between
    /// two taps makes a steady tapper look unsteady there. Wherever the anchors' intervals
    /// scatter (for that reason or any other) and at least ``minimumBeatIntervals`` of the
    /// beats' own intervals around the sound (those of the beats alone, a suspect between two
    /// voiding its interval) are steady, the sound is judged by the beats' intervals in every
    /// test (since session 26). So off-beat taps that sound unlike the on-beat ones, in a fill
    /// dense enough to make the anchors scatter, are extras now, as one alone already was.
    ///
    /// Taps closer together than a tapper taps (`crowdedTaps`, runs each ``pairGap`` after
    /// the one before) are no anchors where they are the exception; the rhythm of the others
    /// chooses among them (`settleCrowds`, `judgeCrowds`), its choice is an anchor again, and
    /// the members it sets aside are outsiders. Before the first anchor, a crowd whose members
    /// all sound unlike the taps (in any of the ways above, flatness included) is set aside
    /// whole (since session 36). Before the rhythm is asked, the members that sound unlike the
    /// taps (in any of the ways above but flatness) lose to one that sounds like them. Of a
    /// crowd with no member on the rhythm, the members before the first anchor are set aside
    /// and the others are judged by the gap between two beats alone.
    ///
    /// With fewer than ``outsiderMinimumTaps`` measured taps there is no reference and no
    /// outsider. In dense material (a drum kit) every onset has neighbours at about one
    /// interval, so none is off the rhythm. A tap that sounds unlike the others next to a
    /// silent tap is lost; allowing two intervals on one side kept one such tap on held data
    /// but let two other sounds through on the development data, and is not done. Two taps in
    /// a row unlike the others in centroid keep each other's place between the first and last
    /// anchors: on one side, the other one interval away with an anchor or a stimulus onset two
    /// intervals away stands for the anchor (since session 27; a detection band chosen high,
    /// where TapSim's taps differ by octaves, left such pairs with no anchor on the inner side).
    /// Three in a row are set aside.
    static func outsiders(_ onsets: [Onset], taps: [Int], stimulusTimes: [Seconds] = [],
                          pairs: [(press: Int, release: Int)] = []) -> Set<Int> {
        // What each sound adds over the noise: a quiet tap's plain centroid reads an octave or
        // more high (suite A 004_03: two taps at 12–13 dB SNR, 1.4 and 2.6 octaves over the
        // others' plain centroids, next to a tap lost under a cough).
        func centroidOctaves(_ index: Int) -> Double? {
            guard let features = onsets[index].features, let centroid = features.soundCentroid ?? features.spectralCentroid,
                  centroid.isFinite, centroid > 0 else { return nil }
            return log2(centroid)
        }
        let octaves = taps.map(centroidOctaves)
        let measured = octaves.compactMap { $0 }
        guard taps.count >= outsiderMinimumTaps, measured.count >= outsiderMinimumTaps, let summary = Summary(measured) else { return [] }
        let reach = outsiderCentroidSpreads * max(outsiderSpreadFloorOctaves, summary.scaledMAD)
        let unlike = Set(taps.indices.filter { octaves[$0].map { abs($0 - summary.median) > reach } ?? false }.map { taps[$0] })
        // Sounds unlike the taps in their band spread or their build-up: suspects, but anchors
        // still (below).
        let distances = profileDistances(onsets, taps: taps)
        let riding = Set(ridingOutliers(onsets, taps: taps, distances: distances)).subtracting(unlike)
        let shapedUnlike = Set(jointOutliers(onsets, taps: taps, octaves: octaves, centroidMedian: summary.median, reach: reach,
                                             distances: distances)
                               + attackOutliers(onsets, taps: taps) + decayOutliers(onsets, taps: taps))
            .subtracting(unlike).union(riding)
        // Sounds far flatter than the taps and alike otherwise: flatness is weak evidence (a
        // tap's modes vary, noise and codecs flatten spectra), so only the gap between two
        // beats judges them (below).
        let noiseLike = Set(noiseLikeOutliers(onsets, taps: taps)).subtracting(unlike).subtracting(shapedUnlike)
        var suspects = unlike
        // A press is suspect where pairs are the exception; where most taps come with a
        // release, the taps are key presses (tapping on a keyboard) and the pairs say nothing.
        let releaseOf = Dictionary(pairs.map { ($0.press, $0.release) }, uniquingKeysWith: { first, _ in first })
        let pressedTaps = Set(releaseOf.keys).intersection(taps)
        let suspectPresses = isException(pressedTaps.count, amongTaps: taps.count) ? pressedTaps : []
        suspects.formUnion(suspectPresses)
        let stimulus = stimulusTimes.sorted()
        // Taps closer together than a tapper taps are settled by the rhythm of the others first
        // (`settleCrowds`); the anchors and local intervals are those left after it.
        let rhythm = settleCrowds(onsets, taps: taps, suspects: suspects, unlikeTheTaps: unlike.union(shapedUnlike),
                                  noiseLike: noiseLike)
        let (anchorTaps, intervalStarts, intervals) = (rhythm.anchors, rhythm.intervalStarts, rhythm.intervals)
        let crowdLosers = rhythm.losers, offRhythmCrowds = rhythm.offRhythm
        // Taps that only spread their power or build up unlike the others stay anchors: a quiet
        // tap's profile scatters with the noise in it, a tap on another sound peaks late with
        // it, and its neighbours keep their rhythm by it.
        let suspected = suspects.union(shapedUnlike).union(offRhythmCrowds).union(noiseLike).subtracting(crowdLosers)
        // Every other anchor sounds like the taps in every way (and is a beat), and only the gap
        // between two beats judges it, on stricter terms (`isExtraInAGap`; since session 36).
        // A crowd's member the rhythm neither chose nor set aside is left to the crowd rule.
        let soundingLikeTheTaps = Set(anchorTaps).subtracting(suspected)
        let judged = suspected.union(soundingLikeTheTaps)
        let anchors = anchorTaps.map { onsets[$0].time }
        // (With any anchor there is something to judge: every anchor is judged.)
        guard !anchors.isEmpty else { return crowdLosers }
        let firstHeard = Swift.min(anchors[0], stimulus.first ?? .infinity)
        let lastHeard = Swift.max(anchors[anchors.count - 1], stimulus.last ?? -.infinity)
        // The sounds whose beat a press's release might keep, if the release is a click left
        // in: the stimulus onsets and every other sound but the anchors and the presses (the
        // clicks' beat, not the taps').
        let anchorSet = Set(anchorTaps)
        lazy var clickTimes = (onsets.indices.filter { !anchorSet.contains($0) && releaseOf[$0] == nil }
            .map { onsets[$0].time } + stimulus).sorted()
        // The beats a judged sound may fall between: the anchors that also spread their power
        // and build up as the taps do.
        let beatTaps = anchorTaps.filter { !shapedUnlike.contains($0) }
        let beats = beatTaps.map { onsets[$0].time }
        // The beats' own rhythm: a knock that stays an anchor halves the interval it sits in.
        let beatRhythm = localIntervals(onsets, anchors: beatTaps, voidedBy: rhythm.voiding)
        var found = crowdLosers
        let unlikeTimes = unlike.map { onsets[$0].time }.sorted()
        for index in judged {
            let time = onsets[index].time
            // A sound judged by flatness alone, or by the gap alone, stays a beat for the
            // others, so the rhythm that judges it is taken without its own two intervals, the
            // halves of the one it cuts. (Without merging them: a flat tap's two would make a
            // double interval.)
            let judgedByFlatnessAlone = noiseLike.contains(index) && !suspects.contains(index)
            let judgedByGapAlone = soundingLikeTheTaps.contains(index)
            let ownIntervalsLeftOut = judgedByFlatnessAlone || judgedByGapAlone
            guard var rhythm = localRhythm(at: time, starts: intervalStarts, intervals: intervals,
                                           leavingOutOwn: ownIntervalsLeftOut)
            else { continue }
            // Where the anchors' intervals scatter (knocks that stay anchors cut them, or the
            // rhythm itself wanders) but at least half a window of the beats' own intervals is
            // steady, the beats' rhythm judges, in every test below.
            if !rhythm.isSteady,
               let beatsAlone = localRhythm(at: time, starts: beatRhythm.starts, intervals: beatRhythm.intervals,
                                            leavingOutOwn: ownIntervalsLeftOut),
               beatsAlone.count >= minimumBeatIntervals, beatsAlone.isSteady {
                rhythm = beatsAlone
            }
            let interval = rhythm.interval
            let tolerance = rhythm.tolerance
            // Between two beats one interval apart there is no room for a tap: the sound is an
            // extra, however near it lies to one interval from either beat. Only where the
            // rhythm is steady (the intervals scatter less than the tolerance).
            // A noise-like sound, or one judged by the gap alone, is a beat itself, for the
            // others; its own gap is the one between the beats on either side of it.
            let atOrAfter = beats.firstIndex(notBelow: time)
            let previous = atOrAfter - 1
            let next = atOrAfter < beatTaps.count && beatTaps[atOrAfter] == index ? atOrAfter + 1 : atOrAfter
            if previous >= 0, next < beats.count, rhythm.isSteady,
               abs(beats[next] - beats[previous] - interval) <= tolerance,
               !judgedByGapAlone || isExtraInAGap(onsets[index], between: onsets[beatTaps[previous]], and: onsets[beatTaps[next]],
                                                  tolerance: tolerance) {
                found.insert(index)
                continue
            }
            // A sound unlike the taps in flatness alone, or in nothing, is too weak a suspect
            // for the tests below.
            if ownIntervalsLeftOut { continue }
            // A crowd off the rhythm is judged by the gap alone: a tap heard with its click
            // where the taps around are heard with theirs keeps no anchor either.
            if offRhythmCrowds.contains(index) && !suspects.contains(index) && !shapedUnlike.contains(index) { continue }
            // Before the first anchor the clicks vouch for nothing: a count-in's clicks sound
            // with no tap, and a key pressed among them, or its release, lies about one interval
            // from one of them as often as not. Only the first tap one interval after does;
            // unless the sound's second sound is a click's (a tap, then its click), when the
            // rules below judge it as anywhere.
            func releaseIsAClick() -> Bool {
                releaseOf[index].map { stimulus.contains(onsets[$0].time - clickReleaseReach / 2, within: clickReleaseReach / 2) } ?? false
            }
            // A suspect that stays an anchor (shaped unlike the taps) is not its own first
            // anchor: a knock before the taps would otherwise be kept by a count-in's click.
            // Where it is the first anchor, a tap unlike the others one interval after it
            // vouches for it too: a quiet first tap, then another that came out differently.
            let isFirstAnchor = index == anchorTaps[0]
            let firstAnchor = isFirstAnchor ? (anchors.count > 1 ? anchors[1] : .infinity) : anchors[0]
            if time < firstAnchor && !releaseIsAClick() {
                // A press that also sounds unlike the taps (`shapedUnlike`: its band spread,
                // build-up or decay, a little off in both centroid and spread, or rising out of
                // an earlier sound; or `noiseLike`, far flatter) carries two signs of a key: one
                // tap one interval on, by chance as often as not, does not outweigh them. Not a
                // press unlike the taps in centroid (`unlike`): counted too, it set aside no key
                // more on the development splits and lost a held tap.
                if suspectPresses.contains(index) && (shapedUnlike.contains(index) || noiseLike.contains(index)) {
                    found.insert(index)
                    continue
                }
                let oneIntervalOn = time + interval
                if !anchors.contains(oneIntervalOn, within: tolerance)
                    && !(isFirstAnchor && unlikeTimes.contains(oneIntervalOn, within: tolerance)) {
                    found.insert(index)
                }
                continue
            }
            func heard(near target: Seconds) -> Bool {
                anchors.contains(target, within: tolerance) || stimulus.contains(target, within: tolerance)
            }
            if !unlike.contains(index) {
                // A press or a sound spread unlike the taps sounds like them in its centroid and
                // keeps its place by one anchor about one interval away, on either side. Before
                // the first anchor or after the last, the missing side is no anchor: a key
                // pressed before the taps start needs the first tap one interval after it.
                guard !(heard(near: time - interval) || heard(near: time + interval)) else { continue }
                // A tap's click heard after it keeps the metronome's beat: some sound lies
                // about one interval from it. A key's release keeps none.
                if let release = releaseOf[index] {
                    let releaseTime = onsets[release].time
                    let onBeat = clickBeatTolerance * interval
                    guard !clickTimes.contains(releaseTime - interval, within: onBeat),
                          !clickTimes.contains(releaseTime + interval, within: onBeat) else { continue }
                }
                found.insert(index)
                continue
            }
            // A sound unlike the taps needs the rhythm on both sides, where there is a side (no
            // anchor is asked for before the first one heard or after the last); a press that
            // sounds like a tap (above) is set aside only when off it on both, as a tap followed
            // by its click sits on the rhythm on at least one side however its neighbours fare.
            let before = time - (interval - tolerance) < firstHeard || heard(near: time - interval)
            let after = time + (interval - tolerance) > lastHeard || heard(near: time + interval)
            // Two taps in a row that came out unlike the others in centroid (TapSim's vary by
            // up to two octaves) keep each other's place between the anchors: on one side, the
            // other one interval away, with an anchor or a stimulus onset two intervals away,
            // stands for the anchor. Only on one side, so that three in a row do not keep the
            // middle one, nor a pair the first or last anchor.
            func keptByAnUnlikeNeighbour(towards side: Double) -> Bool {
                firstHeard < time && time < lastHeard
                    && unlikeTimes.contains(time + side * interval, within: tolerance) && heard(near: time + 2 * side * interval)
            }
            let kept = (before && after) || (before && keptByAnUnlikeNeighbour(towards: 1))
                || (after && keptByAnUnlikeNeighbour(towards: -1))
            if !kept { found.insert(index) }
        }
        return found
    }

    /// The intervals between successive `anchors` (indices of `onsets`, in time order) with
    /// no onset of `voidedBy` between them, with where each starts: a knock would halve the
    /// interval it sits in, and a tap that came out differently would leave a double one.
    static func localIntervals(_ onsets: [Onset], anchors: [Int], voidedBy: Set<Int>)
        -> (starts: [Seconds], intervals: [Seconds]) {
        let voidingTimes = voidedBy.map { onsets[$0].time }.sorted()
        var starts: [Seconds] = [], intervals: [Seconds] = []
        for (start, end) in zip(anchors, anchors.dropFirst()).map({ (onsets[$0].time, onsets[$1].time) }) {
            let voiding = voidingTimes.firstIndex(notBelow: start)
            if voiding < voidingTimes.count && voidingTimes[voiding] < end { continue }
            starts.append(start)
            intervals.append(end - start)
        }
        return (starts, intervals)
    }

    /// How far from both beats around it a sound that sounds like the taps must lie to be
    /// judged an extra by the gap between them alone (`isExtraInAGap`), seconds: the pair
    /// rule's longest gap. Closer, it is a crowd's or a pair's business, and a tap 13–39 ms
    /// before a loud click left in on the beat (a loudspeaker through AAC) is no extra.
    public static let gapExtraMargin: Seconds = pairGap.upperBound
    /// How much weaker than both beats around it such a sound must be, at least, dB.
    public static let gapExtraDropDB = 3.0
    /// How near the midpoint of the gap such a sound may lie and stay a tap, as a share of the
    /// rhythm's tolerance: where the detector missed every other tap of a stretch, the local
    /// interval doubles and a tap it found there lies mid-gap, within the tolerance of a rhythm
    /// at half the interval (half of this rhythm's tolerance).
    public static let gapExtraMidpointShare = 0.5

    /// Whether `sound`, between the beats `previous` and `next` one interval apart (within
    /// `tolerance`) in a steady rhythm, sounding like the taps in every way, is an extra: it
    /// lies ``gapExtraMargin`` or more from both, is ``gapExtraDropDB`` or more weaker than
    /// both, and lies off the gap's midpoint by more than ``gapExtraMidpointShare`` of the
    /// tolerance. A knock or a key that happens to sound like the taps sits anywhere in the
    /// gap and is most often weaker than the taps; a tap the tapper added sits there too, and
    /// such a tap that is weaker than both its neighbours is lost.
    static func isExtraInAGap(_ sound: Onset, between previous: Onset, and next: Onset, tolerance: Seconds) -> Bool {
        sound.time - previous.time >= gapExtraMargin && next.time - sound.time >= gapExtraMargin
            && sound.strength <= Swift.min(previous.strength, next.strength) - gapExtraDropDB
            && abs(sound.time - (previous.time + next.time) / 2) > gapExtraMidpointShare * tolerance
    }

    /// The rhythm of the eight local intervals around `time` (of `intervals`, starting at
    /// `starts`, from `localIntervals`); nil where there are none. With `leavingOutOwn`, the
    /// intervals that begin or end at `time` (a beat's own, the halves of the one it cuts) are
    /// not among them, and the window reaches one interval further on that side: to a
    /// nanosecond, as a start plus its interval (the difference of two times) need not give
    /// back the end exactly.
    static func localRhythm(at time: Seconds, starts: [Seconds], intervals: [Seconds],
                            leavingOutOwn: Bool = false) -> LocalRhythm? {
        let position = starts.firstIndex(notBelow: time)
        guard leavingOutOwn else {
            return Summary(Array(intervals[max(0, position - 4)..<min(intervals.count, position + 4)])).map(LocalRhythm.init)
        }
        func isOwn(_ index: Int) -> Bool {
            abs(starts[index] - time) <= 1e-9 || abs(starts[index] + intervals[index] - time) <= 1e-9
        }
        let before: [Int] = (0..<position).reversed().lazy.filter { !isOwn($0) }.prefix(4).reversed()
        let after: [Int] = Array((position..<intervals.count).lazy.filter { !isOwn($0) }.prefix(4))
        return Summary((before + after).map { intervals[$0] }).map(LocalRhythm.init)
    }

    /// The gap between the taps (`tapTimes`, in time order) that a sound at `time` falls in:
    /// the index of the tap after it, how long after the tap before it and how long before the
    /// tap after it the sound lies, and the rhythm of `rhythm` (from `localIntervals`) read
    /// there; nil without a tap on each side, or where that rhythm is not steady. Where a beat
    /// is empty is each rule's own test (`maskedTaps`, `fillsAnEmptyBeat`).
    static func steadyGap(at time: Seconds, tapTimes: [Seconds], rhythm: (starts: [Seconds], intervals: [Seconds]))
        -> (next: Int, before: Seconds, after: Seconds, rhythm: LocalRhythm)? {
        let next = tapTimes.firstIndex(notBelow: time)
        guard next > 0, next < tapTimes.count,
              let local = localRhythm(at: time, starts: rhythm.starts, intervals: rhythm.intervals), local.isSteady else { return nil }
        return (next, time - tapTimes[next - 1], tapTimes[next] - time, local)
    }

    /// A tapper's rhythm around one time, from the local intervals there
    /// (`localRhythm(at:starts:intervals:leavingOutOwn:)`): where every rule that asks where a
    /// beat falls takes its interval, tolerance and steadiness from.
    struct LocalRhythm {
        /// The intervals' median, seconds.
        let interval: Seconds
        /// Their robust SD (1.4826 × MAD), seconds.
        let spread: Seconds
        /// How many intervals the rhythm was taken from.
        let count: Int

        init(_ intervals: Summary) {
            (interval, spread, count) = (intervals.median, intervals.scaledMAD, intervals.count)
        }

        /// How far a beat may lie off the rhythm: ``TapScore/rhythmTolerance`` of the interval.
        var tolerance: Seconds { rhythmTolerance * interval }
        /// Whether the intervals scatter no more than the tolerance.
        var isSteady: Bool { spread <= tolerance }
    }

    /// How far each measured tap's ``OnsetFeatures/bandProfile`` lies from the median profile
    /// of those measured (root mean square over the bands, dB), by index; empty with fewer
    /// than ``outsiderMinimumTaps`` measured.
    static func profileDistances(_ onsets: [Onset], taps: [Int]) -> [Int: Double] {
        guard let median = medianProfile(onsets, taps: taps) else { return [:] }
        return Dictionary(uniqueKeysWithValues: taps.compactMap { index in
            onsets[index].features?.bandProfile.map { (index, profileDistance($0, median)) }
        })
    }

    /// The taps (of `taps`, with `octaves` their log2 centroids in the same order) that lie
    /// within reach of the taps in centroid and in band spread each, but not in both together:
    /// the sum of the squares of the two distances, each over its bound (`reach`, octaves, and
    /// ``outsiderProfileDistance``), is over 1 — outside the ellipse the two bounds span. A
    /// knuckle's knock sits a little off the taps in both ways as often as far off in one.
    static func jointOutliers(_ onsets: [Onset], taps: [Int], octaves: [Double?], centroidMedian: Double,
                              reach: Double, distances: [Int: Double]) -> [Int] {
        return zip(taps, octaves).compactMap { index, octave in
            guard let distance = distances[index] else { return nil }
            // Without a centroid the spread alone judges, as its bound does.
            let centroid = octave.map { abs($0 - centroidMedian) / reach } ?? 0, spread = distance / outsiderProfileDistance
            return centroid * centroid + spread * spread > 1 ? index : nil
        }
    }

    /// The taps (of `taps`, with `distances` their ``OnsetFeatures/bandProfile``'s from the
    /// taps' median, from `profileDistances`) that rose out of an earlier sound
    /// (``OnsetFeatures/onEarlierSound``) and spread their power further from the taps than a
    /// masked tap may (``maskedTapProfileDistance``): a syllable's or a note's new start that
    /// passed as a tap in speech (session 27). The bound is the masked-tap rule's, the other
    /// side of the same judgement: a sound on an earlier one is trusted off the rhythm only
    /// where it sounds like the taps. Only a sound that rises less than ``ridingRiseDB`` over
    /// the mask of what it rose out of: one further over it is heard on its own. None where
    /// such taps are not the exception (``pressShare``): where most taps ride on other sounds,
    /// riding says nothing.
    static func ridingOutliers(_ onsets: [Onset], taps: [Int], distances: [Int: Double]) -> [Int] {
        let riding = taps.filter { index in
            guard let features = onsets[index].features, features.onEarlierSound, features.aboveMaskDB < ridingRiseDB else { return false }
            return distances[index].map { $0 > maskedTapProfileDistance } ?? false
        }
        return isException(riding.count, amongTaps: taps.count) ? riding : []
    }

    /// How far over the mask of the sound it rose out of (``OnsetFeatures/aboveMaskDB``) a
    /// sound may rise and still ride on it (`ridingOutliers`), dB: 6 dB over is 5 dB of its own
    /// power over that sound's, as a train's or a crowd's lead (``trainLeadDB``,
    /// ``crowdLeadDB``). The 19 sounds of speech that passed as taps rising out of it, spread
    /// over 8 dB from the taps, rose 2.5–5.6 dB (eight corpus seeds); a loud
    /// tap after a silent one that rose 27.6 dB over a long tail (seed 1 `opus-held-1`, 19.33
    /// s: found by the corpus test's floor) was lost without the bound. The dev split does not
    /// tell 6 dB from 10 dB or none.
    public static let ridingRiseDB = 6.0

    /// How far an onset's attack (``OnsetFeatures/attackDuration``) lies over the taps' median
    /// attack, at least, for it to build up unlike them, in robust SDs (1.4826 × MAD, no less
    /// than ``outsiderAttackSpreadFloor``).
    public static let outsiderAttackSpreads = 3.0
    /// The smallest robust SD of the taps' attacks the rule assumes, seconds: TapSim's taps
    /// peak 1–3 ms after their start (a quartile range of one recording), so a sound is slow
    /// only from 4.5 ms over their median.
    public static let outsiderAttackSpreadFloor: Seconds = 0.0015

    /// The taps (of `taps`) whose attack lies more than ``outsiderAttackSpreads`` robust SDs
    /// over the median attack of those measured: a metronome's click heard through a gate
    /// that a tap opened, a syllable, a reverberant build-up. A contact peaks within a
    /// millisecond or two, the same way tap after tap. Only the slow side: a tap that peaks
    /// sooner than the others is a sharper contact. None with fewer than
    /// ``outsiderMinimumTaps`` measured.
    static func attackOutliers(_ onsets: [Onset], taps: [Int]) -> [Int] {
        outliersOver(onsets, taps: taps, spreads: outsiderAttackSpreads, spreadFloor: outsiderAttackSpreadFloor) { $0.attackDuration }
    }

    /// The taps (of `taps`) whose measure (`value` of their features; nil or not finite: not
    /// measured) lies more than `spreads` robust SDs (1.4826 × MAD, no less than `spreadFloor`)
    /// over the median of those measured: the one side on which a sound is unlike a tap. None
    /// with fewer than ``outsiderMinimumTaps`` measured.
    static func outliersOver(_ onsets: [Onset], taps: [Int], spreads: Double, spreadFloor: Double,
                             value: (OnsetFeatures) -> Double?) -> [Int] {
        let measured = taps.compactMap { index in onsets[index].features.flatMap(value).map { (index, $0) } }
            .filter { $0.1.isFinite }
        guard measured.count >= outsiderMinimumTaps, let summary = Summary(measured.map(\.1)) else { return [] }
        let reach = spreads * max(spreadFloor, summary.scaledMAD)
        return measured.filter { $0.1 - summary.median > reach }.map(\.0)
    }

    /// The least sustained SNR (``OnsetFeatures/sustainedSNR``) of the taps whose decay is
    /// compared (`decayOutliers`), dB: a decay is read no deeper than the first 10 ms stand
    /// over the floor, so a quiet sound's decay says how quiet it is, not how it rings.
    public static let outsiderDecayMinimumSNR = 20.0
    /// How far an onset's decay (``OnsetFeatures/decayDB``) lies over (shallower than) the
    /// loud taps' median decay, at least, for it to ring on unlike them, in robust SDs
    /// (1.4826 × MAD, no less than ``outsiderDecaySpreadFloorDB``).
    public static let outsiderDecaySpreads = 3.0
    /// The smallest robust SD of the loud taps' decays the rule assumes, dB.
    public static let outsiderDecaySpreadFloorDB = 3.0

    /// The taps (of `taps`) standing ``outsiderDecayMinimumSNR`` or more over the floor whose
    /// decay lies more than ``outsiderDecaySpreads`` robust SDs shallower than the median of
    /// those: a knock on a resonant table rings for a few hundred milliseconds, where a
    /// fingertip's tap dies away in tens (two of the robustness corpus's `gated` knocks, 31 and
    /// 50 dB over the floor, fell 5–8 dB from 10 to 50 ms, the taps of their recordings a
    /// median 21 dB).
    /// Only the ringing side, and only sounds loud enough for their decay to be read to its
    /// depth. None with fewer than ``outsiderMinimumTaps`` such taps.
    static func decayOutliers(_ onsets: [Onset], taps: [Int]) -> [Int] {
        outliersOver(onsets, taps: taps, spreads: outsiderDecaySpreads, spreadFloor: outsiderDecaySpreadFloorDB) {
            $0.sustainedSNR >= outsiderDecayMinimumSNR ? $0.decayDB : nil
        }
    }

    /// The least sustained SNR (``OnsetFeatures/sustainedSNR``) of the taps whose spectral
    /// flatness is compared (`noiseLikeOutliers`), dB: the noise in a quiet tap's first 10 ms
    /// flattens its spectrum (seed 61 `clipping-dev-2` of the robustness corpus: a tap 9.7 dB
    /// over the floor, more than a decade flatter than its recording's taps).
    public static let outsiderFlatnessMinimumSNR = 12.0
    /// How far an onset's spectral flatness (``OnsetFeatures/spectralFlatness``) must lie over
    /// the taps' median for it to sound noise-like, in robust SDs of their log10 flatness
    /// (1.4826 × MAD), no less than ``outsiderFlatnessSpreadFloorDecades``.
    public static let outsiderFlatnessSpreads = 1.0
    /// The smallest robust SD of the taps' log10 flatness the rule assumes, decades: a sound is
    /// noise-like only more than ten times flatter than the taps' median.
    public static let outsiderFlatnessSpreadFloorDecades = 1.0

    /// The taps (of `taps`) standing ``outsiderFlatnessMinimumSNR`` or more over the floor whose
    /// spectrum is more than ten times flatter than the median of those
    /// (``outsiderFlatnessSpreads`` robust SDs, no less than
    /// ``outsiderFlatnessSpreadFloorDecades``): a knuckle's knock after the high-pass is a short
    /// noise burst, where a finger on a surface rings in a few modes (most of TapSim's knocks
    /// 0.16–0.6, their recordings' taps a median 0.001–0.05). Weak evidence alone, since a
    /// tap's modes vary and codecs and noise flatten spectra: `outsiders` judges such a sound
    /// by the gap between two beats only. None with fewer than ``outsiderMinimumTaps`` such
    /// taps.
    static func noiseLikeOutliers(_ onsets: [Onset], taps: [Int]) -> [Int] {
        outliersOver(onsets, taps: taps, spreads: outsiderFlatnessSpreads,
                     spreadFloor: outsiderFlatnessSpreadFloorDecades) { features in
            features.sustainedSNR >= outsiderFlatnessMinimumSNR ? features.spectralFlatness.map(log10) : nil
        }
    }

    /// The fewest of the beats' own local intervals (of the eight around a sound) that may
    /// judge it where the anchors' intervals scatter (`outsiders`): one or two equal intervals
    /// would pass for a steady rhythm.
    static let minimumBeatIntervals = 4

    /// Below this share of a recording's taps, the first sounds of press–release pairs are
    /// suspects of the outsider rule (`outsiders`): a key pressed between the taps; and
    /// below it, the members of crowds (`settleCrowds`) are judged by the rhythm.
    public static let pressShare = 0.5

    /// Whether `count` of a recording's `taps` taps are the exception: fewer than
    /// ``pressShare`` of them (pairs' first sounds, crowds' members). Where they are the rule,
    /// the taps themselves are so (tapping on a keyboard, fast tapping).
    static func isException(_ count: Int, amongTaps taps: Int) -> Bool {
        Double(count) < pressShare * Double(taps)
    }
    /// Shortest and longest gap from a key's press to its release, seconds.
    public static let pairGap: ClosedRange<Seconds> = 0.040...0.100
    /// How much weaker than the press a release sounds (negative: louder), dB.
    public static let pairReleaseDrop: ClosedRange<Double> = -6...25
    /// The factor the score of a release, of a train's member (or a syllable's pulse) and of an
    /// outsider is multiplied by.
    public static let pairFactor = 0.1

    /// Indices of the second sounds of press–release pairs: two sounds ``pairGap`` apart, the
    /// second within ``pairReleaseDrop`` of the first, with no other sound within ``pairGap``
    /// before the first or after the second. Taps come at least 150 ms apart, so the second
    /// of two sounds this close is not a tap: a key's release after the press (tapping on a
    /// keyboard, or a keyboard in the room), a click after a tap. The first keeps its score.
    static func pressReleasePairs(_ onsets: [Onset], own: [Double]) -> [(press: Int, release: Int)] {
        // Every sound measured that is not wholly unlike a tap's start takes part, down to
        // about 1 dB over the noise (the own score's SNR membership): a key's release can
        // stand that low (since session 32; it had to stand ``sustainedSNRBoundary`` over it
        // before, and releases at 3.6–3.7 dB left the presses of seeds 113 and 127
        // `keyboard-dev-2` passing as taps).
        let heard = onsets.indices.filter { onsets[$0].features != nil && own[$0] > 0.01 }
        var pairs: [(press: Int, release: Int)] = []
        for (position, first) in heard.enumerated() where position + 1 < heard.count {
            let second = heard[position + 1]
            let gap = onsets[second].time - onsets[first].time
            let drop = onsets[first].strength - onsets[second].strength
            guard pairGap.contains(gap), pairReleaseDrop.contains(drop) else { continue }
            let isolatedBefore = position == 0 || onsets[first].time - onsets[heard[position - 1]].time > pairGap.upperBound
            let isolatedAfter = position + 2 >= heard.count || onsets[heard[position + 2]].time - onsets[second].time > pairGap.upperBound
            if isolatedBefore && isolatedAfter { pairs.append((first, second)) }
        }
        return pairs
    }

    /// How many of the `sounds` (any order) of kind ``OnsetKind/tap`` start a press–release pair
    /// (``pressReleasePairs(_:own:)``): a keyboard's keys, pressed and released.
    static func pressedTaps(_ sounds: [Onset]) -> Int {
        let onsets = sounds.sorted { $0.time < $1.time }
        let pairs = pressReleasePairs(onsets, own: onsets.map { $0.features.map(ownScore) ?? 1 })
        return pairs.filter { onsets[$0.press].kind == .tap }.count
    }

    /// The longest gap between successive onsets of a train, seconds.
    public static let trainGap: Seconds = 0.025
    /// The fewest onsets that make a train.
    public static let trainLength = 3
    /// How much louder than the rest of its train an onset must be to stay a tap, dB.
    public static let trainLeadDB = 6.0

    /// Indices of onsets in trains: ``trainLength`` or more onsets not under the mask of the
    /// sound before them, each within ``trainGap`` of the next — the glottal pulses of voiced speech (a pitch period of 4–12 ms), a
    /// buzz, a rattle. A train's loudest onset is kept when it is ``trainLeadDB`` louder than
    /// every other: a tap whose own ringing re-triggers the detector after it, or a tap on
    /// faint pulses.
    static func trainMembers(_ onsets: [Onset]) -> Set<Int> {
        // Onsets already under the mask of the sound before them (a tap's own ringing) are
        // accounted for; the train is sought among the others.
        let free = onsets.indices.filter { (onsets[$0].features?.aboveMaskDB ?? .infinity) >= 0 }
        var members = Set<Int>()
        for run in runs(onsets, among: free) {
            members.formUnion(run.members)
            // The train's loudest onset stays a tap when it stands trainLeadDB over every
            // other one: a tap whose ringing re-triggers after it, or a tap that lands on a
            // run of faint pulses (voiced speech just before it).
            if run.lead >= trainLeadDB { members.remove(run.loudest) }
        }
        return members
    }

    /// How far the loudest onset of a run may stand over its mask and the run still be a
    /// syllable's pulses (`syllablePulses`), dB.
    public static let syllablePulseMaskDB = 8.0
    /// The decay (``OnsetFeatures/decayDB``, dB) that the loudest onset of a run must stay
    /// above for the run to be a syllable's pulses (`syllablePulses`): a tap dies away further.
    public static let syllablePulseDecayDB = -6.0

    /// Indices of onsets that are a syllable's voiced pulses, a train that the mask hides from
    /// ``trainMembers(_:)``.
    ///
    /// ``trainMembers(_:)`` seeks trains among the onsets over the mask of the sound before
    /// them, so that a tap's own ringing does not make a train with it. A syllable's pulses
    /// fall in and out of the masks of those before them, which breaks them into runs too
    /// short for a train, and its loudest pulse, a few dB over its mask, scored as a tap. Here
    /// a run is every onset, each within ``trainGap`` of the next (``trainLength`` or more),
    /// and all of it is a syllable's pulses when its loudest onset does not stand out as a tap
    /// would: it stands less than ``trainLeadDB`` over the next loudest, less than
    /// ``syllablePulseMaskDB`` over its mask, and decays by less than 6 dB
    /// (``syllablePulseDecayDB``): the speech goes on after it. A tap on such a run dies away,
    /// stands out of its mask or stands out of the run.
    static func syllablePulses(_ onsets: [Onset]) -> Set<Int> {
        var pulses = Set<Int>()
        for run in runs(onsets, among: Array(onsets.indices)) where run.lead < trainLeadDB {
            guard let features = onsets[run.loudest].features, features.aboveMaskDB < syllablePulseMaskDB,
                  features.decayDB > syllablePulseDecayDB else { continue }
            pulses.formUnion(run.members)
        }
        return pulses
    }

    /// The runs among `indices` (of `onsets`, both in time order), ``trainLength`` or more
    /// onsets each within ``trainGap`` of the next, with each run's loudest onset (the first
    /// of equals) and how far it stands over the next loudest, dB.
    static func runs(_ onsets: [Onset], among indices: [Int]) -> [(members: ArraySlice<Int>, loudest: Int, lead: Double)] {
        var found: [(members: ArraySlice<Int>, loudest: Int, lead: Double)] = []
        var start = 0
        while start < indices.count {
            var end = start + 1
            while end < indices.count && onsets[indices[end]].time - onsets[indices[end - 1]].time <= trainGap { end += 1 }
            let run = indices[start..<end]
            start = end
            guard run.count >= trainLength else { continue }
            var loudest = run.first!, runnerUp = -Double.infinity
            for index in run.dropFirst() {
                if onsets[index].strength > onsets[loudest].strength {
                    runnerUp = onsets[loudest].strength
                    loudest = index
                } else {
                    runnerUp = max(runnerUp, onsets[index].strength)
                }
            }
            found.append((run, loudest, onsets[loudest].strength - runnerUp))
        }
        return found
    }

    static func logistic(_ x: Double) -> Double { 1 / (1 + exp(-x)) }
}
