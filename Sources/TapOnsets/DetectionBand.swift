import Foundation
import TapAudio
import TapStatistics

/// The band the detector listens in, when it is not the configured one.
///
/// The detector high-passes at ``OnsetDetectorConfiguration/highPassCutoff`` (400 Hz): that
/// keeps a tap's contact transient and drops hum and rumble. Where another sound fills the low
/// and middle frequencies for much of the recording (music from a loudspeaker, speech nearby,
/// a loud tonal metronome), a tap hardly rises over it there, and the detector misses it or
/// scores it as lying in that sound's decay. A tap's contact is broadband; higher up, the other
/// sound thins out and the tap stands clear. ``DetectionBandChoice`` measures, on the taps the
/// detector found, how far they rise over the recording's background in the configured band
/// and in higher ones, and when a higher band is clearly better the whole detection runs again
/// there (Docs/robustness.md, "Taps under music and speech").
public struct DetectionBand: Sendable, Equatable {
    /// The cut-off of the high-pass the detection ran with, Hz.
    public var cutoff: Double
    /// How far the taps' median peak level lies over the background's 90th percentile in that
    /// band, dB (``DetectionBandChoice``): the taps of the detection in the configured band,
    /// those heard there, not the onsets the detection in this band returns.
    public var contrastDB: Double
    /// The same in the configured band, dB.
    public var configuredContrastDB: Double

    /// One line for people: which band, and why.
    public var message: String {
        String(format: "detected with a %.0f Hz high-pass, where the taps found first rise %.1f dB over the recording's "
               + "other sounds (%.1f dB in the configured band)", cutoff, contrastDB, configuredContrastDB)
    }
}

/// The choice of ``DetectionBand``: a survey of short stretches of the recording, after the
/// first detection.
///
/// **Contrast.** In a band (a 4th-order Butterworth high-pass at its cut-off, as the detector
/// uses, settled over the 50 ms before each stretch: `highPassedSegments`), each tap's level is the loudest 2 ms power within ``tapFrames`` frames from its start;
/// the background's level is the 90th percentile of the 2 ms powers of stretches spread over the
/// recording, leaving out ``excludedAroundTap`` around every tap. The contrast is the taps'
/// median level minus that percentile: how far a typical tap stands over the loud moments of
/// everything else.
///
/// **The rule.** Nothing changes where the configured band's contrast is ``contrastCeilingDB``
/// or more (the background is quiet or gated: a higher band has nothing to win), or where fewer
/// than ``leastTaps`` taps were found and measured or fewer than ``leastBackgroundFrames``
/// background frames measured. Otherwise, of the ``candidateCutoffs`` under
/// ``highestCutoffFraction`` of the sample rate where the taps keep, in the median over taps,
/// ``leastRetainedDB`` or more of their own level in the configured band (a band above most of
/// the taps' own power finds other sounds' hiss, speech's fricatives, rather than taps; since
/// session 25 each tap is compared with itself), the one of highest contrast is chosen
/// when it gains at least ``leastGainDB`` over the configured band.
///
/// The numbers were chosen on the dev splits of the robustness corpus (Docs/robustness.md).
public enum DetectionBandChoice {
    /// The higher cut-offs tried, Hz.
    public static let candidateCutoffs: [Double] = [1000, 2000, 4000]
    /// A cut-off is tried only under this fraction of the sample rate (0.8 × Nyquist), so that
    /// the band keeps some width.
    public static let highestCutoffFraction = 0.4
    /// At this contrast in the configured band or more, the band is kept, dB.
    public static let contrastCeilingDB = 25.0
    /// The least gain in contrast for which a higher band is chosen, dB.
    public static let leastGainDB = 6.0
    /// How far under its level in the configured band a tap's level in a higher band may lie,
    /// in the median over the taps, dB (a quarter of their power kept).
    public static let leastRetainedDB = -6.0
    /// The fewest taps the survey needs, found and measured.
    public static let leastTaps = 8
    /// The fewest background frames the survey needs (1 s of them): where taps come so close
    /// together that little lies outside their windows, what does is their own tails.
    public static let leastBackgroundFrames = 500
    /// The most taps measured (evenly spread over the recording's).
    public static let mostTaps = 100
    /// The background's stretches: at most this many, each ``stretchDuration`` long, spread
    /// evenly over the recording (a short recording is surveyed whole).
    public static let mostStretches = 200
    /// Length of a background stretch, seconds.
    public static let stretchDuration: Seconds = 0.1
    /// The frames whose power is measured, seconds.
    public static let frameDuration: Seconds = 0.002
    /// The frames from a tap's start within which its level is its loudest frame's.
    public static let tapFrames = 5
    /// Around each tap, what the background leaves out: from 20 ms before its start to 150 ms
    /// after (its ring and rattle), seconds.
    public static let excludedAroundTap: ClosedRange<Seconds> = -0.020...0.150

