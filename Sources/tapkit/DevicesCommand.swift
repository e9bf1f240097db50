import ArgumentParser
import Foundation
import TapCapture
import TapKit

struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the audio and MIDI ports of the running JACK server.",
        discussion: """
            'source' ports deliver data into JACK (microphones, MIDI pads: what `tapkit run` \
            records from); 'sink' ports take data (loudspeakers, headphones: where stimuli \
            play). Names are what --input, --playback and --midi-input take.
            """)

    @Option(help: "JACK server name (default: the default server, or $JACK_DEFAULT_SERVER).")
    var server: String?

    @Option(help: "Output format: table, csv or json.")
    var format = OutputFormat.table

    func run() throws {
        let client: JackClient
        do { client = try JackClient(name: "tapkit-devices", serverName: server) } catch {
            printError("error: \(error)")
            throw ExitCode(1)
        }
        // JACK's own rule for a client that names no server.
        let serverName = server ?? ProcessInfo.processInfo.environment["JACK_DEFAULT_SERVER"] ?? "default"
        let ports = client.ports()
        let columns = ["port", "kind", "direction", "physical"]
        let rows = ports.map { [$0.name, $0.kind.rawValue, $0.isSource ? "source" : "sink", $0.isPhysical ? "yes" : "no"] }
        switch format {
        case .json:
            struct Document: Encodable {
                var server: String
                var sample_rate: Double
                var period_frames: Int
                var ports: [JackPort]
            }
            printOutput(try renderJSON(Document(server: serverName, sample_rate: client.sampleRate,
                                                period_frames: client.periodFrames, ports: ports)))
        case .csv:
            printOutput(renderCSV(columns: columns, rows: rows))
        case .table:
            printOutput("JACK server '\(serverName)': \(Int(client.sampleRate)) Hz, "
                        + "period \(client.periodFrames) frames\n\n" + renderTable(columns: columns, rows: rows))
        }
    }
}
