import ArgumentParser
import Dispatch
import Foundation
import TapCapture
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
            Existing files are never overwritten without --overwrite. Ctrl-C ends the current \
            task with valid files, marked incomplete in its sidecar.
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
    var output: String?

    @Option(help: "JACK MIDI port whose note-ons are taps.")
    var midiInput: String?

    @Flag(help: "Start each task without waiting for Enter (scripted runs).")
    var noPrompt = false

    @Option(help: "Data folder (default: <experiment>/data).")
    var data: String?

    @Flag(help: "Replace this user's existing files.")
    var overwrite = false

    @Option(help: "JACK server name.")
    var server: String?

    func validate() throws {
        guard user >= 0 else { throw ValidationError("--user must be a non-negative number") }
    }

    func run() throws {
        let client: JackClient
        do { client = try JackClient(name: "tapkit", serverName: server) } catch {
            printError("error: \(error)")
            throw ExitCode(1)
        }
        var plan = SessionPlan(experiment: experiment, user: user, dataFolder: data)
        plan.randomize = randomize
        plan.overwrite = overwrite
        plan.input = input
        plan.outputs = output?.split(separator: ",").map(String.init) ?? []
        plan.midiInput = midiInput
        for port in ([input, midiInput].compactMap { $0 } + plan.outputs) {
            do { _ = try client.port(named: port) } catch {
                printError("error: \(error)")
                throw ExitCode(1)
            }
        }
        let capture = PlaybackCapture(client: client)
        // Ctrl-C and SIGTERM end the current task cleanly instead of killing the process.
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let sources = [SIGINT, SIGTERM].map { DispatchSource.makeSignalSource(signal: $0, queue: .global()) }
        for source in sources {
            source.setEventHandler { capture.stop() }
            source.resume()
        }
        let terminal = isatty(STDERR_FILENO) == 1
        do {
            let sidecars = try runSession(plan, capture: capture, beforeTask: { index, count, stimulus in
                if !noPrompt {
                    printError("task \(index) of \(count) (\(stimulus)): press Enter to start")
                    _ = readLine()
                } else if terminal {
                    printError("task \(index) of \(count): \(stimulus)")
                }
                return true
            }, afterTask: { sidecar in
                printError("\(sidecar.task): \(sidecar.completed ? "done" : "stopped, kept as incomplete")"
                           + (sidecar.xruns > 0 ? ", \(sidecar.xruns) xrun(s)" : ""))
            })
            if sidecars.contains(where: { !$0.completed }) { throw ExitCode(1) }
        } catch let error as SessionError {
            printError("error: \(error)")
            throw ExitCode(1)
        }
    }
}
