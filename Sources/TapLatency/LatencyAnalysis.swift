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
    /// taps, and those the detector set aside or did not hear that a touch took
    /// (``rescuedOnsets``).
    public var onsets: [Onset]
    /// Onsets the detector had set aside (as other sounds by the tap score, or as what a
    /// click's subtraction left), or heard only when the recording was listened to again there
    /// (`NearbyOnsets`), that were taken because a touch fell where this participant's
    /// latency puts one and they sound like the matched taps (``TapModel``; a click's leftover
    /// and a sound heard again also spread their power as the matched taps do).
    public var rescuedOnsets = 0
    /// Onsets without a touch that sound like the matched taps: taps the device did not log.
    public var missedTouches = 0
    /// Onsets of other sounds: scored as other and not taken back, or left without a touch and
    /// unlike the matched taps.
    public var otherOnsets = 0
    /// Onsets set aside as the stimulus (its clicks and what their subtraction left, a
    /// count-in, alignment markers), not matched; less those a touch took back as taps (they
    /// are among ``onsets`` and count in ``rescuedOnsets``).
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
    /// The band the onsets were detected in when it was not the configured one (music or speech
    /// drowned the taps there: `DetectionBandChoice`); nil otherwise.
    public var detectionBand: DetectionBand?
    /// How many of ``onsets`` the high band added where the band detected in heard none
    /// (`HighBandTaps`, marked by `Onset.highBandCutoff`).
    public var highBandTaps: Int { onsets.count { $0.highBandCutoff != nil } }

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
///
/// A removal that leaves the touches suspiciously unmatched is checked against the click grid
/// (Docs/algorithms.md, "Stimulus bleed"): taps at a fixed delay after the stimulus's sounds (a tapping
/// machine, a loopback) pass for its bleed and are subtracted with it. When the click grid
/// matches clearly more touches, its result is kept and the report says so
/// (`StimulusBleedReport.Status.rejected(reason:)`).
/// - Throws: ``AnalysisError`` naming the file (and line) at fault. A stimulus file that
///   cannot be used does not throw: the task is analysed with the click grid.
public func analyzeLatency(id: TaskID, timestampsPath: String, audioPath: String,
                           options: LatencyAnalysisOptions = LatencyAnalysisOptions(),
                           stimulus: StimulusInput? = nil) throws(AnalysisError) -> TaskLatency {
    let touches: [Seconds]
    do { touches = try TimestampFile.read(timestampsPath) } catch { throw .data(error) }
    var task = try analyzeLatency(id: id, touches: touches, audioPath: audioPath, options: options, stimulus: stimulus)
    task.timestampsPath = timestampsPath
    return task
}

/// Analyses one task from touches already read (for example a corpus's, with their truth
/// beside them): as ``analyzeLatency(id:timestampsPath:audioPath:options:stimulus:)`` does
/// after reading the timestamps file, the stimulus file's removal and its check against the
/// click grid included.
/// - Throws: ``AnalysisError`` naming the audio file at fault.
public func analyzeLatency(id: TaskID, touches: [Seconds], audioPath: String,
                           options: LatencyAnalysisOptions = LatencyAnalysisOptions(),
                           stimulus: StimulusInput? = nil) throws(AnalysisError) -> TaskLatency {
    let detection: TapOnsetDetection
    do {
        detection = try detectTapOnsets(inFile: audioPath, channel: options.channel,
                                        configuration: options.onsetDetection, bleed: options.bleed, stimulus: stimulus)
    } catch { throw .audio(error) }
    var task = analyzeLatency(id: id, touches: touches, detection: detection, options: options,
                              listen: tapListener(audioPath: audioPath, detection: detection, options: options))
    var report = detection.stimulusBleed
    if let removal = report, removal.removed, StimulusBleedGuard.isSuspicious(task) {
        // Only here is the recording read again: the click grid's detection, matched in turn.
        let grid: TapOnsetDetection
        do {
            grid = try detectTapOnsets(inFile: audioPath, channel: options.channel,
                                       configuration: options.onsetDetection, bleed: options.bleed)
        } catch { throw .audio(error) }
        let gridTask = analyzeLatency(id: id, touches: touches, detection: grid, options: options,
                                      listen: tapListener(audioPath: audioPath, detection: grid, options: options))
        if StimulusBleedGuard.prefersGrid(removal: task, grid: gridTask) {
            report = StimulusBleedGuard.rejected(removal, name: stimulus?.name ?? "", removal: task, grid: gridTask)
            task = gridTask
        }
    }
    task.audioPath = audioPath
    task.stimulusBleed = report
    task.stimulusPath = report == nil ? nil : stimulus?.name
    return task
}

