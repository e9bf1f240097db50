import Foundation
import TapAudio

/// The stimulus a participant heard during a recording, as played: what leaks from the
/// headphones into the microphone and can be subtracted (``detectTapOnsets(inFile:channel:configuration:bleed:stimulus:stimulusConfiguration:)``).
public struct StimulusInput: Sendable, Equatable {
    /// Where the stimulus's samples come from.
    public enum Audio: Sendable, Equatable {
        /// An audio file; its channels are mixed to mono, and at another rate than the
        /// recording's it is converted to it (TapAudio's `ConvertingFileReader`).
        case file(path: String)
        /// Samples in memory (mono), converted like a file when at another rate.
        case signal(Signal)
    }

    /// The stimulus's samples.
    public var audio: Audio
    /// Where the stimulus's first frame sounds on the recording's clock, in seconds (before the
    /// acoustic and device delay, which is measured): 0 when playback and recording started
    /// together; negative when the stimulus started before the recording.
    public var offset: Seconds

    /// A stimulus file starting `offset` seconds into the recording.
    public init(path: String, offset: Seconds = 0) {
        audio = .file(path: path)
        self.offset = offset
    }

    /// A stimulus in memory starting `offset` seconds into the recording.
    public init(signal: Signal, offset: Seconds = 0) {
        audio = .signal(signal)
        self.offset = offset
    }

    /// The file's path, or "the stimulus signal".
    public var name: String {
        switch audio {
        case .file(let path): return path
        case .signal: return "the stimulus signal"
        }
    }
}

/// The parameters of stimulus bleed removal. The defaults suit headphone bleed into a
/// microphone near the participant's hand.
public struct StimulusBleedConfiguration: Sendable, Equatable {
    /// The acoustic and device delay searched, in seconds after the stimulus's ``StimulusInput/offset``.
    public var delaySearch: ClosedRange<Seconds> = -0.020...0.200
    /// Length of the segments whose delays the drift line is fitted to, seconds.
    public var delaySegmentDuration: Seconds = 4
    /// A segment's delay counts when its correlation peak stands this many times above the
    /// correlation's RMS over the searched lags (noise alone reaches about 4.5).
    public var minimumDelayQuality: Double = 8
    /// Length of the path's impulse response that is estimated and subtracted, seconds.
    public var filterDuration: Seconds = 0.040
    /// The blocks whose spectra estimate the response are about this long (a power of two
    /// frames), seconds: short enough that most hold no tap (those that do are down-weighted),
    /// long enough to hold the response twice.
    public var estimationBlockDuration: Seconds = 0.08
    /// How much of it lies before the delay found (the strongest arrival), seconds.
    public var filterLead: Seconds = 0.005
    /// The response is estimated per segment of this length (from the segment and its two
    /// neighbours), so that it follows a headphone that moves, seconds.
    public var segmentDuration: Seconds = 5
    /// A segment's filter is used only when it lowers the segment's residual power by at
    /// least this much, dB.
    public var minimumReductionDB: Double = 0.5
    /// The subtraction is kept only when, over the blocks where the predicted bleed is loud
    /// (at least a quarter of the recording's power there), it lowers the power by this much, dB.
    public var minimumMeasuredReductionDB: Double = 3
    /// The stimulus must overlap the recording for at least this long, seconds.
    public var minimumOverlap: Seconds = 5

    /// Creates a configuration with the defaults.
    public init() {}

    /// The defaults.
    public static let standard = StimulusBleedConfiguration()
}

/// What became of a stimulus given for bleed removal: removed, or why not (and then the
/// click-grid method was used instead).
public struct StimulusBleedReport: Sendable, Equatable {
    /// The outcome.
    public enum Status: Sendable, Equatable {
        /// The stimulus's bleed was subtracted before detection.
        case removed
        /// The stimulus could not be used (missing, unreadable, too short, or at another
        /// sample rate that it cannot be converted from, e.g. when one of the rates is not a
        /// whole number of frames per second); the reason names the file and says why.
        case unusable(reason: String)
        /// The stimulus was read, but its bleed could not be estimated or subtracting it did
        /// not lower the recording's power: nothing was subtracted. The reason says which.
        case notReduced(reason: String)
        /// Its bleed was subtracted, but the result was set aside for the click grid's by the
        /// caller: in the latency analysis, because the subtraction left clearly fewer touches
        /// matched than the click grid does (taps at a fixed delay after the stimulus's sounds,
        /// as a tapping machine or a loopback makes, pass for its bleed and go with it). The
        /// reason names the file and says why.
        case rejected(reason: String)
    }