    /// The band to detect in instead of the configured one, or nil when the configured band is
    /// the best (or the recording gives too little to tell).
    static func better(for detection: TapOnsetDetection, source: some AudioSource & FrameReadable,
                       configuration: OnsetDetectorConfiguration) throws(AudioError) -> DetectionBand? {
        let rate = source.sampleRate
        let configured = configuration.highPassCutoff
        let candidates = candidateCutoffs.filter { $0 > configured && $0 < highestCutoffFraction * rate }
        let taps = detection.onsets.map(\.time).sorted()
        guard !candidates.isEmpty, taps.count >= leastTaps else { return nil }
        // The configured band alone first: in most recordings its contrast ends the question.
        guard let configuredSurvey = try Survey.measure(source, cutoffs: [configured], taps: taps),
              configuredSurvey.contrasts[0] < contrastCeilingDB,
              let higher = try Survey.measure(source, cutoffs: candidates, taps: taps) else { return nil }
        let cutoffs = [configured] + candidates
        let survey = Survey(levelsByTap: configuredSurvey.levelsByTap + higher.levelsByTap,
                            backgroundLevels: configuredSurvey.backgroundLevels + higher.backgroundLevels)
        let contrasts = survey.contrasts
        let eligible = cutoffs.indices.dropFirst().filter { survey.retainedDB(band: $0) >= leastRetainedDB }
        // The highest contrast; of equal ones, the lower band.
        guard let best = eligible.max(by: { (contrasts[$0], -$0) < (contrasts[$1], -$1) }),
              contrasts[best] - contrasts[0] >= leastGainDB else { return nil }
        return DetectionBand(cutoff: cutoffs[best], contrastDB: contrasts[best], configuredContrastDB: contrasts[0])
    }

    /// Levels of the taps and of the background in each band.
    struct Survey {
        /// Per band, each measured tap's level, dB, by the tap's index in the survey's list.
        var levelsByTap: [[Int: Double]]
        /// Per band, the background's 90th percentile, dB.
        var backgroundLevels: [Double]

        /// Per band, the taps' median level, dB.
        var tapLevels: [Double] { levelsByTap.map { quantile($0.values.sorted(), 0.5) } }

        var contrasts: [Double] { zip(tapLevels, backgroundLevels).map { $0 - $1 } }

        /// What the taps keep of their level in the first band in `band`, dB: the median over
        /// the taps measured in both of each tap's own difference. The difference of the two
        /// bands' medians would compare one tap with another: one syllable more among 25 taps
        /// moved the configured band's median by 1.1 dB in seed 127's `speech-dev-2`, and the
        /// recording lost its band (Docs/robustness.md, session 25). Where no tap was measured
        /// in both bands, that difference stands in.
        func retainedDB(band: Int) -> Double {
            let reference = levelsByTap[0]
            let differences = levelsByTap[band].compactMap { tap, level in reference[tap].map { level - $0 } }
            guard !differences.isEmpty else { return tapLevels[band] - tapLevels[0] }
            return quantile(differences.sorted(), 0.5)
        }