/// When the latency analysis sets a stimulus-file removal aside for the click grid.
///
/// Stimulus-file removal subtracts whatever in the recording is a fixed linear response to the
/// stimulus. A tapping machine (a solenoid, or a loopback triggered by each click) taps the same
/// sound at a fixed delay after every click, and that is such a response: its taps are
/// estimated as bleed and subtracted, and their touches find no onset. Human taps are not, and
/// nearly all of their touches find one.
///
/// The rule, per task, with N touches:
/// 1. *Suspicious*: removal left more than 10 % of the N touches unmatched
///    (``suspiciousUnmatchedFraction``). Otherwise nothing more is done, so the usual task costs
///    nothing extra.
/// 2. Then the click grid's detection runs on the recording and is matched too, and its result
///    replaces the removal's only when it matches more than 10 % of N more touches
///    (``requiredGainFraction``; at least one): clearly more, not a few touches paired with
///    onsets of the stimulus itself, which the click grid leaves in. Otherwise, ties included,
///    the removal stays.
enum StimulusBleedGuard {
    /// Above this fraction of a task's touches left unmatched, the removal is checked.
    static let suspiciousUnmatchedFraction = 0.10
    /// The click grid must match more than this fraction of the touches more than the removal.
    static let requiredGainFraction = 0.10

    /// Whether the removal's result is worth checking against the click grid.
    static func isSuspicious(_ removal: TaskLatency) -> Bool {
        Double(removal.match.unmatchedTouchIndices.count) > suspiciousUnmatchedFraction * Double(removal.touches.count)
    }

    /// Whether the click grid's result is clearly better.
    static func prefersGrid(removal: TaskLatency, grid: TaskLatency) -> Bool {
        let gain = grid.match.pairs.count - removal.match.pairs.count
        return gain > 0 && Double(gain) > requiredGainFraction * Double(removal.touches.count)
    }

    /// The removal's report, set aside: its measurements stay, its reduction goes (nothing of
    /// it was kept), and the reason names the file and gives the counts.
    static func rejected(_ report: StimulusBleedReport, name: String, removal: TaskLatency,
                         grid: TaskLatency) -> StimulusBleedReport {
        var rejected = report
        rejected.reductionDB = nil
        rejected.status = .rejected(reason: "stimulus \(name): subtracting its estimated bleed left "
            + "\(removal.match.pairs.count) of \(removal.touches.count) touches matched to an onset, against "
            + "\(grid.match.pairs.count) with the click grid (taps at a fixed delay after the stimulus's sounds, as a tapping machine or "
            + "a loopback makes, pass for its bleed and were subtracted with it)")
        return rejected
    }
}

/// Analyses one task from its touches and detected onsets: matches the touches with the
/// onsets that may be taps, and sets the task's ``QualityFlag``s.
///
/// `listen`: where a touch finds no onset, what listening to the recording again there hears
/// (``TapListener``); nil, the detection's onsets only. The analyses of a file listen with
/// `NearbyOnsets` (not after a stimulus file's subtraction, which the listen cannot repeat).
public func analyzeLatency(id: TaskID, touches: [Seconds], detection: TapOnsetDetection,
                           options: LatencyAnalysisOptions = LatencyAnalysisOptions(),
                           listen: TapListener? = nil) -> TaskLatency {
    let informed = TouchInformedOnsets(touches: touches, detection: detection, matching: options.matching, listen: listen)
    let match = informed.match
    var task = TaskLatency(id: id, touches: touches, onsets: informed.onsets, stimulusOnsets: informed.stimulusOnsets,
                           match: match, flags: QualityFlag.flags(touches: touches, detection: detection, match: match,
                                                                   matching: options.matching))
    task.rescuedOnsets = informed.rescued
    task.missedTouches = informed.missedTouches
    task.otherOnsets = informed.otherOnsets
    task.recordingDuration = detection.duration
    task.clippedRuns = detection.clippedRuns
    task.detectionBand = detection.detectionBand
    return task
}

/// Listening again in the recording at `audioPath`, in the band `detection` listened in. The
/// file is opened at the first listen (most tasks need none, and opening an MPEG file decodes
/// it to count its frames); a file that cannot be opened or read then hears nothing, and the
/// task keeps the detection's onsets. Nil where a stimulus file's bleed was subtracted: the
/// listen hears the recording as it is, the stimulus's sounds in it, and the clearance from
/// the detection's onsets does not cover what the subtraction took out.
func tapListener(audioPath: String, detection: TapOnsetDetection, options: LatencyAnalysisOptions) -> TapListener? {
    guard detection.stimulusBleed?.removed != true else { return nil }
    var configuration = options.onsetDetection
    if let band = detection.detectionBand { configuration.highPassCutoff = band.cutoff }
    var nearby: NearbyOnsets?, opened = false
    return { time, reach in
        if !opened {
            nearby = try? NearbyOnsets(path: audioPath, channel: options.channel, configuration: configuration)
            opened = true
        }
        return (try? nearby?.onsets(near: time, within: reach)) ?? []
    }
}
