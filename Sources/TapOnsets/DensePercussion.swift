import Foundation
import TapAudio
import TapStatistics

/// Dense percussion, such as a drum kit: many sounds of several kinds close together. The
/// detector listens for power rising over a floor, which is right for taps but deaf to a soft
/// hit under the ring of a loud one (the floor there is the ringing kit), and its tap score
/// calls a crash or a tom "not a tap". When a recording's taps come close together, sound
/// unlike each other and rise little over what still sounds, no tapping finger made them, and
/// its onsets are completed from the spectral flux (``SpectralFlux``), which hears a new hit by
/// the bands it adds:
///
/// - a flux onset within ``matchWindow`` of a tap or a stimulus onset is that onset;
/// - within it of an onset of another sound (one that is not itself a tap's rattle, within
///   ``matchWindow`` of a tap), that onset is a tap (its score stays as measured);
/// - otherwise it is a new tap, started where the start picker puts it on the high-passed
///   samples around the flux peak (or where its bands rise most, ``leastPickedRiseDB``), its tap
///   score 1 (nothing was measured on it).
///
/// It does not run after a stimulus file's bleed was subtracted: the flux reads the recording
/// as it is, where those sounds are back and nothing marks them (the caller's rule).
///
/// A second shape, a groove whose hats were scored as other sounds and whose drums alone
/// passed for taps, is tested on the detection's final taps (``soundsLikeAGroove(_:otherSounds:pressedTaps:)``).
///
/// The first test looks only at the taps found, and each of its three parts alone would take some
/// tapping recordings for a kit: fast tapping comes as close together, TapSim's varied taps and
/// a quiet tapper's noisy spectra spread as widely, and a reverberant room keeps taps as close
/// to the mask. Docs/robustness.md ("Dense material") gives the figures they were set on.
enum DensePercussion {
    /// The fewest taps that can show the pattern.
    static let leastTaps = 16
    /// The taps' median interval is at most this, seconds (a kit's 16th and 8th notes: 0.19 to
    /// 0.47 s in `Scripts/drum-proxy` renders; fast tapping from 0.15 s).
    static let longestMedianInterval: Seconds = 0.45
    /// The interquartile range of the taps' sound centroids (``OnsetFeatures/soundCentroid``)
    /// is at least this, octaves: kick, snare and cymbals (0.85–2.6 octaves in drum-proxy
    /// renders, dry, reverberant or noisy; TapSim's fast tapping up to 0.77 in the tasks it was
    /// set on, 0.95 in others: this part alone does not tell them apart).
    static let leastCentroidSpread = 0.8
    /// The taps' median ``OnsetFeatures/aboveMaskDB`` is at most this, dB: a hit rises out of
    /// the ring of the hits before it (7.8–17 dB in drum-proxy renders; fast tapping 16–26).
    static let highestMedianAboveMask = 18.0
    /// A flux onset and a detected onset this close are one sound, seconds.
    static let matchWindow: Seconds = 0.030
    /// The start picker looks from this long before a flux peak's frame centre to this long
    /// after the frame's end, seconds: a frame's flux rises as soon as its window takes in the
    /// new sound, so the hit starts between its centre and its end (on the dry drum-proxy
    /// renders of seeds 1–3, 90 % of the hits start 1–17 ms after the centre and none more than
    /// 8 ms before it; the end lies 23 ms after it).
    static let startMargin: Seconds = 0.010
    /// A new onset's strength is its peak power within this time from its start, seconds,
    /// and its SNR that over the power in the same time before it.
    static let levelWindow: Seconds = 0.010
    /// A start the picker finds with less of a rise than this (peak power over the power
    /// before, dB) is no start: a hit too soft for the samples to show where it begins (on the
    /// dry drum-proxy renders of seeds 1–3, 67 of the 202 added starts: picked, a median 15 ms
    /// after the note-on and 25 of 66 within 10 ms of it). Since session 46 the bands it adds
    /// place it, wherever the stretch and the frames before it are in the recording
    /// (``BandRiseStart``); the centre of the flux's frame stands in only at the recording's
    /// ends. (The centre, before: on those renders a median 1.6 ms from the note-on and 61 of
    /// 67 within 10 ms; on the drum-synth kits a median 8 ms early, 61 % within 10 ms.)
    static let leastPickedRiseDB = 3.0