    /// The outcome.
    public var status: Status
    /// The stimulus's delay in the recording at the recording's start (after its offset:
    /// the acoustic and device delay), seconds; nil when none was found.
    public var delay: Seconds?
    /// The drift of the stimulus's clock against the recording's, parts per million
    /// (positive: the delay grows); nil when no delay was found.
    public var driftPPM: Double?
    /// How much the subtraction lowered the high-passed recording's power where the predicted
    /// bleed is loud, dB; nil when nothing was subtracted.
    public var reductionDB: Double?
    /// Segments whose filter was subtracted, and all segments.
    public var segmentsSubtracted = 0, segments = 0

    /// A report with an outcome and nothing measured.
    public init(status: Status, delay: Seconds? = nil, driftPPM: Double? = nil, reductionDB: Double? = nil) {
        self.status = status
        self.delay = delay
        self.driftPPM = driftPPM
        self.reductionDB = reductionDB
    }

    /// Whether the bleed was subtracted.
    public var removed: Bool { status == .removed }

    /// One line for people: what was done, or why not.
    public var message: String {
        switch status {
        case .removed:
            var parts = ["stimulus bleed removed"]
            if let reductionDB { parts.append(String(format: "%.1f dB lower where it was loud", reductionDB)) }
            if let delay { parts.append(String(format: "delay %.2f ms", delay * 1000)) }
            if let driftPPM { parts.append(String(format: "drift %.1f ppm", driftPPM)) }
            parts.append("\(segmentsSubtracted) of \(segments) segments")
            return parts.joined(separator: ", ")
        case .unusable(let reason), .notReduced(let reason), .rejected(let reason):
            return reason + "; the metronome click grid was used instead"
        }
    }
}

/// Detects tap onsets in an audio file after subtracting the bleed of `stimulus`, the audio
/// the participant heard: its delay and drift in the recording are measured, the acoustic
/// path's response estimated, and the predicted bleed subtracted from the high-passed
/// recording before detection (Docs/algorithms.md, "Stimulus bleed"). When the stimulus is nil,
/// cannot be used, or its subtraction does not lower the recording's power, the result is that
/// of the click grid, and ``TapOnsetDetection/stimulusBleed`` says why. `bleed: .keep`
/// ignores the stimulus.
///
/// The click grid: a first streaming pass; when the onsets reveal a click grid
/// (``StimulusLockedOnsets``), the clicks' waveform is estimated and subtracted
/// (``BleedTemplate``) from the high-passed signal in a second streaming pass that detects
/// again, so taps that started on a click's tail stand on their own. Memory stays constant in
/// the file's length. Every path ends with the onsets scored and split at the tap-score cut
/// (``TapOnsetDetection/classified(cut:)``) and, but with ``BleedHandling/keep``, the taps
/// that are clicks of a family heard alone set aside (``ClickFamily``).
/// - Throws: `AudioError` for the recording only; a stimulus's problems are reported in the result.
public func detectTapOnsets(inFile path: String, channel: ChannelSelection = .mix,
                            configuration: OnsetDetectorConfiguration = .standard, bleed: BleedHandling = .cancel,
                            stimulus: StimulusInput? = nil,
                            stimulusConfiguration: StimulusBleedConfiguration = .standard) throws(AudioError) -> TapOnsetDetection {
    let reader = try AudioFileReader(path: path, channel: channel)
    return try detectTapOnsets(in: FileSource(reader: reader), configuration: configuration, bleed: bleed,
                               stimulus: stimulus, stimulusConfiguration: stimulusConfiguration)
}

/// The same for a recording in memory.
public func detectTapOnsets(in signal: Signal, configuration: OnsetDetectorConfiguration = .standard,
                            bleed: BleedHandling = .cancel, stimulus: StimulusInput? = nil,
                            stimulusConfiguration: StimulusBleedConfiguration = .standard) -> TapOnsetDetection {
    // A recording in memory cannot fail to read.
    (try? detectTapOnsets(in: SignalSource(signal: signal), configuration: configuration, bleed: bleed,
                          stimulus: stimulus, stimulusConfiguration: stimulusConfiguration))
        ?? TapOnsetDetection(onsets: [], duration: Double(signal.samples.count) / signal.sampleRate)
}

