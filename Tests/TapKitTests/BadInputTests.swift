import TapTestSupport
import Foundation
import Testing
import TapKit

/// Every kind of bad input is reported with its file (and line), the other tasks are still
/// analysed, and the command exits with 1.
@Suite struct BadInputTests {
    let fixtures = packageRoot + "/Fixtures/data"

    /// A folder holding one good task (copied from the fixtures) plus `extra` files.
    func folder(with extra: [String: Data]) throws -> TemporaryFolder {
        let folder = TemporaryFolder()
        for name in ["001_01.txt", "001_01.wav"] {
            try FileManager.default.copyItem(atPath: fixtures + "/" + name, toPath: folder.file(name))
        }
        for (name, data) in extra { try data.write(to: URL(fileURLWithPath: folder.file(name))) }
        return folder
    }

    func wavBytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: fixtures + "/001_01.wav")) }

    @Test func eachBadTaskIsReportedAndTheGoodOneAnalysed() throws {
        let wav = try wavBytes()
        let folder = try folder(with: [
            "002_01.txt": Data("0.5\n1.0\n".utf8),                        // no recording
            "003_01.wav": wav,                                           // no timestamps
            "004_01.txt": Data("0.5\nabc\n1.0\n".utf8), "004_01.wav": wav, // non-numeric line 2
            "005_01.txt": Data("0.5\n0.4\n".utf8), "005_01.wav": wav,     // unsorted at line 2
            "006_01.txt": Data("0.5\n\n1.0\n".utf8), "006_01.wav": wav,   // empty line 2
            "007_01.txt": Data("0.5\n-1\n".utf8), "007_01.wav": wav,      // negative
            "008_01.txt": Data("nan\n".utf8), "008_01.wav": wav,          // NaN
            "009_01.txt": Data("0.5\n".utf8), "009_01.wav": wav.prefix(wav.count / 3),   // truncated audio
            "010_01.txt": Data("0.5\n".utf8), "010_01.wav": Data("not audio".utf8),      // corrupt audio
            "011_01.txt": Data("0.5\n".utf8), "011_01.wav": wav.prefix(44),              // header only: zero length
        ])
        let report = try analyzeLatency(folder: folder.path, jobs: 2)
        #expect(report.tasks.map(\.id.description) == ["001_01"])
        #expect(report.tasks.first?.match.pairs.count == 11)
        let messages = report.failures.map(\.description)
        func reported(_ fragment: String) -> Bool { messages.contains { $0.contains(fragment) } }
        #expect(reported(folder.file("002_01.txt")))
        #expect(reported(folder.file("003_01.wav")))
        #expect(reported(folder.file("004_01.txt") + ":2:"))
        #expect(reported(folder.file("005_01.txt") + ":2:"))
        #expect(reported(folder.file("006_01.txt") + ":2:"))
        #expect(reported(folder.file("007_01.txt") + ":2:"))
        #expect(reported(folder.file("008_01.txt") + ":1:"))
        #expect(reported(folder.file("009_01.wav")))
        #expect(reported(folder.file("010_01.wav")))
        #expect(reported(folder.file("011_01.wav")))
        #expect(report.failures.count == 10, "\(messages.joined(separator: "\n"))")

        let command = try runTapKit(["latency", folder.path, "--format", "csv"])
        #expect(command.status == 1)
        #expect(command.stdout.contains("\n001_01,11,"))
        #expect(command.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }.count == 10)
    }

    @Test func aFolderWithoutTapItFilesIsAnError() throws {
        let folder = TemporaryFolder()
        try Data("hello".utf8).write(to: URL(fileURLWithPath: folder.file("notes.md")))
        let command = try runTapKit(["latency", folder.path])
        #expect(command.status == 1)
        #expect(command.stderr.contains(folder.path))
        #expect(command.stdout.isEmpty)
    }

    @Test func aMissingFolderIsAnError() throws {
        let command = try runTapKit(["latency", "/nonexistent/tapkit-data"])
        #expect(command.status == 1)
        #expect(command.stderr.contains("/nonexistent/tapkit-data"))
    }

    @Test func unreadableOnsetsFileFailsButOthersPrint() throws {
        let folder = try folder(with: [:])
        let command = try runTapKit(["onsets", folder.file("001_01.wav"), folder.file("missing.wav"), "--format", "csv"])
        #expect(command.status == 1)
        #expect(command.stderr.contains(folder.file("missing.wav")))
        let alone = try runTapKit(["onsets", folder.file("001_01.wav"), "--format", "csv"])
        let rows = alone.stdout.split(separator: "\n").count - 1
        #expect(rows > 5)
        #expect(command.stdout.split(separator: "\n").count == 1 + rows)
    }
}
