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

    static func calibrated(_ detection: TapOnsetDetection, source: some AudioSource,
                           configuration: OnsetDetectorConfiguration) -> TapOnsetDetection {
        let rate = source.sampleRate
        let lead = Int(0.040 * rate), tail = Int(0.020 * rate), sound = Int(0.010 * rate)
        let search = Int((configuration.startSearchDuration * rate).rounded())
        let hop = max(1, Int((configuration.hopDuration * rate).rounded()))
        let window = max(1, Int((configuration.windowDuration * rate).rounded()))
        let preroll = Int(0.05 * rate)
        func filtered(_ start: Int, _ length: Int) -> [Float]? {
            guard start - preroll >= 0, let raw = try? source.segment(start: start - preroll, length: length + preroll) else { return nil }
            var filter = HighPassFilter(cutoff: configuration.highPassCutoff, sampleRate: rate)
            return Array(raw.map { filter.process($0) }.dropFirst(preroll))
        }
        func power(_ samples: ArraySlice<Float>) -> Double {
            samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))
        }
        let loud = detection.onsets.filter { $0.snrDB >= referenceSNR }
        guard loud.count >= minimumReferences else { return detection }
        let step = max(1, loud.count / maximumReferences)
        let references = stride(from: 0, to: loud.count, by: step).prefix(maximumReferences)
            .compactMap { filtered(loud[$0].frame - lead, lead + tail) }
        guard references.count >= minimumReferences else { return detection }
        var copy = detection
        for (position, onset) in detection.onsets.enumerated() where onset.snrDB < quietSNR {
            // The background is the stretch before the tap's own search began (one read).
            let first = onset.frame - search - (lead + tail)
            guard let stretch = filtered(first, onset.frame + sound - first) else { continue }
            let background = Array(stretch[0..<(lead + tail)])
            let backgroundPower = power(background[...])
            let soundPower = power(stretch[(stretch.count - sound)...]) - backgroundPower
            guard soundPower > 0 else { continue }
            let threshold = pow(10, (onset.strength - onset.snrDB + configuration.thresholdDB) / 10)
            var shifts: [Double] = []
            for reference in references {
                let gain = Float((soundPower / max(power(reference[lead..<(lead + sound)]), 1e-30)).squareRoot())
                let mixture = zip(background, reference).map { $0 + gain * $1 }
                // Window powers from running sums of squares.
                var sums = [Double](repeating: 0, count: mixture.count + 1)
                for (index, sample) in mixture.enumerated() { sums[index + 1] = sums[index] + Double(sample) * Double(sample) }
                func windowPower(_ start: Int) -> Double { (sums[start + window] - sums[start]) / Double(window) }
                // Where the detector's threshold is crossed and where the power peaks after it.
                var crossing: Int?
                var start = lead - Int(0.005 * rate)
                while start + window <= mixture.count {
                    if windowPower(start) > threshold { crossing = start; break }
                    start += hop
                }
                guard let crossing else { continue }
                var peak = crossing, peakPower = 0.0
                var at = crossing
                while at + window <= min(mixture.count, crossing + Int(0.010 * rate)) {
                    let value = windowPower(at)
                    if value > peakPower { (peak, peakPower) = (at, value) }
                    at += hop
                }
                let searchStart = max(0, crossing - search)
                let end = min(mixture.count, peak + window)
                guard end - searchStart > 16 else { continue }
                let picked = mixture[searchStart..<end].withUnsafeBufferPointer { StartPicker.pickSkippingPrecursor($0).start }
                shifts.append(Double(searchStart + picked - lead))
            }
            guard shifts.count >= minimumReferences, let bias = Summary(shifts)?.median else { continue }
            let frames = Int(bias.rounded())
            // Lateness only, and no more than a quiet tap's first milliseconds can hide: an
            // earlier pick in the mixtures comes from a sound in the background stretch.
            guard frames > 0, Double(frames) <= 0.003 * rate else { continue }
            copy.onsets[position].frame -= frames
            copy.onsets[position].time = Double(copy.onsets[position].frame) / rate
        }
        return copy
    }
}
