import Foundation
import Testing
import TapKit
import TapTestSupport

/// The command line as a newcomer meets it: the version, a mistyped command, mistaken values.
@Suite struct CommandLineTests {
    /// `tapkit --version` prints the version of the newest CHANGELOG entry.
    @Test func versionMatchesTheChangelog() throws {
        let run = try runTapKit(["--version"])
        #expect(run.status == 0)
        let changelog = try String(contentsOfFile: packageRoot + "/CHANGELOG.md", encoding: .utf8)
        let newest = changelog.split(separator: "\n").first { $0.hasPrefix("## [") && !$0.contains("Unreleased") }
        let version = newest.flatMap { $0.split(separator: "[").dropFirst().first?.split(separator: "]").first }.map(String.init)
        #expect(version == tapkitVersion && run.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == tapkitVersion,
                "\(run.stdout) vs CHANGELOG \(version ?? "none")")
    }

    @Test func aMistypedCommandGetsASuggestion() throws {
        let run = try runTapKit(["latncy", "Fixtures/data"])
        #expect(run.status == 2 && run.stderr.contains("did you mean 'latency'?"), "\(run.stderr)")
        let far = try runTapKit(["analyse"])
        #expect(far.status == 2 && far.stderr.contains("unknown command 'analyse'") && !far.stderr.contains("did you mean"), "\(far.stderr)")
        let help = try runTapKit(["help", "latency"])
        #expect(help.status == 0 && help.stdout.contains("USAGE"), "\(help.stdout)\(help.stderr)")
    }

    @Test func mistakenValuesGetSpecificMessages() throws {
        let data = packageRoot + "/Fixtures/data"
        let channel = try runTapKit(["latency", data, "--channel", "0"])
        #expect(channel.status == 2 && channel.stderr.contains("--channel takes a channel number from 1, or 'mix'"), "\(channel.stderr)")
        let preset = try runTapKit(["latency", data, "--preset", "loud"])
        #expect(preset.status == 2 && preset.stderr.contains("unknown preset 'loud'; choose one of standard"), "\(preset.stderr)")
    }

    /// Maintainers' commands are not in the shipped tool.
    @Test func theShippedToolHasNoMaintainerCommands() throws {
        for command in ["tempo-report", "capture-bench"] {
            let run = try runTapKit([command])
            #expect(run.status == 2, "\(command): \(run.stdout)")
        }
        let bench = try runTapKit(["metronome", "bench-live"])
        #expect(bench.status == 2)
    }
}
