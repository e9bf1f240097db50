import ArgumentParser
import Dispatch
import Foundation
import TapCapture
import TapInput
import TapKit

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a Tap-It session on JACK: play each stimulus, record the microphone and the taps.",
        discussion: """
            Reads <experiment>/trackList.xml and, for each track in order (or shuffled from the \
            user id with --randomize), plays the stimulus while recording the input port and the \
            MIDI taps on the same clock. Writes NNN_TT.wav, NNN_TT.txt (tap times, appended as \
            they happen), NNN_TT.json (sidecar) and NNN_play_order.txt into the data folder. \
            Existing files are never overwritten without --overwrite. Ctrl-C, SIGTERM or SIGHUP \
            ends the current task with valid files, marked incomplete in its sidecar, and exits \
            with status 1. Give --input, a tap input, or both: a session that would record \
            neither is refused.
            """)

    @Argument(help: "The experiment folder (stimuli and trackList.xml).")
    var experiment: String

    @Option(help: "The participant's numeric id.")
    var user: Int

    @Flag(help: "Play the tracks in an order shuffled reproducibly from the user id.")
    var randomize = false

    @Option(help: "JACK port to record (the microphone).")
    var input: String?

    @Option(help: "JACK ports to play to, comma separated (left,right).")
    var playback: String?

    @Option(help: "Taps from this JACK MIDI port's note-ons (exact to the frame).")
    var midiInput: String?

    @Flag(help: "Taps from the keyboard: every key pressed during a task, stamped when read.")
    var keyboard = false

    @Option(help: ArgumentHelp("Taps from a Linux input device, stamped with the kernel's event time.",
                               valueName: "/dev/input/eventN"))
    var inputDevice: String?

    @Flag(help: "Start each task without waiting for Enter (scripted runs).")
    var noPrompt = false

    @Option(help: "Data folder (default: <experiment>/data).")
    var data: String?

    @Flag(help: "Replace this user's existing files.")
    var overwrite = false

    @Flag(help: "Move this user's existing files into <data>/previous-N and keep both sessions.")
    var keepPrevious = false

    @Option(help: "JACK server name.")
    var server: String?

    func validate() throws {
        guard user >= 0 else { throw ValidationError("--user must be a non-negative number") }
        guard [midiInput != nil, keyboard, inputDevice != nil].filter({ $0 }).count <= 1 else {
            throw ValidationError("choose one tap input: --midi-input, --keyboard or --input-device")
        }
        guard !(overwrite && keepPrevious) else { throw ValidationError("--overwrite and --keep-previous exclude each other") }
        guard input != nil || tapInput != nil else {
            throw ValidationError("this session would record nothing: give --input PORT (the microphone) and/or a tap input "
                                  + "(--midi-input, --keyboard or --input-device); `tapkit devices` lists the ports")
        }
    }

    private var tapInput: TapInput? {
        if let midiInput { return .midi(port: midiInput) }
        if keyboard { return .keyboard }
        return inputDevice.map { .inputDevice(path: $0) }
    }

    func run() throws {
        let client: JackClient
        do { client = try JackClient(name: "tapkit", serverName: server) } catch {
            printError("error: \(error)")
            throw ExitCode(1)
        }
        var plan = SessionPlan(experiment: experiment, user: user, dataFolder: data)
        plan.randomize = randomize
        plan.existingFiles = overwrite ? .overwrite : keepPrevious ? .keepPrevious : .refuse
        plan.input = input
        plan.outputs = playback?.split(separator: ",").map(String.init) ?? []
        plan.tapInput = tapInput
        for port in ([input, midiInput].compactMap { $0 } + plan.outputs) {
            do { _ = try client.port(named: port) } catch {
                printError("error: \(error)")
                throw ExitCode(1)
            }
        }
        let capture = PlaybackCapture(client: client)
        let prompt = TaskPrompt(capture: capture, keyboard: keyboard, prompting: !noPrompt)
        // Ctrl-C, SIGTERM and SIGHUP (the terminal closed) end the current task cleanly instead
        // of killing the process, and between tasks they end the session at the prompt. The
        // trap lives until the `defer` at the end of `run`.
        let signals = SignalTrap([SIGINT, SIGTERM, SIGHUP]) { number in
            capture.stop(reason: "interrupted by \(signalName(number))")
            prompt.cancel()
        }
        defer { signals.cancel() }
        // A stderr that is gone must not kill the session (SIGPIPE), and a file-size limit makes
        // a write fail, ending the task with its sidecar, instead of killing it (SIGXFSZ).
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        let device: InputDeviceReader?
        do {
            device = try inputDevice.map { path throws(InputError) in
                try InputDeviceReader(path: path) { time in capture.tap(atMonotonicTime: time) }
            }
        } catch {
            printError("error: \(error)")
            throw ExitCode(1)
        }
        device?.start()
        defer {
            device?.stop()
            prompt.finish()
        }
        let status = StatusLine(capture: capture)
        // Digital silence through the first second of the first task: most likely nothing is
        // connected to the input. Said once; the session goes on.
        let silence = input.map { SilenceWatch(capture: capture, port: $0, status: status) }
        do {
            let sidecars = try runSession(plan, capture: capture, beforeTask: { index, count, stimulus in
                if !noPrompt && !prompt.waitForEnter("task \(index) of \(count) (\(stimulus)): press Enter to start") {
                    return false
                }
                status.begin("task \(index) of \(count)")
                if index == 1 { silence?.start() }
                return true
            }, afterTask: { sidecar in
                silence?.finish()
                status.end()
                printError("\(sidecar.task): \(sidecar.completed ? "done" : "stopped, kept as incomplete"), "
                           + "\(sidecar.taps) tap\(sidecar.taps == 1 ? "" : "s")"
                           + (sidecar.xruns > 0 ? ", \(sidecar.xruns) xrun(s)" : "")
                           + (sidecar.stimulusUnderrunFrames > 0 ? ", \(sidecar.stimulusUnderrunFrames) stimulus frames late" : ""))
            })
            if device?.hasEnded == true { printError("warning: \(inputDevice ?? ""): the input device stopped delivering events") }
            if capture.isStopped || sidecars.contains(where: { !$0.completed }) {
                printError("stopped after \(sidecars.filter(\.completed).count) complete task(s)")
                throw ExitCode(1)
            }
        } catch let error as SessionError {
            silence?.finish()
            status.end()
            printError("error: \(error)")
            throw ExitCode(1)
        }
    }
}

