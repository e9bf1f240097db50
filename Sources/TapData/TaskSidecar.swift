import Foundation
#if canImport(Glibc)
import Glibc
#endif

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
    /// Where taps came from: `midi:PORT`, `keyboard` or `evdev:PATH`.
    public var tapInput: String?
    /// Taps recorded.
    public var taps: Int
    /// The stimulus file's own rate (converted to ``sampleRate`` while playing when it differs).
    public var stimulusSampleRate: Double
    /// Stimulus frames replaced by silence because the disk could not keep up (0 in a healthy run).
    public var stimulusUnderrunFrames: Int
    /// Server xruns during the task.
    public var xruns: Int
    /// Frames lost between the callback and the writer (0 in a healthy run).
    public var droppedFrames: Int
    /// Wall-clock start, ISO 8601.
    public var startedAt: String
    /// The TapKit that wrote the files.
    public var tapkitVersion: String
    /// False when the task was stopped (Ctrl-C, a signal), a file could not be written, the
    /// stimulus could not be read, or the server went away.
    public var completed: Bool
    /// Why an incomplete task ended (`interrupted by SIGINT`, the write error naming the file…);
    /// absent when it completed.
    public var stopReason: String? = nil

    /// A sidecar from its parts.
    public init(task: String, stimulus: String, sampleRate: Double, periodFrames: Int, outputPorts: [String],
                inputPort: String?, tapInput: String?, taps: Int, stimulusSampleRate: Double, stimulusUnderrunFrames: Int,
                xruns: Int, droppedFrames: Int, startedAt: String, tapkitVersion: String, completed: Bool,
                stopReason: String? = nil) {
        self.task = task
        self.stimulus = stimulus
        self.sampleRate = sampleRate
        self.periodFrames = periodFrames
        self.outputPorts = outputPorts
        self.inputPort = inputPort
        self.tapInput = tapInput
        self.taps = taps
        self.stimulusSampleRate = stimulusSampleRate
        self.stimulusUnderrunFrames = stimulusUnderrunFrames
        self.xruns = xruns
        self.droppedFrames = droppedFrames
        self.startedAt = startedAt
        self.tapkitVersion = tapkitVersion
        self.completed = completed
        self.stopReason = stopReason
    }

    /// Reads a sidecar; errors name the file.
    public static func read(_ path: String) throws(TapDataError) -> TaskSidecar {
        let text = try TextFile.read(path)
        do { return try JSONDecoder().decode(TaskSidecar.self, from: Data(text.utf8)) } catch {
            throw .unreadable(path: path, reason: "not a TapKit sidecar: \(error)")
        }
    }

    enum CodingKeys: String, CodingKey {
        case task, stimulus, sampleRate = "sample_rate", periodFrames = "period_frames", outputPorts = "output_ports"
        case inputPort = "input_port", tapInput = "tap_input", taps, stimulusSampleRate = "stimulus_sample_rate"
        case stimulusUnderrunFrames = "stimulus_underrun_frames", xruns, droppedFrames = "dropped_frames"
        case startedAt = "started_at", tapkitVersion = "tapkit_version", completed, stopReason = "stop_reason"
    }

    /// What the sidecar says while its task runs: written when the task starts, replaced when
    /// it ends. Found after a task, it means TapKit was killed (SIGKILL) or the machine stopped.
    public static let unfinishedReason = "the task did not end: tapkit was killed or the machine stopped while it ran "
        + "(the counts in this file were not filled in)"

    /// Writes a sidecar over the one written when its task began, in place: the file is neither
    /// truncated nor replaced first, so on a full disk the blocks it already has are reused.
    public func write(to path: String) throws(TapDataError) {
        let data: Data
        do { data = Data(try renderJSON(self).utf8) } catch {
            throw .unwritable(path: path, reason: "\(error)")
        }
        let descriptor = open(path, O_WRONLY | O_CREAT, 0o644)
        guard descriptor >= 0 else { throw .unwritable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        let written = data.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        guard written == data.count, ftruncate(descriptor, off_t(data.count)) == 0 else {
            throw .unwritable(path: path, reason: written < 0 || written == data.count ? String(cString: strerror(errno)) : "short write")
        }
    }
}