    /// The most other sounds per tap: in a kit the detector takes most hits for taps (a
    /// crash, a tom or a hit in the ring of another is the exception; 0.3–0.8 other sounds per
    /// tap on the dry drum-proxy renders, up to 1.12 with `sox reverb`), while taps among
    /// speech, a keyboard's releases or music come with more other sounds than taps, which
    /// the flux would hear as hits (2.8–4.9 on the speech items where the test misfired).
    static let mostOtherSoundsPerTap = 2.0

    /// Whether `taps` (in time order) look like dense percussion rather than tapping; at least
    /// ``leastTaps`` of them with features and with a sound centroid are needed, at most
    /// ``mostOtherSoundsPerTap`` other sounds per tap (`otherSounds`, the onsets scored as
    /// neither tap nor stimulus), and fewer than ``TapScore/pressShare`` of them pressed like
    /// a key (`pressedTaps`, the taps that start a press–release pair).
    ///
    /// Taps on a keyboard come each with its release 40–100 ms later, alone; a kit's hits do
    /// not come in such pairs. Through a phone's processing a keyboard's taps can spread their
    /// spectra as widely as a kit's and come as close (seed 1's `keyboard-taps-held-2` through
    /// `Scripts/phone-chain`: 0.42 s apart, centroids over 1.66 octaves), and the flux then
    /// heard every release as a hit.
    static func applies(to taps: [Onset], otherSounds: Int, pressedTaps: Int = 0) -> Bool {
        guard taps.count >= leastTaps, Double(otherSounds) <= mostOtherSoundsPerTap * Double(taps.count),
              TapScore.isException(pressedTaps, amongTaps: taps.count) else { return false }
        let intervals = zip(taps, taps.dropFirst()).map { $1.time - $0.time }.sorted()
        guard quantile(intervals, 0.5) <= longestMedianInterval else { return false }
        let measured = taps.compactMap(\.features)
        guard measured.count >= leastTaps,
              quantile(measured.map(\.aboveMaskDB).sorted(), 0.5) <= highestMedianAboveMask else { return false }
        let octaves = measured.compactMap(\.soundCentroid).filter { $0 > 0 }.map { log2($0) }.sorted()
        guard octaves.count >= leastTaps else { return false }
        return quantile(octaves, 0.75) - quantile(octaves, 0.25) >= leastCentroidSpread
    }