        /// Nil when fewer than ``leastTaps`` taps or ``leastBackgroundFrames`` background frames
        /// could be measured.
        static func measure(_ source: some AudioSource & FrameReadable, cutoffs: [Double],
                            taps: [Seconds]) throws(AudioError) -> Survey? {
            let rate = source.sampleRate
            func frames(_ seconds: Seconds) -> Int { Int((seconds * rate).rounded()) }
            let frame = max(1, frames(frameDuration))
            let preroll = source.highPassSettlingFrames

            // The taps: the loudest of the first frames after each start.
            var levelsByTap = [[Int: Double]](repeating: [:], count: cutoffs.count)
            let step = max(1, Double(taps.count) / Double(mostTaps))
            for index in stride(from: 0, to: Double(taps.count), by: step).map({ Int($0) }) {
                let start = frames(taps[index])
                guard let levels = try bandFrameLevels(source, start: start, frames: tapFrames, frameLength: frame,
                                                       cutoffs: cutoffs) else { continue }
                let peaks = levels.map { $0.max()! }
                // Samples that are not numbers (a signal in memory is not checked) are no level.
                guard peaks.allSatisfy(\.isFinite) else { continue }
                for band in cutoffs.indices { levelsByTap[band][index] = peaks[band] }
            }

            // The background: stretches spread evenly, without the frames near a tap. Each lies
            // in its own share of the recording (after the first preroll), at an offset within it
            // that steps by the golden ratio, so that shares a whole number of tapping periods long
            // do not all sample one phase of the taps. A short recording is tiled whole.
            let stretchFrames = max(1, frames(stretchDuration) / frame)
            let stretchLength = stretchFrames * frame
            let available = source.frameCount - preroll
            guard available >= stretchLength else { return nil }
            let stretches = min(mostStretches, available / stretchLength)
            let share = Double(available) / Double(stretches)
            var background = [[Double]](repeating: [], count: cutoffs.count)
            var nextTap = 0
            for stretch in 0..<stretches {
                let offset = (Double(stretch) * 0.618_033_988_749_895).truncatingRemainder(dividingBy: 1)
                    * (share - Double(stretchLength))
                let start = preroll + Int(Double(stretch) * share + offset)
                guard let levels = try bandFrameLevels(source, start: start, frames: stretchFrames, frameLength: frame,
                                                       cutoffs: cutoffs) else { continue }
                for k in 0..<stretchFrames {
                    let from = Double(start + k * frame) / rate, to = Double(start + (k + 1) * frame) / rate
                    // Taps whose excluded span ends before this frame are behind every later frame.
                    while nextTap < taps.count && taps[nextTap] + excludedAroundTap.upperBound <= from { nextTap += 1 }
                    if nextTap < taps.count && taps[nextTap] + excludedAroundTap.lowerBound < to { continue }
                    guard cutoffs.indices.allSatisfy({ levels[$0][k].isFinite }) else { continue }
                    for band in cutoffs.indices { background[band].append(levels[band][k]) }
                }
            }
            guard levelsByTap[0].count >= leastTaps, background[0].count >= leastBackgroundFrames else { return nil }
            return Survey(levelsByTap: levelsByTap, backgroundLevels: background.map { quantile($0.sorted(), 0.9) })
        }

        /// The power of `frames` consecutive frames from `start`, in dB, in each band (the
        /// stretch read once). Nil where the stretch or the 50 ms before it lie outside the audio.
        static func bandFrameLevels(_ source: some AudioSource, start: Int, frames: Int, frameLength: Int,
                                    cutoffs: [Double]) throws(AudioError) -> [[Double]]? {
            guard let bands = try source.highPassedSegments(start: start, length: frames * frameLength, cutoffs: cutoffs)
            else { return nil }
            return bands.map { samples in
                windowPowers(samples[...], window: frameLength, count: frames).map { 10 * log10($0 + 1e-20) }
            }
        }
    }
}
