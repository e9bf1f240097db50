import Foundation

/// What the play-order files of a folder say against its tasks and the experiment's track
/// list: errors (the files contradict each other) and warnings (something is missing that
/// a complete session would have).
public struct PlayOrderCheck: Sendable, Equatable {
    /// Contradictions: a play order that cannot be read, a task whose track is not in its
    /// user's play order, an index or a track beyond the track list.
    public var errors: [TapDataError] = []
    /// Gaps: a user without a play-order file, a track played without task files.
    public var warnings: [TapDataError] = []

    /// A result from its errors and warnings.
    public init(errors: [TapDataError] = [], warnings: [TapDataError] = []) {
        self.errors = errors
        self.warnings = warnings
    }
}

extension TapItFolder {
    /// Where the experiment's track list is expected: `trackList.xml` in the folder above
    /// the data folder (Tap-It's `experiment/trackList.xml` beside `experiment/data/`).
    public var trackListPath: String {
        URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent().appendingPathComponent("trackList.xml").path
    }

    /// Reads every play-order file and checks it against the tasks present and, when
    /// `trackList` (default ``trackListPath``) holds a file, against the number of tracks.
    ///
    /// Errors (the analysis still runs; the exit status becomes 1):
    /// - a play-order file that cannot be read or parsed (file and line);
    /// - a task whose track index (track − 1) is not in its user's play order;
    /// - an index in a play order, or a task's track, beyond the track list's count;
    /// - a track list that exists but cannot be read.
    ///
    /// Warnings: a user with tasks but no play-order file; an index in a play order with no
    /// task files for it (a session stopped early, or files taken out).
    public func checkPlayOrders(trackList: String? = nil) -> PlayOrderCheck {
        var check = PlayOrderCheck()
        var trackCount: Int?
        let listPath = trackList ?? trackListPath
        if FileManager.default.fileExists(atPath: listPath) {
            do { trackCount = try TrackList.read(listPath).count } catch { check.errors.append(error) }
        }
        let tasksByUser = Dictionary(grouping: tasks, by: \.id.user)
        for user in Set(tasksByUser.keys).union(playOrders.keys).sorted() {
            let userTasks = (tasksByUser[user] ?? []).sorted { $0.id < $1.id }
            if let trackCount {
                for task in userTasks where task.id.track > trackCount || task.id.track < 1 {
                    check.errors.append(.inconsistent(
                        path: task.timestampsPath ?? task.audioPath ?? path, line: nil,
                        message: "track \(task.id.track) of task \(task.id) is beyond the \(trackCount) tracks of \(listPath)"))
                }
            }
            guard let orderPath = playOrders[user] else {
                if !userTasks.isEmpty {
                    check.warnings.append(.inconsistent(
                        path: joinPath(path, PlayOrderFile.fileName(user: user)), line: nil,
                        message: "no such file: user \(user) has tasks but no play order, so their tracks cannot be checked"))
                }
                continue
            }
            let entries: [(index: Int, line: Int)]
            do { entries = try PlayOrderFile.readEntries(orderPath) } catch {
                check.errors.append(error)
                continue
            }
            let played = Set(entries.map(\.index))
            for task in userTasks where !played.contains(task.id.track - 1) {
                check.errors.append(.inconsistent(
                    path: orderPath, line: nil,
                    message: "track index \(task.id.track - 1) (task \(task.id)) is not in the play order, yet its files are here"))
            }
            let present = Set(userTasks.map { $0.id.track - 1 })
            for entry in entries {
                if let trackCount, entry.index >= trackCount {
                    check.errors.append(.inconsistent(
                        path: orderPath, line: entry.line,
                        message: "track index \(entry.index) is beyond the \(trackCount) tracks of \(listPath) (indices 0–\(trackCount - 1))"))
                } else if !present.contains(entry.index) {
                    check.warnings.append(.inconsistent(
                        path: orderPath, line: entry.line,
                        message: "track index \(entry.index) was played but task \(TaskID(user: user, track: entry.index + 1)) has no files here"))
                }
            }
        }
        return check
    }