func detectTapOnsets(in source: some AudioSource & FrameReadable, configuration: OnsetDetectorConfiguration,
                     bleed: BleedHandling, stimulus: StimulusInput?,
                     stimulusConfiguration: StimulusBleedConfiguration) throws(AudioError) -> TapOnsetDetection {
    let detection = try detectTapOnsetsInOneBand(source, configuration: configuration, bleed: bleed, stimulus: stimulus,
                                                 stimulusConfiguration: stimulusConfiguration)
    let chosen = try inTheChosenBand(detection, source: source, configuration: configuration, bleed: bleed,
                                     stimulusConfiguration: stimulusConfiguration)
    // Taps the high band hears where the band chosen heard none (masked by a syllable or a note).
    let completed = try HighBandTaps.completed(chosen, sampleRate: source.sampleRate, configuration: configuration) {
        (high: OnsetDetectorConfiguration) throws(AudioError) in
        try detectTapOnsetsInOneBand(source, configuration: high, bleed: bleed, stimulus: nil,
                                     stimulusConfiguration: stimulusConfiguration)
    }
    let settled = bleed == .keep ? completed : completed.settingAsideClickFamilies()
    let filled = configuration.fillsEmptyBeats ? settled.fillingEmptyBeats(cut: configuration.minimumTapScore) : settled
    return try completedIfAGroove(filled, source: source, configuration: configuration)
}

/// `detection` completed from the spectral flux where its final taps are a groove's drums
/// (``DensePercussion/soundsLikeAGroove(_:otherSounds:pressedTaps:)``): a kit whose cymbals the
/// tap score set aside. Only in the configured band, where its limits were measured, and
/// under the same conditions as the first shape: completion on, not done already, no stimulus
/// file's bleed subtracted.
private func completedIfAGroove(_ detection: TapOnsetDetection, source: some AudioSource,
                                configuration: OnsetDetectorConfiguration) throws(AudioError) -> TapOnsetDetection {
    guard configuration.completesDensePercussion, detection.densePercussionOnsets == nil, detection.detectionBand == nil,
          detection.stimulusBleed?.status != .removed,
          DensePercussion.soundsLikeAGroove(detection.onsets, otherSounds: detection.otherOnsets,
                                            pressedTaps: TapScore.pressedTaps(detection.onsets + detection.otherOnsets))
    else { return detection }
    return try DensePercussion.completed(detection, source: source, configuration: configuration)
}

/// `detection` (in the configured band), or the detection again in a higher band where
/// ``DetectionBandChoice`` finds the taps clearer there.
private func inTheChosenBand(_ detection: TapOnsetDetection, source: some AudioSource & FrameReadable,
                             configuration: OnsetDetectorConfiguration, bleed: BleedHandling,
                             stimulusConfiguration: StimulusBleedConfiguration) throws(AudioError) -> TapOnsetDetection {
    // Where a stimulus file's bleed was subtracted, the background the survey would measure
    // in the recording is mostly that bleed, which the detection no longer hears.
    guard configuration.choosesDetectionBand, detection.stimulusBleed?.status != .removed,
          let band = try DetectionBandChoice.better(for: detection, source: source, configuration: configuration)
    else { return detection }
    // Everything again in the band where the taps stand clear: the click grid, the bleed's
    // subtraction, the scores and the starts are all measured on what the detector hears.
    // A stimulus file that could not be used or subtracted in the configured band is not tried
    // again: its report stands.
    var banded = configuration
    banded.highPassCutoff = band.cutoff
    // Whether the taps are a drum kit's is judged in the configured band, where the kit
    // test's limits were set: over a 1–4 kHz high-pass the sounds' centroids measure only the
    // top of their spectra, and music's notes there spread as widely as a kit's. Unless a kit
    // is assumed, the test is asked again in the higher band, so a kit is completed there only
    // where both bands hear one (none of 76 drum renders, `Scripts/drum-synth` seeds 1–3 and
    // `Scripts/drum-proxy` seeds 4–8, chose another band, so neither reading was ever put to
    // the test).
    banded.completesDensePercussion = configuration.completesDensePercussion && detection.densePercussionOnsets != nil
    var again = try detectTapOnsetsInOneBand(source, configuration: banded, bleed: bleed, stimulus: nil,
                                             stimulusConfiguration: stimulusConfiguration)
    again.stimulusBleed = detection.stimulusBleed
    again.detectionBand = band
    return again
}

