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
    /// Replace existing files of this user instead of refusing to run.
    public var overwrite = false
    /// The JACK port recorded (the microphone); nil records silence.
    public var input: String?
    /// The JACK ports the stimulus plays to (left, right).
    public var outputs: [String] = []
    /// A JACK MIDI port whose note-ons are the taps.
    public var midiInput: String?
    /// Seconds recorded after each stimulus ends.
    public var tail: Double = 1

    /// Creates a plan with Tap-It's defaults.
    public init(experiment: String, user: Int, dataFolder: String? = nil) {
        self.experiment = experiment
        self.user = user
        self.dataFolder = dataFolder ?? experiment + "/data"
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

    public var description: String {
        switch self {
        case .data(let error): return error.description
        case .audio(let error): return error.description
        case .existingFiles(let paths):
            return "these files exist already and would be overwritten: \(paths.joined(separator: ", ")); "
                + "choose another --data folder or user, or pass --overwrite"
        case .emptyTrackList(let path): return "\(path): the track list names no stimulus"
        }
    }
}

/// The sidecar `NNN_TT.json` written beside each task's recording.
public struct TaskSidecar: Sendable, Codable, Equatable {
    /// `NNN_TT`.
    public var task: String
    /// The stimulus file, as the track list names it.
    public var stimulus: String
    /// The server's sample rate.
    public var sampleRate: Double
    /// Frames per process cycle.
    public var periodFrames: Int
    /// Where the stimulus played.
    public var outputPorts: [String]
    /// What was recorded.
    public var inputPort: String?
    /// Where taps came from.
    public var midiInputPort: String?
    /// Server xruns during the task.
    public var xruns: Int
    /// Frames lost between the callback and the writer (0 in a healthy run).
    public var droppedFrames: Int
    /// Wall-clock start, ISO 8601.
    public var startedAt: String
    /// The TapKit that wrote the files.
    public var tapkitVersion: String
    /// False when the task was stopped (Ctrl-C) or the server went away.
    public var completed: Bool

    enum CodingKeys: String, CodingKey {
        case task, stimulus, sampleRate = "sample_rate", periodFrames = "period_frames", outputPorts = "output_ports"
        case inputPort = "input_port", midiInputPort = "midi_input_port", xruns, droppedFrames = "dropped_frames"
        case startedAt = "started_at", tapkitVersion = "tapkit_version", completed
    }
}

/// TapKit's version, written into sidecars.
public let tapkitVersion = "0.1.0"

/// The order in which a user hears the tracks: list order, or a shuffle seeded with the user
/// id (``shuffledPlayOrder(count:seed:)``), so the same user always gets the same order.
public func playOrder(trackCount: Int, user: Int, randomize: Bool) -> [Int] {
    randomize ? shuffledPlayOrder(count: trackCount, seed: UInt64(bitPattern: Int64(user))) : Array(0..<trackCount)
}

/// Runs a session: for each track in play order, waits for `beforeTask` (the participant's go),
/// plays the stimulus while recording, and writes `NNN_TT.wav`, `NNN_TT.txt` and
/// `NNN_TT.json`; `NNN_play_order.txt` is written first. Stops early when `capture.stop()` is
/// called (the current task is kept, marked incomplete).
public func runSession(_ plan: SessionPlan, capture: PlaybackCapture,
                       beforeTask: (Int, Int, String) -> Bool = { _, _, _ in true },
                       afterTask: (TaskSidecar) -> Void = { _ in }) throws(SessionError) -> [TaskSidecar] {
    let trackListPath = plan.experiment + "/trackList.xml"
    let tracks: [String]
    do { tracks = try TrackList.read(trackListPath) } catch { throw .data(error) }
    guard !tracks.isEmpty else { throw .emptyTrackList(trackListPath) }
    let order = playOrder(trackCount: tracks.count, user: plan.user, randomize: plan.randomize)

    // Refuse before anything is written, so a mistyped user id never destroys data.
    let ids = tracks.indices.map { TaskID(user: plan.user, track: $0 + 1) }
    let targets = ids.flatMap { [$0.audioFileName(), $0.timestampsFileName, $0.description + ".json"] }
        + [PlayOrderFile.fileName(user: plan.user)]
    let existing = targets.map { plan.dataFolder + "/" + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
    if !existing.isEmpty && !plan.overwrite { throw .existingFiles(existing) }
    do {
        try FileManager.default.createDirectory(atPath: plan.dataFolder, withIntermediateDirectories: true)
    } catch { throw .data(.unwritable(path: plan.dataFolder, reason: error.localizedDescription)) }
    do { try PlayOrderFile.write(order, to: plan.dataFolder + "/" + PlayOrderFile.fileName(user: plan.user)) } catch {
        throw .data(error)
    }

    var sidecars: [TaskSidecar] = []
    for (position, trackIndex) in order.enumerated() {
        let id = ids[trackIndex]
        let stimulusPath = plan.experiment + "/" + tracks[trackIndex]
        guard beforeTask(position + 1, order.count, tracks[trackIndex]) else { break }
        let stimulus: [[Float]]
        let rate: Double
        do {
            let channels = try AudioFileReader(path: stimulusPath).info.channelCount
            let signals = try (0..<min(max(channels, 1), 2)).map { (channel: Int) throws(AudioError) -> Signal in
                try Signal(contentsOf: stimulusPath, channel: .channel(channel))
            }
            stimulus = signals.count == 1 ? [signals[0].samples, signals[0].samples] : signals.map(\.samples)
            rate = signals[0].sampleRate
        } catch { throw .audio(error) }
        let started = ISO8601DateFormatter().string(from: Date())
        let report: CaptureReport
        do {
            report = try capture.run(stimulus: stimulus, sampleRate: rate,
                                     recordingTo: plan.dataFolder + "/" + id.audioFileName(),
                                     outputs: plan.outputs, inputs: plan.input.map { [$0] } ?? [],
                                     midiInputs: plan.midiInput.map { [$0] } ?? [],
                                     timestampsPath: plan.dataFolder + "/" + id.timestampsFileName,
                                     tailFrames: Int(plan.tail * rate))
        } catch let error as CaptureError {
            throw .audio(.writeFailed(path: plan.dataFolder + "/" + id.audioFileName(), reason: error.description))
        } catch let error as AudioError {
            throw .audio(error)
        } catch {
            throw .audio(.writeFailed(path: plan.dataFolder + "/" + id.audioFileName(), reason: "\(error)"))
        }
        let sidecar = TaskSidecar(task: id.description, stimulus: tracks[trackIndex], sampleRate: report.sampleRate,
                                  periodFrames: report.periodFrames, outputPorts: plan.outputs, inputPort: plan.input,
                                  midiInputPort: plan.midiInput, xruns: report.xruns, droppedFrames: report.droppedFrames,
                                  startedAt: started, tapkitVersion: tapkitVersion, completed: report.completed)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try encoder.encode(sidecar).write(to: URL(fileURLWithPath: plan.dataFolder + "/" + id.description + ".json"))
        } catch { throw .data(.unwritable(path: plan.dataFolder + "/" + id.description + ".json", reason: error.localizedDescription)) }
        sidecars.append(sidecar)
        afterTask(sidecar)
        if !report.completed { break }
    }
    return sidecars
}