    /// Why ``ignoredFiles`` holds `path`, and whether its name looks like a task's (so that
    /// the user probably meant it to be read: `P01_T01.wav`, `001_01.mp3`).
    public static func whyIgnored(_ path: String) -> (looksLikeTask: Bool, reason: String) {
        let name = URL(fileURLWithPath: path).lastPathComponent
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return (false, "a folder; sub-folders are not searched")
        }
        if name.hasPrefix(".") { return (false, "a hidden file") }
        let (stem, ext) = splitExtension(name)
        let lower = ext?.lowercased()
        if let id = TaskID(fileStem: stem) {
            if lower == "json" { return (false, "the capture sidecar of task \(id); not needed by the analysis") }
            return (true, "extension .\(ext ?? "") is neither .txt nor a recording TapKit reads in a data folder (\(audioExtensions.sorted().joined(separator: ", ")))")
        }
        let recognised = lower == "txt" || lower.map(audioExtensions.contains) == true
        let hasDigitsAndUnderscore = stem.contains("_") && stem.contains(where: \.isNumber)
        if recognised || hasDigitsAndUnderscore {
            return (true, "not named like a task: user and track must be digits, NNN_TT (001_01.txt, 001_01.wav)")
        }
        return (false, "not a Tap-It file (NNN_TT.txt, NNN_TT.wav, NNN_play_order.txt)")
    }
}

/// The stimulus each task of a folder heard, as named in the experiment's track list, and
/// where the track list contradicts what was played.
public struct TaskStimuli: Sendable, Equatable {
    /// The stimulus file of each task, as the track list names it (relative to the experiment
    /// folder). Tasks whose track is beyond the list have none.
    public var stimuli: [TaskID: String] = [:]
    /// Track-list entries that name another file than the task's capture sidecar says was
    /// played (`file:line` of the track list): the list was edited after the session.
    public var errors: [TapDataError] = []

    /// A result from its parts.
    public init(stimuli: [TaskID: String] = [:], errors: [TapDataError] = []) {
        self.stimuli = stimuli
        self.errors = errors
    }
}

extension TapItFolder {
    /// The stimulus of every complete task: task `NNN_TT` heard element `TT` of the track list
    /// (`entries`, read from `trackListPath` with `TrackList.readEntries(_:)`). When the task's
    /// capture sidecar (`NNN_TT.json`, written by `tapkit run`) names another file, the track
    /// list was changed after the session: that is an error at the entry's line, and the
    /// sidecar's file, the one that was played, is the task's stimulus. When the sidecar's name
    /// may not be used (`..` or an absolute path, refused as in a track list), the error says
    /// so and the task has no stimulus: it falls back to the click-grid method, since the
    /// list's entry is not what was played. A sidecar that cannot be read is passed over (the
    /// analysis needs none).
    public func taskStimuli(trackList entries: [(name: String, line: Int)], trackListPath: String) -> TaskStimuli {
        var result = TaskStimuli()
        for task in completeTasks {
            let track = task.id.track
            guard track >= 1 && track <= entries.count else { continue }
            let entry = entries[track - 1]
            var stimulus = entry.name
            let sidecarPath = joinPath(path, "\(task.id).json")
            if FileManager.default.fileExists(atPath: sidecarPath), let sidecar = try? TaskSidecar.read(sidecarPath),
               sidecar.stimulus != entry.name {
                let changed = "track \(track) is \(quoted(entry.name)), but task \(task.id) played \(quoted(sidecar.stimulus)) (\(sidecarPath)): the track list was changed after the session"
                if let problem = TrackListScanner.placeProblem(sidecar.stimulus) {
                    result.errors.append(.inconsistent(
                        path: trackListPath, line: entry.line,
                        message: changed + "; task \(task.id) falls back to the click-grid method, as the file played cannot be used: \(quoted(sidecar.stimulus)) \(problem)"))
                    continue
                }
                result.errors.append(.inconsistent(path: trackListPath, line: entry.line,
                                                   message: changed + "; the file played is used"))
                stimulus = sidecar.stimulus
            }
            result.stimuli[task.id] = stimulus
        }
        return result
    }
}
