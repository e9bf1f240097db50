import TapInput
import Foundation
import TapAudio
import TapData

/// One Tap-It session: a participant, the experiment's tracks in order, and where the data goes.
public struct SessionPlan: Sendable, Equatable {
    /// The experiment folder (stimulus files and `trackList.xml`).
    public var experiment: String
    /// The participant's numeric id.
    public var user: Int
    /// Where the data folder is written (Tap-It: `<experiment>/data`).
    public var dataFolder: String
    /// Play the tracks in an order shuffled reproducibly from the user id.
    public var randomize = false
    /// What to do when files of this user exist already.
    public var existingFiles = ExistingFilesPolicy.refuse
    /// The JACK port recorded (the microphone); nil records silence.
    public var input: String?
    /// The JACK ports the stimulus plays to (left, right).
    public var outputs: [String] = []
    /// Where the taps come from. Only a MIDI port is read by the session itself; keyboard and
    /// input-device taps reach the capture through ``PlaybackCapture/tapNow()`` and
    /// ``PlaybackCapture/tap(atMonotonicTime:)`` from the reader the caller runs.
    public var tapInput: TapInput?
    /// Seconds recorded after each stimulus ends.
    public var tail: Double = 1

    /// Creates a plan with Tap-It's defaults.
    public init(experiment: String, user: Int, dataFolder: String? = nil) {
        self.experiment = experiment
        self.user = user
        self.dataFolder = dataFolder ?? experiment + "/data"
    }
}

/// What a session does when files it would write exist already. Tap-It overwrote them
/// silently; TapKit never does.
public enum ExistingFilesPolicy: Sendable, Equatable {
    /// Stop before writing anything.
    case refuse
    /// Delete them all before the session, so none is left to mix with the new ones.
    case overwrite
    /// Move them into a new subfolder `previous-N` of the data folder (N = 1, 2, … the first
    /// unused), so both sessions are kept and each can be analysed on its own.
    case keepPrevious
}

/// Where a session's taps come from.
public enum TapInput: Sendable, Equatable, CustomStringConvertible {
    /// Note-ons on a JACK MIDI port (pads, keyboards), exact to the frame.
    case midi(port: String)
    /// Keys pressed in the terminal, stamped when read.
    case keyboard
    /// A Linux input device (`/dev/input/eventN`), stamped with the kernel's event time.
    case inputDevice(path: String)

    /// `midi:PORT`, `keyboard` or `evdev:PATH`, as sidecars record it.
    public var description: String {
        switch self {
        case .midi(let port): return "midi:" + port
        case .keyboard: return "keyboard"
        case .inputDevice(let path): return "evdev:" + path
        }
    }
}

/// Why a session could not run.
public enum SessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file of the experiment or the data folder is at fault.
    case data(TapDataError)
    /// A stimulus could not be read, or a recording written.
    case audio(AudioError)
    /// Files of this user exist already (and `overwrite` is off).
    case existingFiles([String])
    /// The track list is empty.
    case emptyTrackList(String)

    /// The message, naming the file or port.
    public var description: String {
        switch self {
        case .data(let error): return error.description
        case .audio(let error): return error.description
        case .existingFiles(let paths):
            return "these files exist already and would be overwritten: \(paths.joined(separator: ", ")); "
                + "choose another --data folder or user, or pass --keep-previous (moves them into previous-N) or --overwrite"
        case .emptyTrackList(let path): return "\(path): the track list names no stimulus"
        }
    }
}

/// The order in which a user hears the tracks: list order, or a shuffle seeded with the user
/// id (`shuffledPlayOrder(count:seed:)`), so the same user always gets the same order.
public func playOrder(trackCount: Int, user: Int, randomize: Bool) -> [Int] {
    randomize ? shuffledPlayOrder(count: trackCount, seed: UInt64(bitPattern: Int64(user))) : Array(0..<trackCount)
}