    /// The fewest taps a groove is judged on (a kit whose drums alone passed for taps: 8–57
    /// of them in the `Scripts/drum-synth` items, 8–12 bars each).
    static let leastGrooveTaps = 12
    /// The fewest and most other sounds per tap in a groove: the hats and cymbals the tap
    /// score set aside (0.8–6.8 per tap in the drum-synth items of seeds 1–7). Tapping in
    /// quiet brings few, speech up to 9.
    static let grooveOtherSoundsPerTap: ClosedRange<Double> = 0.5...6.0
    /// The taps' median ``OnsetFeatures/aboveMaskDB`` in a groove is at most this, dB: a
    /// kit's drums rise out of the ring of its cymbals (4–12 dB over the drum-synth items).
    /// Quiet taps rise as little (4.5–13 dB at 6–15 dB SNR), so the other parts decide.
    static let highestGrooveMedianAboveMask = 12.0
    /// A groove's taps ring: their median ``OnsetFeatures/decayDB`` is at least this, dB. A
    /// kit's drums lose 1.2–9 dB from their first 10 ms to the 40 ms after (median 3.1 over
    /// the drum-synth items), a finger's taps more: the only tapping recordings that pass the
    /// other four parts (9 of 2217: sloppy tapping 6–12 dB over the noise among a knock or
    /// cough a second, in TapSim) lose 8.6–11.3 dB.
    static let shallowestGrooveDecayDB = -7.0
    /// A groove's taps keep no steady interval: fewer than this share of their intervals lie
    /// within ``steadyTolerance`` of the median of the ``steadyNeighbours`` intervals on each
    /// side (drum-synth items of seeds 1–3: 0–0.79, median 0.33). Tapping keeps more through a tempo ramp or
    /// a missed tap; quiet tapping among many knocks (some taken for taps) can keep less.
    static let mostGrooveSteadyShare = 0.6
    /// How far an interval may lie from its neighbours' median and still be steady, a
    /// fraction of that median.
    static let steadyTolerance = 0.1
    /// How many intervals on each side an interval is compared with.
    static let steadyNeighbours = 4
    /// A groove may keep a steady beat (a four-on-the-floor kick, a backbeat) where it brings
    /// at least this many other sounds per tap, the hats and cymbals between its drums
    /// (0.59–3.2 in the 21 drum-synth items of seeds 1–9 and with cymbals 6 and 10 dB up that
    /// keep one and pass the other parts; 19 of them reach this). Tapping that passes the
    /// other parts comes with fewer: at most 0.73 over 2219 tapping recordings, sloppy TapSim
    /// tapping among knocks and the sine-burst simulator's clicks (session 47).
    static let leastSteadyGrooveOtherSoundsPerTap = 0.85
    /// A steady groove's other sounds lie between its drums: fewer than this share of them
    /// lie within ``withTheTapsFraction`` of the taps' median interval from a tap (kits 0–0.31).
    /// A metronome's clicks scored as other sounds come with the taps aimed at them (the
    /// sine-burst simulator's task with the most: all of them).
    static let mostOtherSoundsWithTheTaps = 0.5
    /// How close to a tap an other sound comes with it, a fraction of the taps' median interval.
    static let withTheTapsFraction = 0.15

    /// Whether `taps` (in time order) are a groove's drums rather than tapping: the second
    /// shape of dense percussion, where a kit's hats and cymbals were scored as other sounds
    /// (`otherSounds`, in time order) and its kicks, snares and toms passed for taps. They are
    /// too few, too far apart and too alike for ``applies(to:otherSounds:pressedTaps:)``, but
    /// they rise little over what still rings and ring themselves. And they keep no steady
    /// interval, which a tapper does, even one whose taps were partly missed; or, where they
    /// keep one, they come with more other sounds than tapping does
    /// (``leastSteadyGrooveOtherSoundsPerTap``), and those lie between them, not with them
    /// (``mostOtherSoundsWithTheTaps``). Judged on the detection's final taps (those of the
    /// high band and of empty beats included), at least ``leastGrooveTaps`` with features,
    /// other sounds in ``grooveOtherSoundsPerTap`` per tap, and fewer than
    /// ``TapScore/pressShare`` pressed like a key. Docs/robustness.md ("A groove's drums
    /// alone") gives the data.
    static func soundsLikeAGroove(_ taps: [Onset], otherSounds: [Onset], pressedTaps: Int = 0) -> Bool {
        guard let decay = grooveDecayDB(taps, otherSounds: otherSounds, pressedTaps: pressedTaps) else { return false }
        return decay >= shallowestGrooveDecayDB
    }

