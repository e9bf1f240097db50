import Foundation
import TapAudio
import TapOnsets
import TapMatching
import TapStatistics

/// What one participant's taps sound like on one device, learnt from the onsets that matched
/// touches: the median and robust spread of each shape feature. Used to accept a quiet tap
/// that the tap score set aside when a touch asks for it, and to tell the onsets left without
/// a touch apart: taps the device missed, or other sounds.
///
/// The features are the ones that do not scale with loudness (a tap's level varies from tap
/// to tap by tens of dB) nor depend on what came before: attack, decay and the spectral
/// centroid (in octaves; one surface tapped by one finger keeps its spectrum). A feature counts as fitting when it lies
/// within ``maximumDistance`` robust standard deviations (1.4826 × MAD, at least the feature's
/// ``minimumScales``) of the median of the matched taps.
public struct TapModel: Sendable, Equatable {
    /// Median attack (start to power peak) of the matched taps, seconds.
    public var attack: Double
    /// Median decay (`OnsetFeatures.decayDB`) of the matched taps, dB.
    public var decay: Double
    /// Robust standard deviations of attack (seconds) and decay (dB).
    public var attackScale: Double
    /// See ``attackScale``.
    public var decayScale: Double
    /// Median spectral centroid of the matched taps, in octaves (log₂ Hz); nil when too few
    /// taps were measured.
    public var centroidOctaves: Double?
    /// Robust standard deviation of the centroid, octaves.
    public var centroidScale: Double?
    /// How many matched taps the model was learnt from.
    public var examples: Int

    /// The fewest matched taps a model is learnt from.
    public static let minimumExamples = 8
    /// The smallest spreads used, so a very regular participant does not make every other
    /// tap a misfit: 1 ms of attack, 2 dB of decay.
    public static let minimumScales = (attack: 0.001, decay: 2.0, centroidOctaves: 0.25)
    /// How many robust standard deviations a fitting onset may lie from the medians.
    public static let maximumDistance = 4.0

    /// Learns the model from onsets known to be taps; nil with fewer than
    /// ``minimumExamples`` measured ones.
    public init?(taps: [Onset]) {
        let measured = taps.compactMap(\.features)
        guard measured.count >= Self.minimumExamples else { return nil }
        func medianAndScale(_ values: [Double], minimum: Double) -> (Double, Double) {
            let summary = Summary(values)!  // values are never empty here
            return (summary.median, max(summary.scaledMAD, minimum))
        }
        (attack, attackScale) = medianAndScale(measured.map(\.attackDuration), minimum: Self.minimumScales.attack)
        (decay, decayScale) = medianAndScale(measured.map(\.decayDB), minimum: Self.minimumScales.decay)
        let centroids = measured.compactMap(\.spectralCentroid).filter { $0 > 0 }.map(log2)
        if centroids.count >= Self.minimumExamples {
            (centroidOctaves, centroidScale) = medianAndScale(centroids, minimum: Self.minimumScales.centroidOctaves)
        }
        examples = measured.count
    }

    /// The onset's largest distance from the model over the features, in robust standard
    /// deviations; infinite for an onset without features.
    /// - Parameters:
    ///   - onset: the onset, with its features.
    ///   - countsDecay: whether the decay is one of the features (`fitsWhenAsked(_:)` leaves
    ///     it out for a clear new contact).
    public func distance(_ onset: Onset, decay countsDecay: Bool = true) -> Double {
        guard let features = onset.features else { return .infinity }
        var distance = abs(features.attackDuration - attack) / attackScale
        if countsDecay { distance = max(distance, abs(features.decayDB - decay) / decayScale) }
        if let centroidOctaves, let centroidScale, let centroid = features.spectralCentroid, centroid > 0 {
            distance = max(distance, abs(log2(centroid) - centroidOctaves) / centroidScale)
        }
        return distance
    }

