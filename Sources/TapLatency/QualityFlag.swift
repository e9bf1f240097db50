import TapAudio
import TapMatching
import TapOnsets
/// Something about a task that makes its latency figures doubtful, as REPP marks a trial
/// `failed` with a reason. A flagged task is still analysed and reported; the flags travel
/// with its row (`flags` in CSV and JSON) and each is warned about on stderr.
public enum QualityFlag: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    /// The recording has no onset that may be a tap (silent, or only metronome bleed).
    case noOnsets = "no onsets"
    /// Fewer than half of the touches found an onset.
    case fewMatched = "under 50 % of touches matched"
    /// |drift| above ``QualityFlag/driftLimit(_:)``: beyond what the latency search
    /// considered and what two audio crystals differ by.
    case driftOutOfRange = "drift out of range"
    /// At least one run of `ClipCounter/runLength` samples at `ClipCounter/level` of full
    /// scale: onsets of clipped taps start where the clipping does, not where the tap did.
    case clipped = "clipped recording"
    /// The last touch lies after the end of the recording: the files do not belong together,
    /// or the recording was cut short.
    case recordingTooShort = "recording shorter than its last timestamp"

    /// The flag as the outputs write it.
    public var description: String { rawValue }

    /// The drift bound, ppm: the largest drift the latency search considers
    /// (`MatchingConfiguration.maximumDriftPPM`, 300 by default). Consumer crystals are
    /// specified to ±100 ppm each, so two clocks rarely differ by more than 200 ppm; an
    /// estimate beyond the search's range means the pairs were chosen under a model that
    /// does not hold, or that the touches are not on the audio clock at all (a wrong sample
    /// rate, 44.1 against 48 kHz, is 88 000 ppm).
    public static func driftLimit(_ matching: MatchingConfiguration) -> Double { matching.maximumDriftPPM }

    /// The flags of a task, in declaration order.
    public static func flags(touches: [Seconds], detection: TapOnsetDetection, match: MatchResult,
                             matching: MatchingConfiguration) -> [QualityFlag] {
        var flags: [QualityFlag] = []
        if detection.onsets.isEmpty { flags.append(.noOnsets) }
        if !touches.isEmpty && match.pairs.count * 2 < touches.count { flags.append(.fewMatched) }
        if let drift = match.drift, abs(drift.ppm) > driftLimit(matching) { flags.append(.driftOutOfRange) }
        if detection.clippedRuns > 0 { flags.append(.clipped) }
        if let last = touches.last, last > detection.duration { flags.append(.recordingTooShort) }
        return flags
    }
}

extension TaskLatency {
    /// One line per flag for stderr: `file: flag (the figures behind it)`, naming the
    /// recording (or the task when it was not read from a file).
    public func flagWarnings(matching: MatchingConfiguration = .default) -> [String] {
        let file = audioPath ?? id.description
        return flags.map { flag in
            let detail: String
            switch flag {
            case .noOnsets: detail = "the recording is silent or holds only metronome bleed"
            case .fewMatched: detail = "\(match.pairs.count) of \(touches.count) touches found an onset"
            case .driftOutOfRange:
                detail = String(format: "%.1f ppm, beyond ±%.0f ppm", match.drift?.ppm ?? .nan, QualityFlag.driftLimit(matching))
            case .clipped:
                detail = "\(clippedRuns) run\(clippedRuns == 1 ? "" : "s") of \(ClipCounter.runLength) or more samples at full scale"
            case .recordingTooShort:
                detail = String(format: "recording %.3f s, last timestamp %.3f s", recordingDuration, touches.last ?? 0)
            }
            return "\(file): task \(id): \(flag) (\(detail)); analysed, flagged"
        }
    }
}