    /// The taps' median ``OnsetFeatures/decayDB`` where every part of
    /// ``soundsLikeAGroove(_:otherSounds:pressedTaps:)`` but the decay holds; nil otherwise.
    static func grooveDecayDB(_ taps: [Onset], otherSounds: [Onset], pressedTaps: Int = 0) -> Double? {
        guard taps.count >= leastGrooveTaps else { return nil }
        let otherPerTap = Double(otherSounds.count) / Double(taps.count)
        let measured = taps.compactMap(\.features)
        guard grooveOtherSoundsPerTap.contains(otherPerTap), TapScore.isException(pressedTaps, amongTaps: taps.count),
              measured.count >= leastGrooveTaps,
              quantile(measured.map(\.aboveMaskDB).sorted(), 0.5) <= highestGrooveMedianAboveMask else { return nil }
        let keepsNoBeat = steadyShare(of: taps) < mostGrooveSteadyShare
        let hatsBetween = otherPerTap >= leastSteadyGrooveOtherSoundsPerTap
            && shareWithTheTaps(otherSounds, taps: taps) < mostOtherSoundsWithTheTaps
        guard keepsNoBeat || hatsBetween else { return nil }
        return quantile(measured.map(\.decayDB).sorted(), 0.5)
    }

    /// The share of `otherSounds` that lie within ``withTheTapsFraction`` of the median
    /// interval of `taps` (both in time order) from a tap; 0 without other sounds.
    static func shareWithTheTaps(_ otherSounds: [Onset], taps: [Onset]) -> Double {
        let tapTimes = taps.map(\.time)
        let intervals = zip(tapTimes, tapTimes.dropFirst()).map { $1 - $0 }.sorted()
        guard !otherSounds.isEmpty, !intervals.isEmpty else { return 0 }
        let near = withTheTapsFraction * quantile(intervals, 0.5)
        let withATap = otherSounds.count { tapTimes.contains($0.time, within: near) }
        return Double(withATap) / Double(otherSounds.count)
    }

    /// The share of the intervals between `taps` (in time order) that lie within
    /// ``steadyTolerance`` of the median of up to ``steadyNeighbours`` intervals on each side;
    /// 1 with fewer than three intervals. A local median follows a tempo that drifts or ramps.
    static func steadyShare(of taps: [Onset]) -> Double {
        let intervals = zip(taps, taps.dropFirst()).map { $1.time - $0.time }
        guard intervals.count >= 3 else { return 1 }
        let steady = intervals.indices.count { index in
            let around = intervals[max(0, index - steadyNeighbours)..<index]
                + intervals[(index + 1)..<min(intervals.count, index + 1 + steadyNeighbours)]
            let typical = quantile(around.sorted(), 0.5)
            return abs(intervals[index] - typical) <= steadyTolerance * typical
        }
        return Double(steady) / Double(intervals.count)
    }

    /// `detection` completed with the onsets the spectral flux finds in `source`.
    static func completed(_ detection: TapOnsetDetection, source: some AudioSource,
                          configuration: OnsetDetectorConfiguration) throws(AudioError) -> TapOnsetDetection {
        let flux = SpectralFlux(sampleRate: source.sampleRate)
        let peaks = flux.peaks(in: try flux.envelope(of: source))
        let known = (detection.onsets + detection.stimulusOnsets).map(\.time).sorted()
        var copy = detection
        var promoted = Set<Int>()
        var added: [Onset] = []
        let otherTimes = detection.otherOnsets.map(\.time)
        let halfFrame = Double(flux.frameLength / 2) / source.sampleRate
        for peak in peaks {
            let centre = flux.time(ofFrame: peak)
            guard let onset = try start(within: (centre - startMargin)...(centre + halfFrame + startMargin),
                                        fallback: centre, in: source, configuration: configuration),
                  !known.contains(onset.time, within: matchWindow) else { continue }
            // The other sound nearest the start, unless it is a known onset's own (a tap's rattle).
            let next = otherTimes.firstIndex(notBelow: onset.time)
            let nearest = [next - 1, next].filter { otherTimes.indices.contains($0) }
                .min { abs(otherTimes[$0] - onset.time) < abs(otherTimes[$1] - onset.time) }
            if let nearest, abs(otherTimes[nearest] - onset.time) <= matchWindow {
                if !known.contains(otherTimes[nearest], within: matchWindow) { promoted.insert(nearest) }
            } else {
                added.append(onset)
            }
        }
        // Two flux peaks whose starts lie this close are one hit.
        added = added.reduce(into: []) { kept, onset in
            if let last = kept.last, onset.time - last.time <= matchWindow { return }
            kept.append(onset)
        }
        let taken = promoted.sorted().map { index in
            var onset = detection.otherOnsets[index]
            onset.kind = .tap
            return onset
        }
        copy.otherOnsets = detection.otherOnsets.indices.filter { !promoted.contains($0) }.map { detection.otherOnsets[$0] }
        copy.onsets = (detection.onsets + taken + added).sorted { $0.time < $1.time }
        copy.densePercussionOnsets = taken.count + added.count
        return copy
    }

