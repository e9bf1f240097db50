import ArgumentParser
import Foundation
import TapKit

@main
struct TapKitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tapkit",
        abstract: "Measure and analyse finger-tapping experiments.",
        discussion: """
            Exit status: 0 when every input was analysed, 1 when some inputs failed (each is \
            reported on stderr, the rest are analysed), 2 for a usage error.
            """,
        subcommands: [LatencyCommand.self, OnsetsCommand.self, SimulateCommand.self, EvaluateCommand.self, ResampleCommand.self, MetronomeCommand.self, TempoCommand.self, TempoReportCommand.self, DevicesCommand.self, RunCommand.self, CaptureBenchCommand.self])

    /// Maps argument errors to exit status 2, as documented, instead of the parser's 64.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let exit as ExitCode {
            Foundation.exit(exit.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(code == .validationFailure ? 2 : code.rawValue)
        }
    }
}

extension OutputFormat: ExpressibleByArgument {}

/// Diagnostics go to stderr, data to stdout. A stderr that is gone (the terminal closed:
/// SIGHUP) loses the message instead of ending the process.
func printError(_ message: String) {
    try? FileHandle.standardError.write(contentsOf: Data((message + "\n").utf8))
}

/// Writes to stdout without buffering surprises when piped.
func printOutput(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
}

/// The exit status for a run in which `failures` inputs could not be analysed.
func exitStatus(failures: Int) -> ExitCode {
    failures == 0 ? .success : ExitCode(1)
}
