import Foundation
import TapAudio
import TapStatistics

/// Quiet taps start late: the first part of a quiet tap lies under the noise, and the start
/// picker finds where the sound emerges from it. How late depends on how the surface's taps
/// build up and on the recording's noise, so it is measured on the recording itself: loud taps
/// of the same recording, scaled to a quiet tap's level and mixed with the background just
/// before that tap, are picked as the detector would pick them, and the median shift of those
/// picks from the loud taps' own starts is taken off the quiet tap's start.
enum QuietTapCalibration {
    /// Taps at least this far over the floor (peak SNR, dB) serve as references.
    static let referenceSNR = 30.0
    /// Taps under this SNR are calibrated, dB.
    static let quietSNR = 20.0
    /// The fewest references that make a calibration.
    static let minimumReferences = 8
    /// The most references used.
    static let maximumReferences = 12

    /// How much of a reference is mixed in: this long before its start and after it, seconds.
    static let referenceLead: Seconds = 0.040, referenceTail: Seconds = 0.020
    /// Over how much of a sound's start its power is compared, seconds.
    static let soundDuration: Seconds = 0.010
    /// How far over a loud tap a stimulus sound in its reference stretch (from ``referenceLead``
    /// before its start to ``referenceTail`` after it) may peak, at most, dB, for the tap to
    /// serve as a reference. The stretch is read from the recording as it is, not as the
    /// detector heard it with the clicks subtracted, and a loud click in it (a metronome from a
    /// loudspeaker, 7–10 ms after a tap whose own onset was found under it) enters the power
    /// by which the reference is scaled and the start picked in each mixture: the quiet taps of
    /// seed 97's `loudspeaker-aac-dev-1` (robustness corpus) moved 0.3 and 0.6 ms early.
    /// A bound at the tap's own level, or 10 dB under it, took references from suites A–D too,
    /// whose headphone bleed has stimulus onsets that near a loud tap peak as high as it, and
    /// moved their figures (suite D's task 001_06: latency-mean error −0.19 → −0.25 ms); 6 dB
    /// over the tap leaves them as they were.
    static let referenceClickMarginDB = 6.0
    /// The largest correction: no more than a quiet tap's first milliseconds can hide, seconds.
    static let largestCorrection: Seconds = 0.003
    /// How long before a reference's start the threshold crossing is sought in a mixture,
    /// seconds: earlier, a blip of the background would be taken for it.
    static let crossingLead: Seconds = 0.005