/// The whole detection with the configuration's high-pass.
private func detectTapOnsetsInOneBand(_ source: some AudioSource & FrameReadable, configuration: OnsetDetectorConfiguration,
                                      bleed: BleedHandling, stimulus: StimulusInput?,
                                      stimulusConfiguration: StimulusBleedConfiguration) throws(AudioError) -> TapOnsetDetection {
    var detection = try unclassifiedOnsets(in: source, configuration: configuration, bleed: bleed, stimulus: stimulus,
                           stimulusConfiguration: stimulusConfiguration)
        .classified(cut: configuration.minimumTapScore)
    if configuration.calibratesQuietTaps {
        detection = QuietTapCalibration.calibrated(detection, source: source, configuration: configuration)
    }
    // The flux reads the recording as it is: where a stimulus file's bleed was subtracted
    // before detection, its sounds are back in what the flux hears, and nothing marks them.
    let bleedSubtracted = detection.stimulusBleed?.status == .removed
    if configuration.completesDensePercussion, !bleedSubtracted,
       configuration.assumesDensePercussion
        || DensePercussion.applies(to: detection.onsets, otherSounds: detection.otherOnsets.count,
                                   pressedTaps: TapScore.pressedTaps(detection.onsets + detection.otherOnsets)) {
        detection = try DensePercussion.completed(detection, source: source, configuration: configuration)
    }
    return detection
}

/// The onsets of whichever path applies (stimulus file, click grid or neither), not yet scored.
private func unclassifiedOnsets(in source: some AudioSource & FrameReadable, configuration: OnsetDetectorConfiguration,
                                bleed: BleedHandling, stimulus: StimulusInput?,
                                stimulusConfiguration: StimulusBleedConfiguration) throws(AudioError) -> TapOnsetDetection {
    guard let stimulus, bleed != .keep else { return try detectTapOnsets(in: source, configuration: configuration, bleed: bleed) }
    let report: StimulusBleedReport
    switch StimulusBleedRemoval.open(stimulus, recording: source, configuration: stimulusConfiguration) {
    case .failure(let problem):
        report = StimulusBleedReport(status: .unusable(reason: problem.reason))
    case .success(let stimulusSource):
        do throws(AudioError) {
            let outcome = try StimulusBleedRemoval.detect(in: source, stimulus: stimulusSource, offset: stimulus.offset,
                                                          name: stimulus.name, configuration: configuration,
                                                          stimulusConfiguration: stimulusConfiguration)
            switch outcome {
            case .detected(let detection): return detection
            case .notRemoved(let why): report = why
            }
        } catch {
            // A stimulus that fails part-way is reported; a recording that fails is the caller's.
            guard case .file(let path) = stimulus.audio, error.path == path else { throw error }
            report = StimulusBleedReport(status: .unusable(reason: error.description))
        }
    }
    var detection = try detectTapOnsets(in: source, configuration: configuration, bleed: bleed)
    detection.stimulusBleed = report
    return detection
}

/// Why a stimulus cannot be used.
struct StimulusProblem: Error {
    var reason: String
}

enum StimulusBleedRemoval {
    enum Outcome {
        case detected(TapOnsetDetection)
        case notRemoved(StimulusBleedReport)
    }

