import Foundation
import TapData
import TapOnsets
import TapStatistics
import Synchronization

/// The latency analysis of a whole Tap-It data folder.
public struct FolderLatencyReport: Sendable {
    /// The folder analysed.
    public var folder: String
    /// Every task that could be analysed, ordered by user and track.
    public var tasks: [TaskLatency]
    /// Every input that could not be analysed (a missing partner file, a malformed line, an
    /// undecodable recording), in the order of the tasks they belong to.
    public var failures: [AnalysisError]
    /// Problems that do not stop or fail anything: play-order gaps (see
    /// `TapItFolder/checkPlayOrders(trackList:)`).
    public var warnings: [TapDataError] = []
    /// Entries of the folder that were not read, with why, in name order.
    public var skippedFiles: [SkippedFile] = []

    /// Statistics over all matched pairs of all tasks, in seconds; nil without pairs.
    public var overall: Summary? {
        Summary(tasks.flatMap { $0.match.pairs.map(\.latency) })
    }
}

/// An entry of a data folder that the analysis did not read.
public struct SkippedFile: Sendable, Equatable, CustomStringConvertible {
    /// The entry's path.
    public var path: String
    /// Why it was not read.
    public var reason: String
    /// Whether its name looks like a task's, so that it was probably meant to be read.
    public var looksLikeTask: Bool

    /// `PATH: skipped: REASON`, as stderr shows it.
    public var description: String { "\(path): skipped: \(reason)" }
}

/// Analyses every task of a Tap-It data folder, `jobs` tasks at a time. One bad task never
/// stops the batch: it is reported in ``FolderLatencyReport/failures`` and the rest go on.
/// The play-order files are checked against the tasks and the experiment's track list
/// (`TapItFolder/checkPlayOrders(trackList:)`): their errors join the failures, their
/// warnings go to ``FolderLatencyReport/warnings``.
///
/// With ``StimulusBleedMode/auto`` and the experiment folder's `trackList.xml` present
/// (``LatencyAnalysisOptions/experimentFolder``, by default the folder above `path`), task
/// `NNN_TT` is given track `TT` of the list as its stimulus, starting at frame 0 of the
/// recording, and its bleed is removed before detection when it can be
/// (``TaskLatency/stimulusBleed``). A task whose capture sidecar says another file was played
/// is given that file, and the track list's entry is a failure (`TapItFolder/taskStimuli(trackList:trackListPath:)`);
/// when the sidecar's name is absolute or leaves the experiment folder, the task has no
/// stimulus and the failure says so. An explicit experiment folder without a readable
/// `trackList.xml` is a failure; the tasks are then analysed with the click grid.
///
/// - Parameters:
///   - path: the data folder.
///   - options: onset detection, channel, bleed handling, stimulus bleed and matching for every task.
///   - jobs: how many tasks run in parallel (default: one per core).
///   - progress: called after each task with (tasks done, tasks in all), from any thread.
/// - Throws: `TapDataError` only when the folder itself is unusable (missing, unreadable,
///   or holding no Tap-It files).
public func analyzeLatency(folder path: String, options: LatencyAnalysisOptions = LatencyAnalysisOptions(),
                           jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                           progress: (@Sendable (Int, Int) -> Void)? = nil) throws(TapDataError) -> FolderLatencyReport {
    let folder = try TapItFolder.scan(path)
    let runnable = folder.tasks.filter(\.isComplete)
    let trackListPath = options.experimentFolder.map { joinPath($0, "trackList.xml") } ?? folder.trackListPath
    var failures = folder.problems.map(AnalysisError.data)
    let trackListExists = FileManager.default.fileExists(atPath: trackListPath)
    if options.experimentFolder != nil && !trackListExists { failures.append(.data(.notFound(path: trackListPath))) }
    // Each task's stimulus file; a track list that cannot be read is reported by the play-order
    // check below.
    var stimuli: [TaskID: String] = [:]
    if options.stimulusBleed == .auto, options.bleed != .keep, trackListExists,
       let entries = try? TrackList.readEntries(trackListPath) {
        let found = folder.taskStimuli(trackList: entries, trackListPath: trackListPath)
        let experiment = options.experimentFolder ?? URL(fileURLWithPath: trackListPath).deletingLastPathComponent().path
        stimuli = found.stimuli.mapValues { joinPath(experiment, $0) }
        failures += found.errors.map(AnalysisError.data)
    }
    let results = runInParallel(count: runnable.count, jobs: jobs, progress: progress) { [stimuli] index -> Result<TaskLatency, AnalysisError> in
        let task = runnable[index]
        // Tap-It and `tapkit run` start playback and recording in the same cycle.
        let stimulus = stimuli[task.id].map { StimulusInput(path: $0, offset: 0) }
        return Result { () throws(AnalysisError) in
            try analyzeLatency(id: task.id, timestampsPath: task.timestampsPath!, audioPath: task.audioPath!, options: options,
                               stimulus: stimulus)
        }
    }
    var tasks: [TaskLatency] = []
    for result in results {
        switch result {
        case .success(let task): tasks.append(task)
        case .failure(let error): failures.append(error)
        }
    }
    let playOrders = folder.checkPlayOrders(trackList: trackListPath)
    failures += playOrders.errors.map(AnalysisError.data)
    var report = FolderLatencyReport(folder: path, tasks: tasks, failures: failures)
    report.warnings = playOrders.warnings
    report.skippedFiles = folder.ignoredFiles.map { path in
        let why = TapItFolder.whyIgnored(path)
        return SkippedFile(path: path, reason: why.reason, looksLikeTask: why.looksLikeTask)
    }
    return report
}

/// Runs `body` for 0..<count on `jobs` threads and returns the results in index order, so
/// the output does not depend on scheduling. Plain threads rather than Dispatch: on Linux
/// `concurrentPerform` was seen running the workers one after another.
func runInParallel<Value: Sendable>(count: Int, jobs: Int, progress: (@Sendable (Int, Int) -> Void)?,
                                    _ body: @escaping @Sendable (Int) -> Value) -> [Value] {
    let results = Mutex<[Value?]>(Array(repeating: nil, count: count))
    let next = Mutex(0)
    let done = Mutex(0)
    let workers = max(1, min(jobs, count))
    let finished = DispatchSemaphore(value: 0)
    for _ in 0..<workers {
        let thread = Thread {
            while true {
                let index = next.withLock { value -> Int in
                    defer { value += 1 }
                    return value
                }
                guard index < count else { break }
                let value = body(index)
                results.withLock { $0[index] = value }
                let completed = done.withLock { value -> Int in
                    value += 1
                    return value
                }
                progress?(completed, count)
            }
            finished.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }
    for _ in 0..<workers { finished.wait() }
    return results.withLock { $0.map { $0! } }
}

extension FolderLatencyReport {
    /// The report of a folder that could not be read at all: no tasks, its one failure, so
    /// that a JSON reader still gets a document that says what went wrong.
    public init(unreadableFolder folder: String, error: TapDataError) {
        self.init(folder: folder, tasks: [], failures: [.data(error)])
    }
}
