import Foundation
import Testing
import TapKit
import TapTestSupport

/// Issue 11's defects, each reproduced: corrupt samples and headers, files that are not
/// regular files, numbers a lax parser misreads, and outputs that would destroy what is there.
@Suite struct HostileInputTests {
    let fixtures = packageRoot + "/Fixtures/data"

    /// The fixture recording as 32-bit float samples, with `change` applied.
    func floatWAV(_ path: String, _ change: (inout [Float]) -> Void = { _ in }) throws {
        var samples = try Signal(contentsOf: fixtures + "/001_01.wav", channel: .channel(0))
        change(&samples.samples)
        try samples.write(to: path, format: .wavFloat)
    }

    /// A canonical 44-byte WAV header followed by `data`, with the given fields.
    func rawWAV(rate: UInt32 = 48_000, channels: UInt16 = 1, bits: UInt16 = 16, dataSize: UInt32? = nil, data: Data) -> Data {
        var header = Data()
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { header.append(contentsOf: $0) } }
        let size = dataSize ?? UInt32(data.count)
        header.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36) &+ size)
        header.append(contentsOf: Array("WAVEfmt ".utf8)); append(UInt32(16)); append(UInt16(1)); append(channels)
        append(rate); append(rate &* UInt32(channels) &* UInt32(2)); append(channels &* 2); append(bits)
        header.append(contentsOf: Array("data".utf8)); append(size)
        return header + data
    }

    func pcm(seconds: Double, rate: Double = 48_000) -> Data {
        var data = Data(count: Int(seconds * rate) * 2)
        data.withUnsafeMutableBytes { bytes in
            let samples = bytes.bindMemory(to: Int16.self)
            for index in samples.indices { samples[index] = Int16(truncatingIfNeeded: (index * 7_919) % 600 - 300) }
        }
        return data
    }

    // MARK: Samples

    @Test(arguments: [("NaN", Float.nan), ("infinite", Float.infinity), ("beyond", Float(3.4e38))])
    func corruptSamplesAreRefusedNamingTheFrame(_ kind: String, _ value: Float) throws {
        let folder = TemporaryFolder()
        try floatWAV(folder.file("bad.wav")) { $0[12_345] = value }
        do {
            _ = try Signal(contentsOf: folder.file("bad.wav"))
            Issue.record("a \(kind) sample was read")
        } catch {
            guard case .invalidSample(_, let frame, _, let read) = error else { Issue.record("\(error)"); return }
            #expect(frame == 12_345 && (read.isNaN ? value.isNaN : read == value))
        }
        let run = try runTapKit(["onsets", folder.file("bad.wav"), fixtures + "/001_01.wav", "--format", "csv"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("bad.wav: frame 12345 (0.28 s) holds"), "\(run.stderr)")
        // The good file given with it is still analysed.
        #expect(run.stdout.split(separator: "\n").count > 5, "\(run.stdout)")
    }

    @Test func aCorruptRecordingDoesNotLoseTheBatch() throws {
        let folder = TemporaryFolder()
        for name in ["001_01.txt", "001_01.wav"] {
            try FileManager.default.copyItem(atPath: fixtures + "/" + name, toPath: folder.file(name))
        }
        try FileManager.default.copyItem(atPath: fixtures + "/001_01.txt", toPath: folder.file("002_01.txt"))
        try floatWAV(folder.file("002_01.wav")) { $0[1_000] = .nan }
        let run = try runTapKit(["latency", folder.path, "--format", "json"])
        #expect(run.status == 1)
        let json = try JSONDecoder().decode(LatencyJSON.self, from: Data(run.stdout.utf8))
        #expect(json.tasks.first { $0.task == "001_01" }?.n_matched == 11)
        #expect(json.errors.contains { $0.file.hasSuffix("002_01.wav") && $0.message.contains("NaN") })
    }

    @Test func theDetectorSurvivesNonFiniteSamplesHandedToItDirectly() throws {
        var signal = try Signal(contentsOf: fixtures + "/001_01.wav")
        for index in stride(from: 1_000, to: signal.samples.count, by: 9_973) { signal.samples[index] = index % 2 == 0 ? .nan : 3.4e38 }
        // It used to trap (Int(NaN) in the sliding quantile); now it returns, with finite times.
        let detection = detectTapOnsets(in: signal)
        #expect(detection.onsets.allSatisfy { $0.time.isFinite && $0.time >= 0 && $0.time <= signal.duration })
    }

    // MARK: Headers

    @Test(arguments: [
        (1 as UInt32, 1 as UInt16, 16 as UInt16, "sample rate 1 Hz"),
        (100, 1, 16, "sample rate 100 Hz"),
        (2_000_000_000, 1, 16, "sample rate 2000000000 Hz"),
        (48_000, 1_024, 16, "1024 channels"),
        (48_000, 1, 7, "a sample width of 7 bits"),
    ])
    func implausibleHeadersAreRefused(rate: UInt32, channels: UInt16, bits: UInt16, reason: String) throws {
        let folder = TemporaryFolder()
        try rawWAV(rate: rate, channels: channels, bits: bits, data: pcm(seconds: 2)).write(to: URL(fileURLWithPath: folder.file("x.wav")))
        let run = try runTapKit(["onsets", folder.file("x.wav")])
        #expect(run.status == 1)
        #expect(run.stderr.contains("x.wav: implausible audio header: \(reason)"), "\(run.stderr)")
    }

    @Test func aDataSizeSmallerThanTheAudioIsRefused() throws {
        let folder = TemporaryFolder()
        let data = pcm(seconds: 4)
        try rawWAV(dataSize: UInt32(data.count / 2), data: data).write(to: URL(fileURLWithPath: folder.file("x.wav")))
        let run = try runTapKit(["onsets", folder.file("x.wav")])
        #expect(run.status == 1 && run.stderr.contains("the data size covers"), "\(run.stderr)")
    }

    // MARK: Not regular files

    @Test func fifosAndDevicesAreRefusedNotWaitedOn() throws {
        let folder = TemporaryFolder()
        #expect(mkfifo(folder.file("001_01.wav"), 0o600) == 0)
        try FileManager.default.copyItem(atPath: fixtures + "/001_01.txt", toPath: folder.file("001_01.txt"))
        for name in ["002_01.txt", "002_01.wav"] {
            try FileManager.default.copyItem(atPath: fixtures + "/" + name.replacingOccurrences(of: "002", with: "001"), toPath: folder.file(name))
        }
        let latency = try runTapKit(["latency", folder.path, "--format", "csv"])
        #expect(latency.status == 1)
        #expect(latency.stderr.contains("001_01.wav: cannot read: is a FIFO (named pipe), not a regular file"), "\(latency.stderr)")
        #expect(latency.stdout.contains("002_01"))
        let tempo = try runTapKit(["tempo", "--from", "/dev/zero"])
        #expect(tempo.status == 1 && tempo.stderr.contains("/dev/zero: cannot read: is a character device"), "\(tempo.stderr)")
        try FileManager.default.createSymbolicLink(atPath: folder.file("loop.txt"), withDestinationPath: folder.file("loop.txt"))
        let loop = try runTapKit(["tempo", "--from", folder.file("loop.txt")])
        #expect(loop.status == 1 && loop.stderr.contains("symbolic link loop"), "\(loop.stderr)")
    }

    // MARK: Numbers

    @Test(arguments: ["2\u{0}9.0", "0x1p1", "+2.5", "inf", "nan", "1e999", "٣", "2.5 ", " ", "1,5", "--1", "1e", ".", "-"])
    func laxNumbersAreRefused(_ text: String) {
        #expect(NumberGrammar.decimal(text) == nil)
    }

    @Test(arguments: [("12", 12.0), ("0.835918", 0.835918), ("-3.5", -3.5), (".5", 0.5), ("5.", 5), ("2e-3", 0.002), ("1E+2", 100), ("-0", 0)])
    func decimalNumbersAreRead(_ text: String, _ value: Double) {
        #expect(NumberGrammar.decimal(text) == value)
        #expect(NumberGrammar.decimal(text)?.sign == value.sign)
    }

    @Test func aNulByteInATimestampIsAnErrorNotATruncation() throws {
        let folder = TemporaryFolder()
        try Data("0.5\n1.0\n2\u{0}9.0\n".utf8).write(to: URL(fileURLWithPath: folder.file("t.txt")))
        #expect(throws: TapDataError.self) { _ = try TimestampFile.read(folder.file("t.txt")) }
        let run = try runTapKit(["tempo", "--from", folder.file("t.txt")])
        #expect(run.status == 1 && run.stderr.contains("t.txt:3: not a number"), "\(run.stderr)")
    }

    @Test func laxCommandLineNumbersAndMetersAreUsageErrors() throws {
        for arguments in [["onsets", fixtures + "/001_01.wav", "--threshold-db", "inf"],
                          ["tempo", "--from", fixtures + "/001_01.txt", "--max-bpm", "0x1p8"],
                          ["metronome", "render", "--bpm", "120", "--meter", "4//4", "--bars", "1", "-o", "/tmp/never.wav"],
                          ["metronome", "render", "--bpm", "+120", "--bars", "1", "-o", "/tmp/never.wav"]] {
            let run = try runTapKit(arguments)
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
        }
        let folder = TemporaryFolder()
        try "tempo 120\nmeter 4//4\nbars 2\n".write(toFile: folder.file("p.txt"), atomically: true, encoding: .utf8)
        let run = try runTapKit(["metronome", "render", "--program", folder.file("p.txt"), "-o", folder.file("p.wav")])
        #expect(run.status == 2 && run.stderr.contains("p.txt:2:"), "\(run.stderr)")
    }

    @Test func tempoReadingsStayFiniteAndWithinTheRange() throws {
        let folder = TemporaryFolder()
        try "1\n1.0000000000000002\n2\n2.1\n".write(toFile: folder.file("t.txt"), atomically: true, encoding: .utf8)
        for estimator in ["tapkit", "classic", "median", "interquartile-mean"] {
            let run = try runTapKit(["tempo", "--from", folder.file("t.txt"), "--format", "json", "--estimator", estimator, "--max-bpm", "300"])
            #expect(run.status == 0, "\(run.stderr)")
            let document = try #require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(estimator): \(run.stdout)")
            let rows = try #require(document["readings"] as? [[String: Any]], "\(estimator): \(run.stdout)")
            #expect(rows.count == 4, "\(estimator)")
            for row in rows {
                if let bpm = row["bpm"] as? Double { #expect(bpm.isFinite && bpm <= 300 && bpm >= 30, "\(estimator): \(bpm)") }
            }
        }
    }

    @Test func aHugeMutedRangeIsRefusedBeforeAllocating() throws {
        let folder = TemporaryFolder()
        let sections = String(repeating: "bars 1000000\n", count: 200)
        try ("tempo 120\n" + sections + "mute 1-200000000\n").write(toFile: folder.file("p.txt"), atomically: true, encoding: .utf8)
        let run = try runTapKit(["metronome", "render", "--program", folder.file("p.txt"), "-o", folder.file("p.wav")])
        #expect(run.status == 2 && run.stderr.contains("p.txt:"), "\(run.stderr)")
        #expect(run.stderr.contains("20000000"), "\(run.stderr)")
    }

    // MARK: Outputs

    @Test func outputsNeverDestroyWhatIsThere() throws {
        let folder = TemporaryFolder()
        let render = ["metronome", "render", "--bpm", "120", "--bars", "2"]
        try FileManager.default.createDirectory(atPath: folder.file("p/sub"), withIntermediateDirectories: true)
        var run = try runTapKit(render + ["-o", folder.file("c.wav"), "--onsets", folder.file("p")])
        #expect(run.status == 1 && run.stderr.contains("p: is a directory"), "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.file("p/sub")) && !FileManager.default.fileExists(atPath: folder.file("c.wav")))
        run = try runTapKit(render + ["-o", folder.file("p.wav"), "--overwrite"])
        #expect(run.status == 0, "\(run.stderr)")
        try FileManager.default.removeItem(atPath: folder.file("p.wav"))
        try FileManager.default.createDirectory(atPath: folder.file("p.wav/sub"), withIntermediateDirectories: true)
        run = try runTapKit(render + ["-o", folder.file("p.wav"), "--overwrite"])
        #expect(run.status == 1 && run.stderr.contains("p.wav: is a directory"), "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.file("p.wav/sub")))
        run = try runTapKit(render + ["-o", folder.file("x.wav"), "--onsets", folder.file("x.wav")])
        #expect(run.status == 1 && run.stderr.contains("two outputs"), "\(run.stderr)")
        run = try runTapKit(render + ["-o", folder.file("c.wav")])
        #expect(run.status == 0, "\(run.stderr)")
        let first = try Data(contentsOf: URL(fileURLWithPath: folder.file("c.wav")))
        run = try runTapKit(["metronome", "render", "--bpm", "90", "--bars", "2", "-o", folder.file("c.wav")])
        #expect(run.status == 1 && run.stderr.contains("c.wav: exists; give --overwrite"), "\(run.stderr)")
        let kept = try Data(contentsOf: URL(fileURLWithPath: folder.file("c.wav")))
        #expect(kept == first)
        run = try runTapKit(["metronome", "render", "--bpm", "90", "--bars", "2", "-o", folder.file("c.wav"), "--overwrite"])
        let replaced = try Data(contentsOf: URL(fileURLWithPath: folder.file("c.wav")))
        #expect(run.status == 0 && replaced != first)
        // A sound file given as an input is never the output, even with --overwrite.
        run = try runTapKit(render + ["--beat-sound", folder.file("c.wav"), "-o", folder.file("./c.wav"), "--overwrite"])
        #expect(run.status == 1 && run.stderr.contains("c.wav: is also the input"), "\(run.stderr)")
        run = try runTapKit(["resample", folder.file("c.wav"), "-o", folder.file("c.wav"), "--rate", "44100", "--overwrite"])
        #expect(run.status == 1 && run.stderr.contains("c.wav: is also an input"), "\(run.stderr)")
        run = try runTapKit(["resample", folder.file("c.wav"), "-o", folder.file("d.wav"), "--rate", "44100"])
        run = try runTapKit(["resample", folder.file("c.wav"), "-o", folder.file("d.wav"), "--rate", "44100"])
        #expect(run.status == 1 && run.stderr.contains("d.wav: exists"), "\(run.stderr)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".partial") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func simulateDoesNotWriteIntoAFolderWithData() throws {
        let folder = TemporaryFolder()
        for name in ["001_01.txt", "001_01.wav"] {
            try FileManager.default.copyItem(atPath: fixtures + "/" + name, toPath: folder.file(name))
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: folder.file("001_01.wav")))
        let run = try runTapKit(["simulate", folder.path, "--duration", "5"])
        #expect(run.status == 1 && run.stderr.contains("give --overwrite"), "\(run.stderr)")
        let after = try Data(contentsOf: URL(fileURLWithPath: folder.file("001_01.wav")))
        #expect(after == before)
    }

    // MARK: Folders

    /// A folder whose name is not UTF-8 (Latin-1 "café") is analysed; messages show the name
    /// with the invalid byte replaced, as a terminal would.
    @Test func aFolderNamedInLatin1IsAnalysed() throws {
        let parent = TemporaryFolder()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // Swift strings cannot hold the byte 0xE9 alone: the shell makes the name.
        process.arguments = ["-c", """
            set -e; d="$(printf '%s/caf\\351' "$1")"; mkdir "$d"; cp "$2"/001_01.* "$d"/
            "$3" latency "$d" --format csv
            """, "sh", parent.path, fixtures, tapkitBinary]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(stdout.contains("001_01,11,11"), "\(stdout)")
        #expect(!stderr.contains("/proc/self/fd") && !stdout.contains("/proc/self/fd"))
        // The folder really has the Latin-1 byte in its name.
        let names = try FileManager.default.contentsOfDirectory(atPath: parent.path)
        #expect(names.count == 1 && names[0].hasPrefix("caf") && names[0] != "caf\\351", "\(names)")
    }

    /// A folder that cannot be read still gives a JSON document naming the failure.
    @Test func anUnreadableFolderStillGivesAJSONDocument() throws {
        let run = try runTapKit(["latency", "/nonexistent-tapkit-folder", "--format", "json"])
        #expect(run.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
        let errors = try #require(json["errors"] as? [[String: Any]])
        #expect(errors.first?["file"] as? String == "/nonexistent-tapkit-folder")
        #expect((json["tasks"] as? [Any])?.isEmpty == true && json["tapkit"] != nil)
    }
}