    /// The stimulus as mono audio at the recording's rate, or why it cannot be used.
    static func open(_ stimulus: StimulusInput, recording: some FrameReadable,
                     configuration: StimulusBleedConfiguration) -> Result<any FrameReadable, StimulusProblem> {
        var source: any FrameReadable
        let rate = recording.sampleRate
        switch stimulus.audio {
        case .file(let path):
            do throws(AudioError) {
                source = FileSource(reader: try AudioFileReader(path: path, channel: .mix))
            } catch {
                return .failure(StimulusProblem(reason: "stimulus \(error.description)"))
            }
            if source.sampleRate != rate {
                // At another rate: converted as `tapkit run` converts a stimulus it plays.
                do throws(AudioError) {
                    source = try ConvertedFileSource(path: path, rate: Resampler.wholeRate(rate))
                } catch {
                    return .failure(conversionProblem(error, stimulus: stimulus, from: source.sampleRate, to: rate))
                }
            }
        case .signal(let signal):
            guard !signal.samples.isEmpty else { return .failure(StimulusProblem(reason: "\(stimulus.name) is empty")) }
            source = SignalSource(signal: signal)
            if signal.sampleRate != rate {
                do throws(AudioError) {
                    source = SignalSource(signal: try signal.resampled(to: Resampler.wholeRate(rate)))
                } catch {
                    return .failure(conversionProblem(error, stimulus: stimulus, from: signal.sampleRate, to: rate))
                }
            }
        }
        let start = max(0, stimulus.offset)
        let end = min(Double(recording.frameCount) / rate, stimulus.offset + Double(source.frameCount) / rate)
        let overlap = max(0, end - start)
        guard overlap >= configuration.minimumOverlap else {
            return .failure(StimulusProblem(reason: String(
                format: "stimulus %@: it overlaps the recording for %.1f s (%.1f s long, offset %.3f s, recording %.1f s); at least %.1f s needed",
                stimulus.name, overlap, Double(source.frameCount) / rate, stimulus.offset,
                Double(recording.frameCount) / rate, configuration.minimumOverlap)))
        }
        return .success(source)
    }

    /// Estimates the bleed, subtracts it in a streaming pass and detects onsets on what is left.
    static func detect(in recording: some AudioSource & FrameReadable, stimulus: any FrameReadable, offset: Seconds,
                       name: String, configuration: OnsetDetectorConfiguration,
                       stimulusConfiguration: StimulusBleedConfiguration,
                       observe: ((_ highPassed: UnsafeBufferPointer<Float>, _ predicted: UnsafeBufferPointer<Float>) -> Void)? = nil)
        throws(AudioError) -> Outcome {
        let rate = recording.sampleRate
        let cutoff = configuration.highPassCutoff
        let offsetFrames = Int((offset * rate).rounded())
        let points = try StimulusBleedEstimation.delayPoints(recording: recording, stimulus: stimulus,
                                                              offsetFrames: offsetFrames, cutoff: cutoff,
                                                              configuration: stimulusConfiguration)
        guard var line = StimulusBleedEstimation.fitDelayLine(points, minimumQuality: stimulusConfiguration.minimumDelayQuality) else {
            let heard = points.filter { $0.quality >= stimulusConfiguration.minimumDelayQuality }.count
            return .notRemoved(StimulusBleedReport(status: .notReduced(reason: heard == 0
                ? "stimulus \(name): no delay found (it does not correlate with the recording within \(searchText(stimulusConfiguration)))"
                : "stimulus \(name): the delays of the recording's segments do not lie on one line (\(heard) of \(points.count) segments correlate)")))
        }
        var filters = try StimulusBleedEstimation.estimateFilters(recording: recording, stimulus: stimulus, line: line,
                                                                 cutoff: cutoff, configuration: stimulusConfiguration)
        // The segments' coarse delays are good to a few frames; their filters' phases are good
        // to a small fraction of one. A line through those corrections, and the filters again.
        let corrections = filters.offsets.indices.compactMap { j in
            filters.offsets[j].map { DelayPoint(frame: filters.centre(ofSegment: j), delay: $0, quality: .infinity) }
        }
        if let correction = StimulusBleedEstimation.fitDelayLine(corrections, minimumQuality: 0, smallestLimit: 0.05) {
            line = StimulusDelayLine(intercept: line.intercept + correction.intercept, slope: line.slope + correction.slope)
            filters = try StimulusBleedEstimation.estimateFilters(recording: recording, stimulus: stimulus, line: line,
                                                                 cutoff: cutoff, configuration: stimulusConfiguration,
                                                                 initialResponse: filters.lastResponse)
        }
        var report = StimulusBleedReport(status: .removed, delay: (line.intercept - Double(offsetFrames)) / rate,
                                         driftPPM: line.slope * 1e6)
        report.segments = filters.segmentCount
        report.segmentsSubtracted = filters.taps.filter { $0 != nil }.count
        guard report.segmentsSubtracted > 0 else {
            let best = filters.reductions.compactMap { $0 }.max()
            report.status = .notReduced(reason: "stimulus \(name): subtracting its estimated bleed does not lower the recording's power"
                + (best.map { String(format: " (at best %.1f dB in a segment)", $0) } ?? ""))
            return .notRemoved(report)
        }

        var pass = try subtractAndDetect(in: recording, stimulus: stimulus, filters: filters, line: line,
                                         configuration: configuration, preEchoLead: 0, observe: observe)
        guard pass.loudBefore > 0 else {
            report.status = .notReduced(reason: "stimulus \(name): its predicted bleed is nowhere loud enough to subtract")
            return .notRemoved(report)
        }
        let reduction = 10 * log10(pass.loudBefore / max(pass.loudAfter, pass.loudBefore * 1e-12))
        guard reduction >= stimulusConfiguration.minimumMeasuredReductionDB else {
            report.status = .notReduced(reason: String(
                format: "stimulus %@: subtracting its bleed lowered the power where it is loud by only %.1f dB (%.1f dB needed)",
                name, reduction, stimulusConfiguration.minimumMeasuredReductionDB))
            return .notRemoved(report)
        }
        report.reductionDB = reduction
        var split = separateBleedResidues(pass.onsets, sounds: pass.bleedSounds, lead: codecPreEchoLead)
        if split.leavesResidues {
            // The recording re-shaped the stimulus's sounds (a lossy codec), and each sound's
            // pre-echo is left before it: detected again, a tap's decay is read only up to where
            // a sound's pre-echo may start.
            pass = try subtractAndDetect(in: recording, stimulus: stimulus, filters: filters, line: line,
                                         configuration: configuration, preEchoLead: codecPreEchoLead,
                                         knownSounds: pass.bleedSounds)
            split = separateBleedResidues(pass.onsets, sounds: pass.bleedSounds, lead: codecPreEchoLead, leavesResidues: true)
        }
        var detection = TapOnsetDetection(onsets: split.onsets, stimulusOnsets: split.residues,
                                          duration: Double(pass.clips.samples) / recording.sampleRate, clippedRuns: pass.clips.runs)
        detection.stimulusBleed = report
        return .detected(detection)
    }

