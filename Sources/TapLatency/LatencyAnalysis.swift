import TapAudio
import TapData
import TapMatching
import TapOnsets
import TapStatistics
/// Settings of the latency pipeline: how onsets are detected, how touches are matched to
/// them, and which channel of the recording is analysed.
public struct LatencyAnalysisOptions: Sendable {
    /// Onset detection parameters.
    public var onsetDetection: OnsetDetectorConfiguration
    /// Touch-to-onset matching parameters.
    public var matching: MatchingConfiguration
    /// The recording's channel to analyse (Tap-It: the microphone is on both).
    public var channel: ChannelSelection
    /// What to do about metronome clicks leaking from the headphones into the microphone
    /// (default: subtract them and detect again; see `detectTapOnsets(inFile:channel:configuration:bleed:stimulus:stimulusConfiguration:)`).
    public var bleed: BleedHandling
    /// Whether a folder's tasks have their stimulus's bleed removed through the stimulus files
    /// of the experiment folder (``experimentFolder``); see ``StimulusBleedMode``.
    public var stimulusBleed: StimulusBleedMode
    /// The experiment folder: the one holding `trackList.xml` and the stimulus files. Nil: the
    /// folder above the data folder (`experiment/data`, as Tap-It and `tapkit run` lay it out).
    public var experimentFolder: String?

    /// Creates options; the defaults suit Tap-It data.
    public init(onsetDetection: OnsetDetectorConfiguration = .standard,
                matching: MatchingConfiguration = .default, channel: ChannelSelection = .mix,
                bleed: BleedHandling = .cancel, stimulusBleed: StimulusBleedMode = .auto,
                experimentFolder: String? = nil) {
        self.onsetDetection = onsetDetection
        self.matching = matching
        self.channel = channel
        self.bleed = bleed
        self.stimulusBleed = stimulusBleed
        self.experimentFolder = experimentFolder
    }
}

/// Whether the folder analysis removes each task's stimulus bleed through its stimulus file.
public enum StimulusBleedMode: String, Sendable, CaseIterable {
    /// When the experiment folder's `trackList.xml` is there: task `NNN_TT` heard track `TT` of
    /// it, from frame 0 of its recording; its bleed is estimated and subtracted before
    /// detection, or, when that file cannot be used or its bleed is not found, the click grid
    /// is used and the report says why. Without a track list, the click grid alone. The default.
    case auto
    /// The click grid alone; stimulus files are not read.
    case off
}

/// The latency analysis of one task: the logged touches, the detected onsets, how they pair
/// up, and the latency statistics of the pairs.
public struct TaskLatency: Sendable {
    /// The task, e.g. `001_01`.
    public var id: TaskID
    /// The logged tap timestamps, in seconds since playback start.
    public var touches: [Seconds]
    /// The acoustic onsets that may be taps (what matching saw): those the tap score calls
    /// taps, and those it set aside that a touch took back (``rescuedOnsets``).
    public var onsets: [Onset]
    /// Onsets the tap score had set aside as other sounds that were taken back because a
    /// touch fell where this participant's latency puts one and they sound like the matched
    /// taps (``TapModel``).
    public var rescuedOnsets = 0
    /// Onsets without a touch that sound like the matched taps: taps the device did not log.
    public var missedTouches = 0
    /// Onsets of other sounds: scored as other and not taken back, or left without a touch and
    /// unlike the matched taps.
    public var otherOnsets = 0
    /// Onsets set aside as stimulus bleed (on an isochronous grid), not matched.
    public var stimulusOnsets: [Onset]
    /// The pairing of touches with onsets.
    public var match: MatchResult
    /// Statistics of the matched latencies (touch − onset), in seconds; nil without pairs.
    public var latency: Summary?
    /// What makes the task's figures doubtful (empty when nothing does); see ``QualityFlag``.
    public var flags: [QualityFlag]
    /// The recording's length, seconds.
    public var recordingDuration: Seconds = 0
    /// Clipped runs in the recording (see `ClipCounter`).
    public var clippedRuns = 0
    /// The task's recording, when it was read from a file (for messages).
    public var audioPath: String?
    /// The task's timestamp file, when it was read from a file (for messages).
    public var timestampsPath: String?
    /// What became of the stimulus given for bleed removal (`StimulusBleedReport.removed`,
    /// or why not); nil when none was given. Its file is `stimulusPath`.
    public var stimulusBleed: StimulusBleedReport?
    /// The stimulus file given for bleed removal; nil when none was.
    public var stimulusPath: String?

    /// Creates the analysis of a task from its parts; ``latency`` is derived from the pairs.
    public init(id: TaskID, touches: [Seconds], onsets: [Onset], stimulusOnsets: [Onset] = [], match: MatchResult,
                flags: [QualityFlag] = []) {
        self.id = id
        self.touches = touches
        self.onsets = onsets
        self.stimulusOnsets = stimulusOnsets
        self.match = match
        self.flags = flags
        latency = Summary(match.pairs.map(\.latency))
    }
}

/// Analyses one task: reads the timestamps, detects the onsets in the recording (streamed),
/// and matches them. With a `stimulus` (what the participant heard), its bleed is removed
/// before detection when it can be (`detectTapOnsets(inFile:channel:configuration:bleed:stimulus:stimulusConfiguration:)`);
/// ``TaskLatency/stimulusBleed`` says whether it was.
/// - Throws: ``AnalysisError`` naming the file (and line) at fault. A stimulus file that
///   cannot be used does not throw: the task is analysed with the click grid.
public func analyzeLatency(id: TaskID, timestampsPath: String, audioPath: String,
                           options: LatencyAnalysisOptions = LatencyAnalysisOptions(),
                           stimulus: StimulusInput? = nil) throws(AnalysisError) -> TaskLatency {
    let touches: [Seconds]
    do { touches = try TimestampFile.read(timestampsPath) } catch { throw .data(error) }
    let detection: TapOnsetDetection
    do {
        detection = try detectTapOnsets(inFile: audioPath, channel: options.channel,
                                        configuration: options.onsetDetection, bleed: options.bleed, stimulus: stimulus)
    } catch { throw .audio(error) }
    var task = analyzeLatency(id: id, touches: touches, detection: detection, options: options)
    task.audioPath = audioPath
    task.timestampsPath = timestampsPath
    task.stimulusBleed = detection.stimulusBleed
    task.stimulusPath = detection.stimulusBleed == nil ? nil : stimulus?.name
    return task
}

/// Analyses one task from its touches and detected onsets: matches the touches with the
/// onsets that may be taps, and sets the task's ``QualityFlag``s.
public func analyzeLatency(id: TaskID, touches: [Seconds], detection: TapOnsetDetection,
                           options: LatencyAnalysisOptions = LatencyAnalysisOptions()) -> TaskLatency {
    let informed = TouchInformedOnsets(touches: touches, detection: detection, matching: options.matching)
    let match = informed.match
    var task = TaskLatency(id: id, touches: touches, onsets: informed.onsets, stimulusOnsets: detection.stimulusOnsets,
                           match: match, flags: QualityFlag.flags(touches: touches, detection: detection, match: match,
                                                                   matching: options.matching))
    task.rescuedOnsets = informed.rescued
    task.missedTouches = informed.missedTouches
    task.otherOnsets = informed.otherOnsets
    task.recordingDuration = detection.duration
    task.clippedRuns = detection.clippedRuns
    return task
}