    /// `detection` with its quiet taps and other sounds re-timed; `source` is the recording it
    /// was found in.
    static func calibrated(_ detection: TapOnsetDetection, source: some AudioSource,
                           configuration: OnsetDetectorConfiguration) -> TapOnsetDetection {
        let rate = source.sampleRate
        func frames(_ seconds: Seconds) -> Int { Int((seconds * rate).rounded()) }
        let lead = frames(referenceLead), tail = frames(referenceTail), sound = frames(soundDuration)
        let search = frames(configuration.startSearchDuration)
        let hop = max(1, frames(configuration.hopDuration)), window = max(1, frames(configuration.windowDuration))
        let confirm = frames(configuration.peakConfirmDuration)
        func filtered(_ start: Int, _ length: Int) -> [Float]? {
            try? source.highPassedSegment(start: start, length: length, cutoff: configuration.highPassCutoff)
        }
        func power(_ samples: ArraySlice<Float>) -> Double {
            samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))
        }
        let clicks = detection.stimulusOnsets, clickTimes = clicks.map(\.time)
        func loudClickNear(_ tap: Onset) -> Bool {
            var index = clickTimes.firstIndex(notBelow: tap.time - referenceLead)
            while index < clickTimes.count, clickTimes[index] <= tap.time + referenceTail {
                if clicks[index].strength > tap.strength + referenceClickMarginDB { return true }
                index += 1
            }
            return false
        }
        let loud = detection.onsets.filter { $0.snrDB >= referenceSNR && !loudClickNear($0) }
        guard loud.count >= minimumReferences else { return detection }
        let step = max(1, loud.count / maximumReferences)
        // Each reference with the power of its sound's start.
        let references = stride(from: 0, to: loud.count, by: step).prefix(maximumReferences)
            .compactMap { filtered(loud[$0].frame - lead, lead + tail) }
            .map { (samples: $0, soundPower: max(power($0[lead..<(lead + sound)]), 1e-30)) }
        guard references.count >= minimumReferences else { return detection }
        /// How many frames late the detector finds a sound like `onset`, nil when it cannot be
        /// measured or lies outside what a quiet tap's start can hide.
        func lateness(of onset: Onset) -> Int? {
            // The background is the stretch before the tap's own search began (one read).
            let first = onset.frame - search - (lead + tail)
            guard let stretch = filtered(first, onset.frame + sound - first) else { return nil }
            let background = stretch[0..<(lead + tail)]
            let backgroundPower = power(background)
            let soundPower = power(stretch[(stretch.count - sound)...]) - backgroundPower
            guard soundPower > 0 else { return nil }
            // The detector's threshold over the floor the quiet tap was found on.
            let threshold = pow(10, (onset.strength - onset.snrDB + configuration.thresholdDB) / 10)
            var shifts: [Double] = []
            for reference in references {
                let gain = Float((soundPower / reference.soundPower).squareRoot())
                let mixture = zip(background, reference.samples).map { $0 + gain * $1 }
                if let start = detectorStart(in: mixture, from: lead - frames(crossingLead), threshold: threshold,
                                             hop: hop, window: window, confirm: confirm, search: search) {
                    shifts.append(Double(start - lead))
                }
            }
            guard shifts.count >= minimumReferences, let bias = Summary(shifts)?.median else { return nil }
            let correction = Int(bias.rounded())
            // Lateness only: an earlier pick in the mixtures comes from a sound in the
            // background stretch, and so does a correction beyond the largest.
            guard correction > 0, correction <= frames(largestCorrection) else { return nil }
            return correction
        }
        // Quiet onsets of other sounds too: matching may take one back for a touch (`TapModel`).
        func recalibrated(_ onsets: [Onset]) -> [Onset] {
            onsets.map { onset in
                guard onset.snrDB < quietSNR, let correction = lateness(of: onset) else { return onset }
                var retimed = onset
                retimed.frame -= correction
                retimed.time = Double(retimed.frame) / rate
                return retimed
            }
        }
        var copy = detection
        copy.onsets = recalibrated(detection.onsets)
        copy.otherOnsets = recalibrated(detection.otherOnsets)
        return copy
    }

    /// Where the detector would start a sound in `samples`: the first window from `earliest`
    /// on whose power exceeds `threshold`, the highest window within `confirm` frames after it,
    /// and the start picker (with its precursor step) from `search` frames before the crossing
    /// to the end of that window. Nil when the threshold is never crossed.
    static func detectorStart(in samples: [Float], from earliest: Int, threshold: Double,
                              hop: Int, window: Int, confirm: Int, search: Int) -> Int? {
        // Window powers from running sums of squares, from `earliest` on (no window before it
        // is looked at).
        let first = max(0, earliest)
        guard first + window <= samples.count else { return nil }
        var sums = [Double](repeating: 0, count: samples.count - first + 1)
        var total = 0.0
        for index in first..<samples.count {
            total += Double(samples[index]) * Double(samples[index])
            sums[index - first + 1] = total
        }
        func windowPower(_ start: Int) -> Double { (sums[start - first + window] - sums[start - first]) / Double(window) }
        guard let crossing = stride(from: first, through: samples.count - window, by: hop)
            .first(where: { windowPower($0) > threshold }) else { return nil }
        let peak = stride(from: crossing, through: min(samples.count, crossing + confirm) - window, by: hop)
            .max { windowPower($0) < windowPower($1) } ?? crossing
        let searchStart = max(0, crossing - search)
        let end = min(samples.count, peak + window)
        guard end - searchStart > 16 else { return nil }
        return searchStart + samples[searchStart..<end].withUnsafeBufferPointer { StartPicker.pickSkippingPrecursor($0).start }
    }
}