    /// A tap started where the start picker (with its precursor step, as in the detector)
    /// puts it in `stretch`, or where the picked start hardly rises (``leastPickedRiseDB``)
    /// where the bands rise the most (``BandRiseStart``, clamped to `stretch`), or at `fallback`
    /// where those cannot be read; nil where the stretch or the high-pass's settling before it
    /// is not in the recording.
    private static func start(within stretch: ClosedRange<Seconds>, fallback: Seconds, in source: some AudioSource,
                              configuration: OnsetDetectorConfiguration) throws(AudioError) -> Onset? {
        let rate = source.sampleRate
        func frames(_ seconds: Seconds) -> Int { Int((seconds * rate).rounded()) }
        let level = max(1, frames(levelWindow))
        let window = max(1, frames(configuration.windowDuration)), hop = max(1, frames(configuration.hopDuration))
        let searched = frames(stretch.upperBound) - frames(stretch.lowerBound)
        // The stretch searched, with `level` frames on both sides for the levels.
        let first = frames(stretch.lowerBound) - level
        guard searched > 16,
              let samples = try source.highPassedSegment(start: first, length: searched + 2 * level,
                                                         cutoff: configuration.highPassCutoff)
        else { return nil }
        let picked = level + samples[level..<(level + searched)].withUnsafeBufferPointer {
            StartPicker.pickSkippingPrecursor($0).start
        }
        // Mean power over any stretch, from running sums of squares.
        var sums = [0.0]
        sums.reserveCapacity(samples.count + 1)
        for sample in samples { sums.append(sums.last! + Double(sample) * Double(sample)) }
        func power(_ range: Range<Int>) -> Double {
            (sums[range.upperBound] - sums[range.lowerBound]) / Double(max(range.count, 1)) + 1e-20
        }
        /// The onset started at `offset` into `samples`, with its levels.
        func onset(at offset: Int) -> Onset {
            let peak = stride(from: offset, through: offset + level - window, by: hop)
                .max { power($0..<($0 + window)) < power($1..<($1 + window)) } ?? offset
            let peakPower = power(peak..<(peak + window))
            let frame = first + offset
            return Onset(time: Double(frame) / rate, frame: frame, peakTime: Double(first + peak + window / 2) / rate,
                         strength: 10 * log10(peakPower), snrDB: 10 * log10(peakPower / power((offset - level)..<offset)),
                         tapScore: 1, kind: .tap)
        }
        let found = onset(at: picked)
        guard found.snrDB < leastPickedRiseDB else { return found }
        // The bands the hit adds say where in the stretch it starts, read on a segment that
        // reaches far enough before it for the first candidate's frames; the flux frame's
        // centre where that segment is not in the recording (its ends).
        var start = frames(fallback)
        let fineFirst = frames(stretch.lowerBound) - BandRiseStart.earliestStart(sampleRate: rate)
        let fineLength = frames(stretch.upperBound) - fineFirst + BandRiseStart.frameLength(sampleRate: rate)
        let allowed = (frames(stretch.lowerBound) - fineFirst)..<(frames(stretch.upperBound) - fineFirst)
        if let fine = try source.highPassedSegment(start: fineFirst, length: fineLength, cutoff: configuration.highPassCutoff),
           let offset = BandRiseStart.start(in: fine, sampleRate: rate, allowed: allowed) {
            start = fineFirst + offset
        }
        return onset(at: min(max(start - first, level), level + searched - 1))
    }
}
