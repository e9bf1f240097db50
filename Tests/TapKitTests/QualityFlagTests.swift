import Foundation
import Testing
import TapKit
import TapTestSupport

/// Issue 11: every task carries quality flags (REPP's `{failed, reason}`), printed in every
/// format and warned on stderr naming the task's file; a flagged task is still analysed.
@Suite struct QualityFlagTests {
    let fixtures = packageRoot + "/Fixtures/data"

    /// A folder with the fixture's 001_01 timestamps and a recording made by `recording` from
    /// the fixture's samples (written as 32-bit float WAV).
    func folder(timestamps: String? = nil, recording: (inout [Float]) -> Void) throws -> TemporaryFolder {
        let folder = TemporaryFolder()
        if let timestamps {
            try timestamps.write(toFile: folder.file("001_01.txt"), atomically: true, encoding: .utf8)
        } else {
            try FileManager.default.copyItem(atPath: fixtures + "/001_01.txt", toPath: folder.file("001_01.txt"))
        }
        var signal = try Signal(contentsOf: fixtures + "/001_01.wav")
        recording(&signal.samples)
        try signal.write(to: folder.file("001_01.wav"), format: .wavFloat)
        try "0 ".write(toFile: folder.file("001_play_order.txt"), atomically: true, encoding: .utf8)
        return folder
    }