    /// What the streaming pass found.
    struct Pass {
        /// Onsets in what is left after the subtraction, and the starts of the predicted bleed's
        /// own sounds.
        var onsets: [Onset] = [], bleedSounds: [Onset] = []
        /// The recording's clipped runs.
        var clips = ClipCounter()
        /// The recording's power before and after the subtraction where the predicted bleed is
        /// loud (at least a quarter of the recording's power there).
        var loudBefore = 0.0, loudAfter = 0.0
    }

    /// The streaming pass: high-pass, subtract the predicted bleed, detect. The predicted bleed
    /// is clean and known to the frame: a detector of its own finds where its sounds start, and
    /// those starts are to the detection on what is left what the click grid's subtracted
    /// clicks are to it (a tap's decay read up to the next, `preEchoLead` early; a tap on one
    /// started where the tap rises). That detection runs one block (8192 frames or more)
    /// behind: both detectors decide about a sound half a second after it (the noise floor's
    /// lookahead), and a tap's decay is read over the 50 ms after it, so every sound of the
    /// bleed that could touch a tap has been found when the tap is measured. `knownSounds`, the
    /// bleed's sounds from an earlier pass (the prediction is the same every time), are noted
    /// at once and not sought again.
    private static func subtractAndDetect(in recording: some AudioSource & FrameReadable, stimulus: any FrameReadable,
                                          filters: BleedFilterSet, line: StimulusDelayLine,
                                          configuration: OnsetDetectorConfiguration, preEchoLead: Seconds,
                                          knownSounds: [Onset]? = nil,
                                          observe: ((_ highPassed: UnsafeBufferPointer<Float>, _ predicted: UnsafeBufferPointer<Float>) -> Void)? = nil)
        throws(AudioError) -> Pass {
        let rate = recording.sampleRate
        let cutoff = configuration.highPassCutoff
        var predictor = StimulusBleedPredictor(filters: filters, stimulus: stimulus, line: line, cutoff: cutoff)
        var filter = HighPassFilter(cutoff: cutoff, sampleRate: rate)
        var detector = OnsetDetector(sampleRate: rate, configuration: configuration, input: .highPassed)
        detector.subtractedClickLead = Int((preEchoLead * rate).rounded())
        var bleedDetector = knownSounds == nil ? OnsetDetector(sampleRate: rate, configuration: configuration, input: .highPassed) : nil
        var pass = Pass()
        pass.bleedSounds = knownSounds ?? []
        var soundsNoted = 0
        let blockLength = predictor.blockLength
        var raw = [Float](repeating: 0, count: blockLength)
        var cleaned = [Float](repeating: 0, count: blockLength)
        var behind = [Float](repeating: 0, count: blockLength), behindCount = 0
        var predicted = [Float](repeating: 0, count: blockLength)
        func detectBehind() {
            detector.noteSubtractedClicks(pass.bleedSounds[soundsNoted...].map(\.frame))
            soundsNoted = pass.bleedSounds.count
            behind.withUnsafeBufferPointer { detector.process(UnsafeBufferPointer(rebasing: $0[0..<behindCount]), into: &pass.onsets) }
        }
        var start = 0
        while start < recording.frameCount {
            let count = try raw.withUnsafeMutableBufferPointer { buffer throws(AudioError) in
                try recording.read(from: start, into: UnsafeMutableBufferPointer(rebasing: buffer[0..<min(blockLength, recording.frameCount - start)]))
            }
            if count == 0 { break }
            raw.withUnsafeBufferPointer { buffer in
                pass.clips.process(UnsafeBufferPointer(rebasing: buffer[0..<count]))
                cleaned.withUnsafeMutableBufferPointer { filter.process(UnsafeBufferPointer(rebasing: buffer[0..<count]), into: $0.baseAddress!) }
            }
            let subtracting = try predicted.withUnsafeMutableBufferPointer { buffer throws(AudioError) in
                try predictor.predict(start: start, into: UnsafeMutableBufferPointer(rebasing: buffer[0..<count]))
            }
            if let observe {
                cleaned.withUnsafeBufferPointer { highPassed in
                    predicted.withUnsafeBufferPointer { observe(UnsafeBufferPointer(rebasing: highPassed[0..<count]),
                                                                UnsafeBufferPointer(rebasing: $0[0..<count])) }
                }
            }
            if subtracting {
                var before = 0.0, after = 0.0, bleed = 0.0
                for index in 0..<count {
                    let x = Double(cleaned[index]), y = Double(predicted[index])
                    before += x * x
                    bleed += y * y
                    after += (x - y) * (x - y)
                    cleaned[index] -= predicted[index]
                }
                if bleed >= 0.25 * before {
                    pass.loudBefore += before
                    pass.loudAfter += after
                }
            }
            predicted.withUnsafeBufferPointer { bleedDetector?.process(UnsafeBufferPointer(rebasing: $0[0..<count]), into: &pass.bleedSounds) }
            detectBehind()
            swap(&behind, &cleaned)
            behindCount = count
            start += count
        }
        bleedDetector?.finish(into: &pass.bleedSounds)
        detectBehind()
        detector.finish(into: &pass.onsets)
        return pass
    }

