import Foundation
import Testing
import TapKit
import TapTestSupport

/// Issue 11: every JSON output carries a top-level "tapkit" block (version, command line,
/// settings), and CSV runs can write the same block with --provenance FILE.
@Suite struct ProvenanceTests {
    let fixtures = packageRoot + "/Fixtures/data"

    func tapkitBlock(_ arguments: [String]) throws -> [String: Any] {
        let run = try runTapKit(arguments)
        #expect(run.status == 0, "\(arguments): \(run.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(arguments)")
        let block = try #require(document["tapkit"] as? [String: Any], "\(arguments)")
        #expect(Set(block.keys) == ["version", "command_line", "preset", "threshold_db", "bleed", "channel", "estimator"])
        #expect(block["version"] as? String == tapkitVersion)
        let commandLine = try #require(block["command_line"] as? [String])
        #expect(Array(commandLine.dropFirst()) == arguments)
        return block
    }

    @Test func everyJSONOutputSaysWhereItCameFrom() throws {
        let latency = try tapkitBlock(["latency", fixtures, "--format", "json", "--preset", "sensitive", "--bleed", "reject", "--channel", "1"])
        #expect(latency["preset"] as? String == "sensitive" && latency["bleed"] as? String == "reject" && latency["channel"] as? String == "1")
        #expect(latency["threshold_db"] as? Double == OnsetDetectorConfiguration.sensitive.thresholdDB && latency["estimator"] is NSNull)
        let onsets = try tapkitBlock(["onsets", fixtures + "/001_01.wav", "--format", "json", "--threshold-db", "9"])
        #expect(onsets["threshold_db"] as? Double == 9 && onsets["preset"] as? String == "standard")
        let evaluate = try tapkitBlock(["evaluate", fixtures, "--format", "json"])
        #expect(evaluate["bleed"] as? String == "cancel" && evaluate["channel"] as? String == "mix")
        let tempo = try tapkitBlock(["tempo", "--from-audio", fixtures + "/001_01.wav", "--format", "json", "--estimator", "median"])
        #expect(tempo["estimator"] as? String == "median" && tempo["preset"] as? String == "standard")
    }

    @Test func onsetsJSONIsAnObjectWithFilesAndErrors() throws {
        let run = try runTapKit(["onsets", fixtures + "/001_01.wav", "/nonexistent/x.wav", "--format", "json"])
        #expect(run.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let files = try #require(document["files"] as? [[String: Any]])
        #expect(files.count == 1 && files[0]["file"] as? String == fixtures + "/001_01.wav")
        let errors = try #require(document["errors"] as? [[String: Any]])
        #expect(errors.count == 1 && errors[0]["file"] as? String == "/nonexistent/x.wav")
    }

    @Test func csvRunsWriteTheBlockToAFileUnderTheWritingRule() throws {
        let folder = TemporaryFolder()
        let path = folder.file("run.json")
        for arguments in [["latency", fixtures, "--format", "csv"], ["onsets", fixtures + "/001_01.wav", "--format", "csv"],
                          ["evaluate", fixtures, "--format", "csv"], ["tempo", "--from", fixtures + "/001_01.txt", "--format", "csv"]] {
            try? FileManager.default.removeItem(atPath: path)
            let run = try runTapKit(arguments + ["--provenance", path])
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            #expect(run.stdout.hasPrefix(arguments[0] == "tempo" ? "time," : arguments[0] == "onsets" ? "file," : "task,"))
            let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
            let block = try #require(document["tapkit"] as? [String: Any])
            #expect((block["command_line"] as? [String])?.contains("--provenance") == true)
            // An existing file is kept without --overwrite, and nothing is analysed.
            let again = try runTapKit(arguments + ["--provenance", path])
            #expect(again.status == 1 && again.stderr.contains("run.json: exists; give --overwrite") && again.stdout.isEmpty, "\(again.stderr)")
            let replaced = try runTapKit(arguments + ["--provenance", path, "--overwrite"])
            #expect(replaced.status == 0, "\(replaced.stderr)")
        }
        // Never an input, even with --overwrite.
        let copy = folder.file("t.txt")
        try FileManager.default.copyItem(atPath: fixtures + "/001_01.txt", toPath: copy)
        let input = try runTapKit(["tempo", "--from", copy, "--format", "csv", "--provenance", copy, "--overwrite"])
        #expect(input.status == 1 && input.stderr.contains("is also an input"), "\(input.stderr)")
        #expect(try String(contentsOfFile: copy, encoding: .utf8) == (try String(contentsOfFile: fixtures + "/001_01.txt", encoding: .utf8)))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".partial") }
        #expect(leftovers.isEmpty)
    }
}
