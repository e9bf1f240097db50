import Foundation
import Testing
import TapTestSupport

@Suite struct TempoCommandTests {
    func file(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "tapkit-tempo-\(UUID().uuidString).txt"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The reading after every tap of a file, as JSON: `bpm` null before the first interval.
    @Test func readsTapTimesFromAFile() throws {
        let path = try file("0.0\n0.5\n1.0\n1.5\n2.0\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try runTapKit(["tempo", "--from", path, "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        // An object carrying the run's provenance, the rows under "readings" (0.10.0: a bare array).
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let tapkit = try #require(document["tapkit"] as? [String: Any])
        #expect(tapkit["estimator"] as? String == "tapkit" && tapkit["preset"] is NSNull && tapkit["version"] is String)
        #expect(document["file"] as? String == path)
        let rows = try #require(document["readings"] as? [[String: Any]])
        #expect(rows.count == 5)
        #expect(rows[0]["bpm"] is NSNull && rows[0]["taps_used"] as? Int == 1)
        #expect(rows[1...].allSatisfy { abs(($0["bpm"] as? Double ?? 0) - 120) < 1e-6 })
        #expect(rows.last?["taps_used"] as? Int == 5 && rows.last?["reset"] as? Bool == false)
        let csv = try runTapKit(["tempo", "--from", path, "--format", "csv", "--estimator", "classic"])
        #expect(csv.stdout.hasPrefix("time,bpm,taps_used,reset,confidence\n0.000000,,1,false,0.00\n0.500000,120.00,2,false,0.00\n"))
    }

    /// Bad input is named with its file and line, and nothing is printed as a tempo.
    @Test(arguments: [
        ("", "no taps"),
        ("1.0\n", "one tap; a tempo needs at least two"),
        ("0.0\nabc\n", ":2: not a number"),
        ("0.0\n0.5\n0.5\n", ":3: time 0.5 repeats the line before"),
        ("1.0\n0.5\n", ":2: timestamp 0.5 is earlier than 1.0"),
    ])
    func badFilesAreNamed(text: String, message: String) throws {
        let path = try file(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try runTapKit(["tempo", "--from", path])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains(path) && run.stderr.contains(message), "\(run.stderr)")
    }

    /// The noise TapKit's estimator assumes can be set for a noisier person: a tap 100 ms late
    /// at 120 BPM is held back under the default assumptions and kept under twice the noise.
    /// Out-of-range values are refused.
    @Test func assumedNoise() throws {
        let path = try file((0...9).map { String(Double($0) * 0.5) }.joined(separator: "\n") + "\n5.1\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let typical = try runTapKit(["tempo", "--from", path, "--format", "csv"])
        #expect(typical.status == 0 && typical.stdout.contains("5.100000,120.00,10,false"), "\(typical.stdout)")
        let noisy = try runTapKit(["tempo", "--from", path, "--format", "csv", "--timer-cv", "0.05", "--motor-sd", "0.02"])
        #expect(noisy.status == 0 && noisy.stdout.contains("5.100000,118.19,11,false"), "\(noisy.stdout)")
        let refused = try runTapKit(["tempo", "--from", path, "--timer-cv", "0"])
        #expect(refused.status != 0 && refused.stderr.contains("--timer-cv must lie within 0.001–0.2"), "\(refused.stderr)")
    }

    /// The maintainers' report behind Docs/tap-tempo.md runs and compares TapKit with the
    /// baselines, condition by condition.
    @Test func evaluationReport() throws {
        let run = try runTapKit(["tempo-report", "--trials", "50", "--tempos", "120", "--comparison-only"], binary: tapkitBenchBinary)
        #expect(run.status == 0, "\(run.stderr)")
        for condition in ["steady", "mis-taps", "skips", "switch ×2", "switch ×½", "switch ×1.3", "switch ×0.77"] {
            #expect(run.stdout.contains("| 120 | \(condition) |"), "\(condition)")
        }
    }

    /// A recording's tap onsets give the tempo that its logged touch times give.
    @Test func tapsFromAudio() throws {
        let audio = try runTapKit(["tempo", "--from-audio", packageRoot + "/Fixtures/data/001_01.wav", "--format", "csv"])
        let logged = try runTapKit(["tempo", "--from", packageRoot + "/Fixtures/data/001_01.txt", "--format", "csv"])
        let onsets = try runTapKit(["onsets", packageRoot + "/Fixtures/data/001_01.wav", "--format", "csv"])
        #expect(audio.status == 0 && logged.status == 0, "\(audio.stderr)\(logged.stderr)")
        let audioRows = audio.stdout.split(separator: "\n").dropFirst(), loggedRows = logged.stdout.split(separator: "\n").dropFirst()
        #expect(audioRows.count == onsets.stdout.split(separator: "\n").count - 1)
        let last = { (rows: ArraySlice<Substring>) in Double(rows.last!.split(separator: ",", omittingEmptySubsequences: false)[1])! }
        #expect(abs(last(audioRows) - last(loggedRows)) < 2, "\(last(audioRows)) vs \(last(loggedRows))")
    }

    /// Interactive: each key a tap on the monotonic clock; r resets, q quits; the last
    /// reading goes to stdout. The writer's own sleeps and tapkit's reads both stretch on a busy
    /// machine, so the expected tempo is the writer's measured median interval, read with the
    /// median estimator (which uses every tap) and a 10 % margin for read delays.
    @Test func keysAreTaps() throws {
        for reset in [false, true] {
            let input = Pipe()
            let writes = WriteTimes()
            let writer = Thread {
                for _ in 0..<6 {
                    input.fileHandleForWriting.write(Data(" ".utf8))
                    writes.record()
                    Thread.sleep(forTimeInterval: 0.3)
                }
                if reset { input.fileHandleForWriting.write(Data("r".utf8)) }
                Thread.sleep(forTimeInterval: 0.1)
                input.fileHandleForWriting.write(Data("q".utf8))
            }
            writer.start()
            let run = try runTapKit(["tempo", "--estimator", "median"], input: input)
            #expect(run.status == 0, "\(run.stderr)")
            if reset {
                #expect(run.stdout.hasPrefix("bpm=\ntaps_used=0\n"), "\(run.stdout)")
            } else {
                let expected = 60 / writes.medianInterval
                let bpm = run.stdout.split(separator: "\n").first.flatMap { Double($0.dropFirst(4)) }
                #expect(bpm.map { abs($0 - expected) < 0.1 * expected } == true, "\(run.stdout), writer's tempo \(expected)")
                #expect(run.stdout.contains("taps_used=6"), "\(run.stdout)")
            }
        }
    }
}

/// When a test's writer thread wrote each key (monotonic clock, seconds).
private final class WriteTimes: @unchecked Sendable {
    private let lock = NSLock()
    private var times: [Double] = []

    func record() {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        lock.lock()
        times.append(Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)
        lock.unlock()
    }

    var medianInterval: Double {
        lock.lock()
        defer { lock.unlock() }
        let intervals = zip(times.dropFirst(), times).map { $0 - $1 }.sorted()
        return intervals.isEmpty ? .nan : intervals[intervals.count / 2]
    }
}
