import Foundation
import Testing
import TapAudio
import TapCapture
import TapData
import TapTestSupport

/// The sidecar as plain JSON, so fields can be checked by name.
func sidecarJSON(_ path: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
}


extension JackTests {
    /// An experiment of `tracks` stimuli, each 10 s of a steady 0.1 (wav float, 48 kHz).
    func longExperiment(tracks: Int = 2) throws -> String {
        let folder = NSTemporaryDirectory() + "tapkit-experiment-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let names = (1...tracks).map { "long\($0).wav" }
        for name in names {
            try Signal(samples: [Float](repeating: 0.1, count: 480_000), sampleRate: 48_000).write(to: folder + "/" + name, format: .wavFloat)
        }
        try TrackList.write(names, to: folder + "/trackList.xml")
        return folder
    }

    /// SIGTERM and SIGHUP (the terminal closed) end the task as Ctrl-C does: exit 1, valid
    /// files holding what was recorded, the sidecar `completed: false`, no later task started.
    @Test(arguments: [SIGTERM, SIGHUP])
    func aSignalEndsTheTaskWithValidFilesMarkedIncomplete(signal: Int32) throws {
        let server = try JackServerFixture(rate: 48_000, period: 128)
        let folder = try longExperiment()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try BackgroundTapKit(["run", folder, "--user", "3", "--no-prompt", "--server", server.name,
                                        "--input", "system:capture_1"])
        // Half a second recorded: the session is running, whatever the machine's load.
        let recording = run.waitFor(folder + "/data/003_01.wav", bytes: 44 + 48_000)
        kill(run.process.processIdentifier, signal)
        let (status, stderr) = run.finish()
        #expect(recording, "\(stderr)")
        #expect(status == 1, "\(stderr)")
        let sidecar = try sidecarJSON(folder + "/data/003_01.json")
        #expect(sidecar["completed"] as? Bool == false)
        #expect((sidecar["stop_reason"] as? String)?.contains(signal == SIGHUP ? "SIGHUP" : "SIGTERM") == true, "\(sidecar)")
        let frames = try AudioFileReader(path: folder + "/data/003_01.wav").info.frameCount
        #expect(frames >= 24_000 && frames < 528_000, "\(frames) frames")
        #expect(!FileManager.default.fileExists(atPath: folder + "/data/003_02.wav"))
    }

    /// SIGKILL cannot be caught, but the recording's header is kept up to date as it grows:
    /// killed after at least 2 s were written, the WAV reads with at least 1.5 s, its header
    /// at most one write behind its data, and the sidecar written when the task began says the
    /// task did not end.
    @Test func sigkillLeavesAValidRecording() throws {
        let server = try JackServerFixture(rate: 48_000, period: 128)
        let folder = try longExperiment(tracks: 1)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let wav = folder + "/data/004_01.wav"
        let run = try BackgroundTapKit(["run", folder, "--user", "4", "--no-prompt", "--server", server.name,
                                        "--input", "system:capture_1"])
        let recording = run.waitFor(wav, bytes: 44 + 2 * 96_000)
        kill(run.process.processIdentifier, SIGKILL)
        let (status, stderr) = run.finish()
        #expect(recording, "\(stderr)")
        #expect(status == nil)
        // What the header itself says (libsndfile would guess a length from the file's size).
        let header = try #require(WAVHeader(path: wav))
        #expect(header.dataFrames >= 72_000, "\(header)")
        #expect(header.framesInFile - header.dataFrames <= 8_192, "\(header)")
        #expect(try AudioFileReader(path: wav).info.frameCount >= header.dataFrames)
        let sidecar = try sidecarJSON(folder + "/data/004_01.json")
        #expect(sidecar["completed"] as? Bool == false)
        #expect(sidecar["stop_reason"] is String, "\(sidecar)")
    }

