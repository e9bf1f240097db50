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
        version: tapkitVersion,
        subcommands: [LatencyCommand.self, OnsetsCommand.self, SimulateCommand.self, EvaluateCommand.self, ResampleCommand.self, MetronomeCommand.self, TempoCommand.self, DevicesCommand.self, RunCommand.self])

    /// Maps argument errors to exit status 2, as documented, instead of the parser's 64.
    static func main() {
        let arguments = RawPathArguments.usable()
        if let suggestion = suggestionForUnknownCommand(arguments) {
            FileHandle.standardError.write(Data((suggestion + "\n").utf8))
            Foundation.exit(2)
        }
        do {
            var command = try parseAsRoot(arguments)
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

extension TapKitCommand {
    /// "unknown command 'latncy'; did you mean 'latency'?" when the first word is no command but
    /// is within two edits of one (the parser would only say "unexpected arguments").
    static func suggestionForUnknownCommand(_ arguments: [String]) -> String? {
        guard let word = arguments.first, !word.hasPrefix("-"), word != "help" else { return nil }
        let names = configuration.subcommands.filter { $0.configuration.shouldDisplay }.compactMap { $0.configuration.commandName }
        guard !configuration.subcommands.contains(where: { $0.configuration.commandName == word }) else { return nil }
        let nearest = names.map { ($0, editDistance(word.lowercased(), $0)) }.min { $0.1 < $1.1 }
        let list = names.joined(separator: ", ")
        if let nearest, nearest.1 <= 2 {
            return "error: unknown command '\(word)'; did you mean '\(nearest.0)'? (commands: \(list))"
        }
        return "error: unknown command '\(word)' (commands: \(list))"
    }
}

/// Levenshtein distance between two short words.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    var previous = Array(0...b.count)
    for i in 1...max(a.count, 1) where !a.isEmpty {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...max(b.count, 1) where !b.isEmpty {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return a.isEmpty ? b.count : previous[b.count]
}

extension OutputFormat: ExpressibleByArgument {}

/// Diagnostics go to stderr, data to stdout. A stderr that is gone (the terminal closed:
/// SIGHUP) loses the message instead of ending the process.
func printError(_ message: String) {
    try? FileHandle.standardError.write(contentsOf: Data((RawPathArguments.shown(message) + "\n").utf8))
}

/// Writes to stdout without buffering surprises when piped.
func printOutput(_ text: String) {
    FileHandle.standardOutput.write(Data(RawPathArguments.shown(text).utf8))
}

/// The exit status for a run in which `failures` inputs could not be analysed.
func exitStatus(failures: Int) -> ExitCode {
    failures == 0 ? .success : ExitCode(1)
}