    /// How far ahead of a sound a lossy codec (AAC, MP3, Opus) smears it, at most, seconds: one
    /// short transform block (AAC's 256 frames at 48 kHz are 5.3 ms); `Scripts/codec-smear`
    /// measured AAC's pre-echo moving a loud click's first change point 0–4 ms early.
    static let codecPreEchoLead: Seconds = 0.005

    /// Why the stimulus cannot be converted to the recording's rate, naming it: a rate that is
    /// not a whole number of frames per second, or a rate pair the resampler cannot convert
    /// (``AudioError/invalidResampling(_:)`` names no file); an error reading the file names it.
    private static func conversionProblem(_ error: AudioError, stimulus: StimulusInput,
                                          from stimulusRate: Double, to rate: Double) -> StimulusProblem {
        guard case .invalidResampling(let reason) = error else {
            return StimulusProblem(reason: "stimulus \(error.description)")
        }
        // Whole rates without a fraction, others in full (`%g` would round 44 100.25 to 44 100.2).
        func hertz(_ rate: Double) -> String { rate == rate.rounded() && abs(rate) < 1e15 ? String(Int(rate)) : String(rate) }
        return StimulusProblem(reason: "stimulus \(stimulus.name): cannot convert it from its \(hertz(stimulusRate)) Hz "
            + "to the recording's \(hertz(rate)) Hz: \(reason)")
    }

    private static func searchText(_ configuration: StimulusBleedConfiguration) -> String {
        String(format: "%.0f … %.0f ms", configuration.delaySearch.lowerBound * 1000, configuration.delaySearch.upperBound * 1000)
    }
}