    func csvRows(_ stdout: String) -> [[String: String]] {
        let lines = stdout.split(separator: "\n").map { $0.components(separatedBy: ",") }
        guard let header = lines.first else { return [] }
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    func flags(_ folder: TemporaryFolder) throws -> (csv: String?, json: [String], stderr: String, status: Int32) {
        let csv = try runTapKit(["latency", folder.path, "--format", "csv"])
        let json = try runTapKit(["latency", folder.path, "--format", "json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let task = try #require((document["tasks"] as? [[String: Any]])?.first)
        #expect(csv.status == json.status)
        return (csvRows(csv.stdout).first?["flags"], try #require(task["flags"] as? [String]), csv.stderr, csv.status)
    }

    @Test func theFixturesAreNotFlagged() throws {
        let run = try runTapKit(["latency", fixtures, "--format", "json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let rows = try #require(document["tasks"] as? [[String: Any]]) + [try #require(document["overall"] as? [String: Any])]
        #expect(rows.allSatisfy { ($0["flags"] as? [String]) == [] }, "\(rows.map { $0["flags"] ?? "absent" })")
        let csv = try runTapKit(["latency", fixtures, "--format", "csv"])
        #expect(csvRows(csv.stdout).count == 5 && csvRows(csv.stdout).allSatisfy { $0["flags"] == "" })
        #expect(!csv.stderr.contains("warning"), "\(csv.stderr)")
    }

    @Test func aSilentRecordingIsFlaggedAndWarnedNamingItsFile() throws {
        let folder = try folder { samples in samples = [Float](repeating: 0, count: samples.count) }
        let result = try flags(folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.csv == "no onsets;under 50 % of touches matched")
        #expect(result.json == ["no onsets", "under 50 % of touches matched"])
        #expect(result.stderr.contains("warning: \(folder.file("001_01.wav")): task 001_01: no onsets"), "\(result.stderr)")
        #expect(result.stderr.contains("warning: \(folder.file("001_01.wav")): task 001_01: under 50 % of touches matched (0 of 11"), "\(result.stderr)")
    }

    @Test func touchesThatAlmostNeverFindAnOnsetAreFlagged() throws {
        // The fixture's touches (a tap every 0.5 s) a quarter of a second late: half-way between
        // two taps, beyond the latency search (−50…150 ms) from both, so (almost) none pairs.
        let late = try TimestampFile.read(fixtures + "/001_01.txt").map { String(format: "%.6f", $0 + 0.25) }.joined(separator: "\n")
        let folder = try folder(timestamps: late + "\n") { _ in }
        let result = try flags(folder)
        #expect(result.status == 0)
        #expect(result.json == ["under 50 % of touches matched"])
        #expect(result.stderr.contains("\(folder.file("001_01.wav")): task 001_01: under 50 % of touches matched"), "\(result.stderr)")
    }

    @Test func aClippedRecordingIsFlagged() throws {
        let folder = try folder { samples in samples = samples.map { max(-1, min(1, $0 * 4)) } }
        let result = try flags(folder)
        #expect(result.json.contains("clipped recording"), "\(result.json)")
        #expect(result.stderr.contains("task 001_01: clipped recording ("), "\(result.stderr)")
    }

    @Test func aRecordingShorterThanItsTimestampsIsFlagged() throws {
        let folder = try folder { samples in samples = Array(samples.prefix(44_100 * 4)) }
        let result = try flags(folder)
        #expect(result.status == 0)
        #expect(result.json.contains("recording shorter than its last timestamp"), "\(result.json)")
        #expect(result.stderr.contains("recording shorter than its last timestamp (recording 4.000 s"), "\(result.stderr)")
    }

    @Test func driftBeyondTheSearchRangeIsFlagged() {
        let touches = (0..<30).map { Double($0) }
        let pairs = touches.indices.map { MatchedPair(touchIndex: $0, onsetIndex: $0, touchTime: touches[$0], onsetTime: touches[$0] - 0.02) }
        func flags(ppm: Double) -> [QualityFlag] {
            let match = MatchResult(pairs: pairs, unmatchedTouchIndices: [], unmatchedOnsetIndices: [], latencyEstimate: 0.02,
                                    tolerance: 0.015, drift: ClockDrift(ppm: ppm, latencyAtZero: 0.02, standardError: 1))
            let onsets = touches.map { Onset(time: $0 - 0.02, frame: 0, peakTime: $0, strength: -20, snrDB: 30) }
            return QualityFlag.flags(touches: touches, detection: TapOnsetDetection(onsets: onsets, duration: 40), match: match,
                                     matching: .default)
        }
        #expect(flags(ppm: 120) == [])
        #expect(flags(ppm: -300) == [])
        #expect(flags(ppm: 301) == [.driftOutOfRange])
        #expect(flags(ppm: -1_500) == [.driftOutOfRange])
    }
}

/// Issue 11: what the folder holds besides tasks is named on stderr, and the play-order files
/// are read and checked against the tasks and the experiment's track list.
@Suite struct FolderCheckTests {
    let fixtures = packageRoot + "/Fixtures/data"

    /// `experiment/data` holding the fixture's user 1 (tracks 1 and 2) and `extra` files;
    /// `trackList` (file names) is written to `experiment/trackList.xml` when given. Its files
    /// are not written: runs with a track list switch stimulus bleed removal off, whose
    /// warnings about missing stimuli StimulusBleedCommandTests checks.
    func experiment(playOrder: String?, trackList: [String]? = nil, extra: [String: String] = [:]) throws -> (TemporaryFolder, String) {
        let root = TemporaryFolder()
        let data = root.file("data")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        for name in ["001_01.txt", "001_01.wav", "001_02.txt", "001_02.wav"] {
            try FileManager.default.copyItem(atPath: fixtures + "/" + name, toPath: data + "/" + name)
        }
        if let playOrder { try playOrder.write(toFile: data + "/001_play_order.txt", atomically: true, encoding: .utf8) }
        if let trackList { try TrackList.write(trackList, to: root.file("trackList.xml")) }
        for (name, text) in extra { try text.write(toFile: data + "/" + name, atomically: true, encoding: .utf8) }
        return (root, data)
    }

    @Test func skippedFilesAreListedWithWhy() throws {
        let (root, data) = try experiment(playOrder: "1 0 ", extra: ["P01_T01.wav": "x", "001_01.mp3": "x", "notes.md": "x",
                                                                   ".DS_Store": "x", "001_01.json": "{}"])
        _ = root
        let run = try runTapKit(["latency", data, "--format", "csv"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("warning: \(data)/P01_T01.wav: skipped: not named like a task"), "\(run.stderr)")
        #expect(run.stderr.contains("warning: \(data)/001_01.mp3: skipped: extension .mp3"), "\(run.stderr)")
        #expect(run.stderr.contains("note: \(data)/notes.md: skipped: not a Tap-It file"), "\(run.stderr)")
        #expect(run.stderr.contains("note: \(data)/.DS_Store: skipped: a hidden file"), "\(run.stderr)")
        #expect(run.stderr.contains("note: \(data)/001_01.json: skipped: the capture sidecar"), "\(run.stderr)")
    }

    @Test func aGoodPlayOrderGivesNoMessage() throws {
        let (root, data) = try experiment(playOrder: "1 0 ", trackList: ["a.wav", "b.wav", "c.wav"], extra: [:])
        _ = root
        let run = try runTapKit(["latency", data, "--format", "csv", "--stimulus-bleed", "off"])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
    }

    @Test func aMalformedPlayOrderIsAnErrorNamingFileAndLine() throws {
        let (root, data) = try experiment(playOrder: "1 0\nbanana\n")
        _ = root
        let run = try runTapKit(["latency", data, "--format", "csv"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("error: \(data)/001_play_order.txt:2: not a track index"), "\(run.stderr)")
        #expect(run.stdout.contains("\n001_01,") && run.stdout.contains("\n001_02,"), "the tasks are still analysed")
        let json = try runTapKit(["latency", data, "--format", "json"])
        #expect(json.status == 1 && json.stdout.contains("001_play_order.txt:2: not a track index"))
    }

    @Test func aTaskMissingFromThePlayOrderIsAnError() throws {
        let (root, data) = try experiment(playOrder: "1 ")
        _ = root
        let run = try runTapKit(["latency", data, "--format", "csv"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("error: \(data)/001_play_order.txt: track index 0 (task 001_01) is not in the play order"), "\(run.stderr)")
        #expect(run.stdout.contains("\n001_01,"))
    }

    @Test func indicesBeyondTheTrackListAreErrorsAndGapsAreWarnings() throws {
        let (root, data) = try experiment(playOrder: "1 0\n2 5\n", trackList: ["a.wav", "b.wav", "c.wav"])
        let run = try runTapKit(["latency", data, "--format", "csv", "--stimulus-bleed", "off"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("error: \(data)/001_play_order.txt:2: track index 5 is beyond the 3 tracks of"), "\(run.stderr)")
        #expect(run.stderr.contains("trackList.xml"), "\(run.stderr)")
        #expect(run.stderr.contains("warning: \(data)/001_play_order.txt:2: track index 2 was played but task 001_03 has no files here"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 2, "\(run.stderr)")
        _ = root
    }

    @Test func aUserWithoutPlayOrderIsWarnedAbout() throws {
        let (root, data) = try experiment(playOrder: nil)
        _ = root
        let run = try runTapKit(["latency", data, "--format", "csv"])
        #expect(run.status == 0)
        #expect(run.stderr.contains("warning: \(data)/001_play_order.txt: no such file: user 1 has tasks"), "\(run.stderr)")
    }
}
