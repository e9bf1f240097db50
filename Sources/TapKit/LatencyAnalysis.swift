/// Settings of the latency pipeline: how onsets are detected, how touches are matched to
/// them, and which channel of the recording is analysed.
public struct LatencyAnalysisOptions: Sendable {
    /// Onset detection parameters.
    public var onsetDetection: OnsetDetectorConfiguration
    /// Touch-to-onset matching parameters.
    public var matching: MatchingConfiguration
    /// The recording's channel to analyse (Tap-It: the microphone is on both).
    public var channel: ChannelSelection

    /// Creates options; the defaults suit Tap-It data.
    public init(onsetDetection: OnsetDetectorConfiguration = .standard,
                matching: MatchingConfiguration = .default, channel: ChannelSelection = .mix) {
        self.onsetDetection = onsetDetection
        self.matching = matching
        self.channel = channel
    }
}

/// The latency analysis of one task: the logged touches, the detected onsets, how they pair
/// up, and the latency statistics of the pairs.
public struct TaskLatency: Sendable {
    /// The task, e.g. `001_01`.
    public var id: TaskID
    /// The logged tap timestamps, in seconds since playback start.
    public var touches: [Seconds]
    /// The acoustic onsets found in the recording.
    public var onsets: [Onset]
    /// The pairing of touches with onsets.
    public var match: MatchResult
    /// Statistics of the matched latencies (touch − onset), in seconds; nil without pairs.
    public var latency: Summary?

    /// Creates the analysis of a task from its parts; ``latency`` is derived from the pairs.
    public init(id: TaskID, touches: [Seconds], onsets: [Onset], match: MatchResult) {
        self.id = id
        self.touches = touches
        self.onsets = onsets
        self.match = match
        latency = Summary(match.pairs.map(\.latency))
    }
}

/// Analyses one task: reads the timestamps, detects the onsets in the recording (streamed),
/// and matches them.
/// - Throws: ``AnalysisError`` naming the file (and line) at fault.
public func analyzeLatency(id: TaskID, timestampsPath: String, audioPath: String,
                           options: LatencyAnalysisOptions = LatencyAnalysisOptions()) throws(AnalysisError) -> TaskLatency {
    let touches: [Seconds]
    do { touches = try TimestampFile.read(timestampsPath) } catch { throw .data(error) }
    let onsets: [Onset]
    do {
        onsets = try detectOnsets(inFile: audioPath, channel: options.channel, configuration: options.onsetDetection)
    } catch { throw .audio(error) }
    let match = matchTouches(touches, toOnsets: onsets.map(\.time), configuration: options.matching)
    return TaskLatency(id: id, touches: touches, onsets: onsets, match: match)
}