    /// Whether the onset sounds like this participant's taps.
    public func fits(_ onset: Onset) -> Bool { distance(onset) <= Self.maximumDistance }

    /// Whether an onset a touch asks for sounds like this participant's taps: as ``fits(_:)``,
    /// but a sound that rises ``newContactRiseDB`` or more over what was sounding is a new
    /// contact, and its decay, spoiled when another sound follows within 50 ms, is not held
    /// against it.
    func fitsWhenAsked(_ onset: Onset) -> Bool {
        let rises = (onset.features?.aboveMaskDB ?? 0) >= Self.newContactRiseDB
        return distance(onset, decay: !rises) <= Self.maximumDistance
    }

    /// See ``fitsWhenAsked(_:)``, dB.
    static let newContactRiseDB = 6.0
}

/// Where a touch asks for a tap the detection did not hear: the onsets a more sensitive listen
/// finds within a reach (seconds) of an instant (seconds): `NearbyOnsets.onsets(near:within:)`.
public typealias TapListener = (_ time: Seconds, _ reach: Seconds) -> [Onset]

/// The onsets of a task after the touches had their say: matched against the touches with the
/// onsets the detector set aside (as other sounds, or with the stimulus) that a touch explains,
/// and every onset left without a touch sorted into a tap the device missed or another sound.
struct TouchInformedOnsets {
    /// The onsets matching saw (taps, plus rescued and heard ones), in time order.
    var onsets: [Onset]
    /// The final matching over ``onsets``.
    var match: MatchResult
    /// Onsets of ``onsets`` set aside by the detector (as `other` by their score, or with the
    /// stimulus: a click's leftover, a click), or heard only when listened for again, but taken
    /// because a touch fell where this participant's latency puts one and they sound like the
    /// matched taps.
    var rescued: Int
    /// The detection's stimulus onsets less those taken back as taps that sounded with their
    /// clicks.
    var stimulusOnsets: [Onset]
    /// Unmatched onsets that sound like the matched taps: taps without a touch.
    var missedTouches: Int
    /// Every other onset without a touch: other sounds.
    var otherOnsets: Int
    /// The model of this participant's taps, when enough taps matched.
    var model: TapModel?

    /// A pair lies far from the latency model beyond this many robust SDs of the pairs'
    /// residuals (and an unmatched touch asks for a tap no further from it, nor beyond the
    /// matching tolerance)...
    static let farResidualSDs = 2.5
    /// ...and at least this far, seconds.
    static let farResidualFloor = 0.005
    /// An onset heard when listening again is new only this far from every onset of the
    /// detection, seconds: a nearer one is a sound the detection already judged.
    static let heardClearance = 0.005
    /// How far from where the latency model puts a tap an onset heard when listening again may
    /// lie, at most, seconds (and no further than the pairs lie, as for an `other` sound): it was
    /// found with a lower threshold, and a wider reach takes syllables and clicks 10–14 ms
    /// off. On the corpus's chains (`voip`, `phone2`, …), listening for unmatched touches only,
    /// 8 ms against the pairs' spread alone: 2 wrong pairs fewer (178), 19 taps fewer found;
    /// 6 ms: as many wrong pairs, 29 taps fewer.
    static let heardReach = 0.008

    /// The sum of the pairs' distances from their latency model, seconds.
    static func residualSum(_ match: MatchResult) -> Double {
        match.pairs.reduce(0) { sum, pair in sum + abs((match.modelLatency(at: pair.onsetTime) ?? pair.latency) - pair.latency) }
    }

    /// The index of the sound of `sounds` nearest `expected`, within `reach` of it, not among
    /// `taken` and passing `accepts`; nil if none.
    static func nearest(to expected: Double, within reach: Double, in sounds: [Onset], besides taken: Set<Int>,
                        accepts: (Onset) -> Bool) -> Int? {
        sounds.indices
            .filter { !taken.contains($0) && abs(sounds[$0].time - expected) <= reach && accepts(sounds[$0]) }
            .min { abs(sounds[$0].time - expected) < abs(sounds[$1].time - expected) }
    }