/// Watches the first task's recording and warns, once, when its first second is digital
/// silence (every sample exactly 0), which no microphone gives: the port is unconnected, muted
/// or wrong. Reads the capture's progress from a timer, never the audio thread.
final class SilenceWatch: @unchecked Sendable {  // `timer` is touched under `lock` only
    private let capture: PlaybackCapture
    private let port: String
    private let status: StatusLine
    private let lock = NSLock()
    private var timer: (any DispatchSourceTimer)?

    init(capture: PlaybackCapture, port: String, status: StatusLine) {
        self.capture = capture
        self.port = port
        self.status = status
    }

    func start() {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + 0.1, repeating: 0.1)
        timer.setEventHandler { [weak self] in self?.check() }
        lock.lock()
        self.timer = timer
        lock.unlock()
        timer.resume()
    }

    /// Stops watching (the first task is over).
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        timer?.cancel()
        timer = nil
    }

    private func check() {
        guard let progress = capture.progress, progress.leadingSilentFrames >= Int(capture.sampleRate) else { return }
        lock.lock()
        let watching = timer != nil
        timer?.cancel()
        timer = nil
        lock.unlock()
        guard watching else { return }
        status.note("warning: the input \(port) has been at digital silence (every sample exactly 0) for the first "
                    + "second: is the microphone connected to this port? Going on.")
    }
}