/// Runs a session: for each track in play order, waits for `beforeTask` (the participant's go),
/// plays the stimulus (streamed from its file) while recording, and writes `NNN_TT.wav`,
/// `NNN_TT.txt` and `NNN_TT.json`; `NNN_play_order.txt` is written first. Every stimulus is
/// opened, and existing files are dealt with, before anything is written. Stops early when
/// `capture.stop()` is called (the current task is kept, marked incomplete).
public func runSession(_ plan: SessionPlan, capture: PlaybackCapture,
                       beforeTask: (Int, Int, String) -> Bool = { _, _, _ in true },
                       afterTask: (TaskSidecar) -> Void = { _ in }) throws(SessionError) -> [TaskSidecar] {
    let trackListPath = plan.experiment + "/trackList.xml"
    let tracks: [String]
    do { tracks = try TrackList.read(trackListPath) } catch { throw .data(error) }
    guard !tracks.isEmpty else { throw .emptyTrackList(trackListPath) }
    let order = playOrder(trackCount: tracks.count, user: plan.user, randomize: plan.randomize)
    // A missing or unreadable stimulus is found now, not after half the session.
    let stimuli: [Stimulus]
    do {
        stimuli = try tracks.map { (track: String) throws(AudioError) in try Stimulus.file(plan.experiment + "/" + track) }
    } catch { throw .audio(error) }

    let ids = tracks.indices.map { TaskID(user: plan.user, track: $0 + 1) }
    try prepareDataFolder(plan)
    do { try PlayOrderFile.write(order, to: plan.dataFolder + "/" + PlayOrderFile.fileName(user: plan.user)) } catch {
        throw .data(error)
    }

    var midiInputs: [String] = []
    if case .midi(let port) = plan.tapInput { midiInputs = [port] }
    var sidecars: [TaskSidecar] = []
    for (position, trackIndex) in order.enumerated() {
        let id = ids[trackIndex]
        guard !capture.isStopped, beforeTask(position + 1, order.count, tracks[trackIndex]), !capture.isStopped else { break }
        let started = ISO8601DateFormatter().string(from: Date())
        let recordingPath = plan.dataFolder + "/" + id.audioFileName()
        let sidecarPath = plan.dataFolder + "/" + id.description + ".json"
        func sidecar(_ report: CaptureReport?) -> TaskSidecar {
            var reason: String?
            if let report, !report.completed {
                reason = report.writeError?.description ?? report.stimulusError?.description ?? report.stopReason
                    ?? "the JACK server went away"
            }
            return TaskSidecar(task: id.description, stimulus: tracks[trackIndex],
                               sampleRate: report?.sampleRate ?? capture.sampleRate,
                               periodFrames: report?.periodFrames ?? capture.periodFrames, outputPorts: plan.outputs,
                               inputPort: plan.input, tapInput: plan.tapInput?.description, taps: report?.tapTimes.count ?? 0,
                               stimulusSampleRate: stimuli[trackIndex].sampleRate,
                               stimulusUnderrunFrames: report?.stimulusUnderrunFrames ?? 0,
                               xruns: report?.xruns ?? 0, droppedFrames: report?.droppedFrames ?? 0,
                               startedAt: started, tapkitVersion: tapkitVersion, completed: report?.completed ?? false,
                               stopReason: report == nil ? TaskSidecar.unfinishedReason : reason)
        }
        // Written before the task starts, so a task that never ends (SIGKILL) still has one that
        // says so, and the space the final one needs is taken while the disk has room.
        do { try sidecar(nil).write(to: sidecarPath) } catch { throw .data(error) }
        let report: CaptureReport
        do {
            report = try capture.run(stimuli[trackIndex], recordingTo: recordingPath,
                                     outputs: plan.outputs, inputs: plan.input.map { [$0] } ?? [],
                                     midiInputs: midiInputs,
                                     timestampsPath: plan.dataFolder + "/" + id.timestampsFileName,
                                     tailFrames: Int(plan.tail * capture.sampleRate))
        } catch let error as AudioError {
            throw .audio(error)
        } catch {
            throw .audio(.writeFailed(path: recordingPath, reason: "\(error)"))
        }
        let final = sidecar(report)
        do { try final.write(to: sidecarPath) } catch { throw .data(error) }
        sidecars.append(final)
        afterTask(final)
        if let error = report.writeError { throw .audio(error) }
        if let error = report.stimulusError { throw .audio(error) }
        if !report.completed { break }
    }
    return sidecars
}

/// Creates the data folder and applies the plan's policy to every file of this user already
/// in it (`NNN_TT.*` and `NNN_play_order.txt`, whatever the track list says now): refuses
/// before anything is written, so a mistyped user id never destroys data; deletes them all
/// (`overwrite`), so a shorter new session never mixes with the old one; or moves them all into
/// `previous-N` (`keepPrevious`).
private func prepareDataFolder(_ plan: SessionPlan) throws(SessionError) {
    let manager = FileManager.default
    let names = (try? manager.contentsOfDirectory(atPath: plan.dataFolder)) ?? []
    let existing = names.filter { name in
        name == PlayOrderFile.fileName(user: plan.user)
            || TaskID(fileStem: name.prefix { $0 != "." })?.user == plan.user
    }.sorted()
    if !existing.isEmpty && plan.existingFiles == .refuse {
        throw .existingFiles(existing.map { plan.dataFolder + "/" + $0 })
    }
    do {
        try manager.createDirectory(atPath: plan.dataFolder, withIntermediateDirectories: true)
    } catch { throw .data(.unwritable(path: plan.dataFolder, reason: plainFileErrorReason(error))) }
    guard !existing.isEmpty else { return }
    var destination: String?
    if plan.existingFiles == .keepPrevious {
        var number = 1
        while manager.fileExists(atPath: plan.dataFolder + "/previous-\(number)") { number += 1 }
        destination = plan.dataFolder + "/previous-\(number)"
    }
    do {
        if let destination { try manager.createDirectory(atPath: destination, withIntermediateDirectories: false) }
        for name in existing {
            let path = plan.dataFolder + "/" + name
            if let destination {
                try manager.moveItem(atPath: path, toPath: destination + "/" + name)
            } else {
                try manager.removeItem(atPath: path)
            }
        }
    } catch { throw .data(.unwritable(path: destination ?? plan.dataFolder, reason: plainFileErrorReason(error))) }
}