    /// A write that fails part-way (here: a file-size limit, EFBIG, the same path as a full
    /// disk) ends the task: the recording holds what was written, with a valid header, and the
    /// sidecar says it is incomplete and why; the session stops with an error naming the file.
    @Test func aFailingWriteStillLeavesASidecarThatSaysWhy() throws {
        let server = try JackServerFixture(rate: 48_000, period: 128)
        let folder = try longExperiment()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let wav = folder + "/data/005_01.wav"
        // 300 000 bytes: about 3 s of 16-bit mono at 48 kHz; the stimulus plays 10 s.
        let run = try BackgroundTapKit(["run", folder, "--user", "5", "--no-prompt", "--server", server.name,
                                        "--input", "system:capture_1"],
                                       launcher: ["/usr/bin/prlimit", "--fsize=300000"])
        let (status, stderr) = run.finish()
        #expect(status == 1, "\(stderr)")
        #expect(stderr.contains(wav) && stderr.contains("File too large"), "\(stderr)")
        let sidecar = try sidecarJSON(folder + "/data/005_01.json")
        #expect(sidecar["completed"] as? Bool == false)
        #expect((sidecar["stop_reason"] as? String)?.contains("File too large") == true, "\(sidecar)")
        let header = try #require(WAVHeader(path: wav))
        #expect(header.dataFrames > 96_000 && header.dataFrames == header.framesInFile, "\(header)")
        #expect(try AudioFileReader(path: wav).info.frameCount == header.dataFrames)
        #expect(!FileManager.default.fileExists(atPath: folder + "/data/005_02.wav"))
    }

    /// A real full disk: the data folder on a 400 kB tmpfs in a mount namespace of its own
    /// (needs root; skipped otherwise). Same outcome as above, with ENOSPC.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")))
    func aFullDiskStillLeavesASidecarThatSaysWhy() throws {
        let server = try JackServerFixture(rate: 48_000, period: 128)
        let folder = try longExperiment()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let mount = folder + "/small"
        let copy = folder + "/copy"
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        let script = """
            mount -t tmpfs -o size=400k tmpfs "$1" || exit 99
            "$2" run "$3" --user 6 --no-prompt --server "$4" --input system:capture_1 --data "$1/data"
            echo $? > "$5.status"
            cp -r "$1/data" "$5"
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["--mount", "--propagation", "private", "sh", "-c", script, "sh",
                             mount, tapkitBinary, folder, server.name, copy]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus != 99 else { return }  // no tmpfs here (a container without CAP_SYS_ADMIN)
        #expect(try String(contentsOfFile: copy + ".status", encoding: .utf8) == "1\n", "\(stderr)")
        #expect(stderr.contains(mount + "/data/006_01.wav") && stderr.contains("No space left on device"), "\(stderr)")
        let sidecar = try sidecarJSON(copy + "/006_01.json")
        #expect(sidecar["completed"] as? Bool == false)
        #expect((sidecar["stop_reason"] as? String)?.contains("No space left on device") == true, "\(sidecar)")
        let header = try #require(WAVHeader(path: copy + "/006_01.wav"))
        #expect(header.dataFrames > 48_000 && header.dataFrames == header.framesInFile, "\(header)")
        #expect(try AudioFileReader(path: copy + "/006_01.wav").info.frameCount == header.dataFrames)
    }

    /// A session with no input port and no tap input would record nothing: refused as a usage
    /// error before anything is touched (no server needed).
    @Test func runRefusesASessionThatRecordsNothing() throws {
        let (folder, _) = try experiment()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try runTapKit(["run", folder, "--user", "11", "--no-prompt", "--server", "tapkit-absent"])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("--input") && run.stderr.contains("--midi-input"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/data"))
    }

    /// An input at digital silence (the dummy driver's capture port delivers zeros) is warned
    /// about once, during the first task, and the session goes on; an input with a noise floor
    /// (the test participant) gives no warning.
    @Test func runWarnsWhenTheInputIsDigitalSilence() throws {
        let server = try JackServerFixture(rate: 48_000, period: 128)
        let participant = try TestParticipant(serverName: server.name)
        let (folder, _) = try experiment()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let silent = try runTapKit(["run", folder, "--user", "12", "--no-prompt", "--server", server.name,
                                    "--input", "system:capture_1"])
        #expect(silent.status == 0, "\(silent.stderr)")
        #expect(silent.stderr.components(separatedBy: "digital silence").count == 2, "\(silent.stderr)")
        #expect(silent.stderr.contains("system:capture_1"), "\(silent.stderr)")
        #expect(try AudioFileReader(path: folder + "/data/012_02.wav").info.frameCount == 96_000)
        let heard = try runTapKit(["run", folder, "--user", "13", "--no-prompt", "--server", server.name,
                                   "--input", "participant:out", "--playback", "participant:in"])
        _ = participant
        #expect(heard.status == 0, "\(heard.stderr)")
        #expect(!heard.stderr.contains("silence"), "\(heard.stderr)")
    }
}