    /// The onset `listen` hears within `reach` of `expected` nearest it that lies
    /// ``heardClearance`` or more from every time of `known` and passes `accepts`, as a tap;
    /// nil if none.
    static func heardTap(near expected: Double, within reach: Double, listen: TapListener, besides known: [Seconds],
                         accepts: (Onset) -> Bool) -> Onset? {
        let heard = listen(expected, reach)
        let isNew = { (onset: Onset) in !known.contains { abs($0 - onset.time) < heardClearance } }
        guard let index = nearest(to: expected, within: reach, in: heard, besides: [], accepts: { isNew($0) && accepts($0) })
        else { return nil }
        var tap = heard[index]
        tap.kind = .tap
        return tap
    }

    /// The touches' say on `detection`. `listen`: where a touch left without an onset, or paired
    /// far from where the latency model puts its tap, finds no onset the detection set aside
    /// there, the recording listened to again around that place; nil, not listened to.
    init(touches: [Double], detection: TapOnsetDetection, matching: MatchingConfiguration, listen: TapListener? = nil) {
        // Onsets heard only when listened for again at a touch's request.
        var heard: [Onset] = []
        // What matching sees: the taps, with the `other` onsets and the stimulus onsets
        // (indices into the detection's lists) taken back, and the onsets `heard`.
        func assembled(_ others: Set<Int>, _ stimulus: Set<Int>, _ heard: [Onset]) -> [Onset] {
            guard !others.isEmpty || !stimulus.isEmpty || !heard.isEmpty else { return detection.onsets }
            return (detection.onsets + others.map { detection.otherOnsets[$0] } + stimulus.map { detection.stimulusOnsets[$0] }
                    + heard)
                .sorted { $0.time < $1.time }
        }
        var match = matchTouches(touches, toOnsets: detection.onsets.map(\.time), configuration: matching)
        let pairedTaps = match.pairs.map { detection.onsets[$0.onsetIndex] }
        let model = TapModel(taps: pairedTaps)
        var taken = Set<Int>(), takenStimulus = Set<Int>()
        if let model {
            // A touch asks for a tap where the latency model puts it: an unmatched touch, and a
            // touch paired far from there. An onset the score set aside that is there and sounds
            // like the matched taps is taken back. "There" is as near as this participant's
            // pairs lie to the model, short of far (the matching's tolerance is wider: a silent
            // tap's touch would take a click or a note 15–20 ms off); for a paired touch, at
            // most half as far as its onset.
            var asks: [(touch: Double, within: Double, unmatched: Bool)] = []
            let residuals = match.pairs.compactMap { pair in match.modelLatency(at: pair.onsetTime).map { $0 - pair.latency } }
            let far = Summary(residuals).map { max(Self.farResidualSDs * $0.scaledMAD, Self.farResidualFloor) }
            for touchIndex in match.unmatchedTouchIndices {
                asks.append((touches[touchIndex], min(match.tolerance, far ?? match.tolerance), true))
            }
            if let far {
                for (pair, residual) in zip(match.pairs, residuals) where abs(residual) > far {
                    asks.append((pair.touchTime, abs(residual) / 2, false))
                }
            }
            // A tap that sounded with its click can have been set aside with the stimulus, as
            // what the click's subtraction left (it starts where the click did and is quieter:
            // the sine-burst simulator's taps 0–1 ms from their clicks) or as the click itself.
            // Where an unmatched touch asks for it and no other sound answers, a measured
            // stimulus onset (the clicks the grid search heard are not measured) is taken back
            // when it also spreads its power over the octave bands as the matched taps do, as
            // closely as the detector's own taps on clicks must
            // (`TapScore.spreadsLikeATapOnItsClick`): a click and its leftover keep the click's
            // colour, and a touch whose tap was silent must not take them. The taps' profile is
            // that of the configured band: the 8 kHz band's taps are profiled over fewer bands.
            // Shaped like the matched taps and spread over the bands as they are: what a stimulus
            // onset or a sound heard again must be to be taken.
            let likeTheTaps = TapScore.medianBandProfile(of: pairedTaps.filter { $0.highBandCutoff == nil })
                .map { tapProfile in { (sound: Onset) in
                    model.fitsWhenAsked(sound) && TapScore.spreadsLikeATapOnItsClick(sound, tapProfile: tapProfile) } }
            let reported = detection.allOnsets.map(\.time)
            var others = Set<Int>(), stimulus = Set<Int>()
            for ask in asks {
                guard ask.touch.isFinite, let latency = match.modelLatency(at: ask.touch) else { continue }
                let expected = ask.touch - latency
                if let other = Self.nearest(to: expected, within: ask.within, in: detection.otherOnsets, besides: others,
                                            accepts: model.fitsWhenAsked) {
                    others.insert(other)
                } else if ask.unmatched, let likeTheTaps,
                          let sound = Self.nearest(to: expected, within: ask.within, in: detection.stimulusOnsets, besides: stimulus,
                                                   accepts: likeTheTaps) {
                    stimulus.insert(sound)
                } else if let listen, let likeTheTaps,
                          let onset = Self.heardTap(near: expected, within: min(ask.within, Self.heardReach), listen: listen,
                                                    besides: reported + heard.map(\.time), accepts: likeTheTaps) {
                    // Nothing the detection set aside answers: listened for again, a new sound
                    // there that sounds like the matched taps (shape and spread over the bands:
                    // a note or a syllable a touch would take has its own) is the tap. A touch
                    // paired far from there listens too: its pair can be a sound 10–25 ms from
                    // a tap the detection did not hear.
                    heard.append(onset)
                }
            }
            if !others.isEmpty || !stimulus.isEmpty || !heard.isEmpty {
                let withThem = assembled(others, stimulus, heard)
                let rematched = matchTouches(touches, toOnsets: withThem.map(\.time), configuration: matching)
                if rematched.pairs.count > match.pairs.count
                    || (rematched.pairs.count == match.pairs.count && Self.residualSum(rematched) < Self.residualSum(match)) {
                    // A stimulus onset taken back but left without a touch is the stimulus's again,
                    // and a heard one left without a touch is dropped (it was never the
                    // detection's). Matching runs again without them, until none is left unpaired.
                    var (kept, current, seen) = (stimulus, rematched, withThem)
                    while true {
                        let pairedFrames = Set(current.pairs.map { seen[$0.onsetIndex].frame })
                        let stillKept = kept.filter { pairedFrames.contains(detection.stimulusOnsets[$0].frame) }
                        let stillHeard = heard.filter { pairedFrames.contains($0.frame) }
                        guard stillKept.count < kept.count || stillHeard.count < heard.count else { break }
                        (kept, heard) = (stillKept, stillHeard)
                        seen = assembled(others, kept, heard)
                        current = matchTouches(touches, toOnsets: seen.map(\.time), configuration: matching)
                    }
                    (taken, takenStimulus, match) = (others, kept, current)
                } else {
                    heard = []
                }
            }
        }
        let onsets = assembled(taken, takenStimulus, heard)
        let unmatched = match.unmatchedOnsetIndices.map { onsets[$0] }
        let missed = model.map { model in unmatched.filter { model.fits($0) }.count } ?? unmatched.count
        self.onsets = onsets
        self.match = match
        self.rescued = taken.count + takenStimulus.count + heard.count
        self.stimulusOnsets = detection.stimulusOnsets.indices.filter { !takenStimulus.contains($0) }.map { detection.stimulusOnsets[$0] }
        self.missedTouches = missed
        self.otherOnsets = unmatched.count - missed + detection.otherOnsets.count - taken.count
        self.model = model
    }
}
