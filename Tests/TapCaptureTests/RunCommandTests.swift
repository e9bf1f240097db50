import Foundation
import Testing
import TapAudio
import TapCapture
import TapData
import TapTestSupport

extension JackTests {
    /// An experiment folder with two 1 s click stimuli at 48 kHz and its track list.
    func experiment() throws -> (folder: String, clicks: [[Int]]) {
        let folder = NSTemporaryDirectory() + "tapkit-experiment-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let clicks = [[4_800, 24_000], [9_600, 33_333]]
        for (index, frames) in clicks.enumerated() {
            var samples = [Float](repeating: 0, count: 48_000)
            for frame in frames { samples[frame] = 0.5 }
            try Signal(samples: samples, sampleRate: 48_000).write(to: folder + "/click\(index + 1).wav", format: .wavFloat)
        }
        try TrackList.write(["click1.wav", "click2.wav"], to: folder + "/trackList.xml")
        return (folder, clicks)
    }

    @Test func runWritesATapItDataFolderAndNeverOverwrites() throws {
        let server = try JackServerFixture(rate: 48_000, period: 128)
        let participant = try TestParticipant(serverName: server.name)
        let (folder, clicks) = try experiment()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arguments = ["run", folder, "--user", "7", "--no-prompt", "--server", server.name,
                         "--playback", "participant:in", "--midi-input", "participant:midi_out", "--input", "system:capture_1"]
        let first = try runTapKit(arguments)
        _ = participant
        #expect(first.status == 0, "\(first.stderr)")
        let data = folder + "/data"
        #expect(try PlayOrderFile.read(data + "/007_play_order.txt") == [0, 1])
        for (index, frames) in clicks.enumerated() {
            let id = TaskID(user: 7, track: index + 1)
            let taps = try TimestampFile.read(data + "/" + id.timestampsFileName)
            #expect(taps.map { ($0 * 48_000).rounded() } == frames.map { Double($0 + 128) })
            let recording = try AudioFileReader(path: data + "/" + id.audioFileName())
            #expect(recording.info.frameCount == 48_000 + 48_000)  // stimulus + 1 s tail
            let sidecar = try JSONDecoder().decode(TaskSidecar.self, from: Data(contentsOf: URL(fileURLWithPath: data + "/" + id.description + ".json")))
            #expect(sidecar.completed && sidecar.sampleRate == 48_000 && sidecar.periodFrames == 128)
            #expect(sidecar.stimulus == "click\(index + 1).wav")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: data + "/007_01.txt"))
        let second = try runTapKit(arguments)
        #expect(second.status == 1)
        #expect(second.stderr.contains("exist already") && second.stderr.contains("--overwrite"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: data + "/007_01.txt")) == before)
    }

    /// The bundled example experiment runs as the README shows, into a data folder of the
    /// user's choosing (the repository stays clean), and its recordings last as long as the
    /// stimuli plus the 1 s tail.
    @Test func theBundledExperimentRuns() throws {
        let server = try JackServerFixture(rate: 48_000, period: 256)
        let participant = try TestParticipant(serverName: server.name)
        let data = NSTemporaryDirectory() + "tapkit-example-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: data) }
        let experiment = packageRoot + "/Fixtures/experiment"
        let run = try runTapKit(["run", experiment, "--user", "1", "--data", data, "--no-prompt", "--server", server.name,
                                 "--playback", "participant:in", "--midi-input", "participant:midi_out", "--input", "participant:out"])
        _ = participant
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: experiment + "/data"))
        for (track, stimulus) in try TrackList.read(experiment + "/trackList.xml").enumerated() {
            let stimulusFrames = try AudioFileReader(path: experiment + "/" + stimulus).info.frameCount
            let recording = try AudioFileReader(path: data + "/" + TaskID(user: 1, track: track + 1).audioFileName())
            #expect(recording.info.frameCount == stimulusFrames + 48_000, "\(stimulus)")
        }
    }

    @Test func randomizedOrderIsReproducibleFromTheUser() {
        let a = playOrder(trackCount: 12, user: 3, randomize: true)
        #expect(a == playOrder(trackCount: 12, user: 3, randomize: true))
        #expect(a != playOrder(trackCount: 12, user: 4, randomize: true))
        #expect(a.sorted() == Array(0..<12) && a != Array(0..<12))
        #expect(playOrder(trackCount: 12, user: 3, randomize: false) == Array(0..<12))
    }

    @Test func runNamesAMissingPortAndAMissingServer() throws {
        let server = try JackServerFixture()
        let (folder, _) = try experiment()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let missingPort = try runTapKit(["run", folder, "--user", "1", "--no-prompt", "--server", server.name, "--input", "nobody:mic"])
        #expect(missingPort.status == 1 && missingPort.stderr.contains("nobody:mic"))
        let noServer = try runTapKit(["run", folder, "--user", "1", "--no-prompt", "--server", "tapkit-absent-\(UUID().uuidString.prefix(6))",
                                      "--input", "system:capture_1"])
        #expect(noServer.status == 1 && noServer.stderr.contains("no JACK server"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/data"))
    }
}

extension JackTests {
    @Test func ctrlCEndsTheTaskWithValidFilesMarkedIncomplete() throws {
        let server = try JackServerFixture(rate: 48_000, period: 128)
        let folder = NSTemporaryDirectory() + "tapkit-experiment-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Signal(samples: [Float](repeating: 0.1, count: 480_000), sampleRate: 48_000)
            .write(to: folder + "/long.wav", format: .wavFloat)
        try TrackList.write(["long.wav"], to: folder + "/trackList.xml")

        let run = try BackgroundTapKit(["run", folder, "--user", "2", "--no-prompt", "--server", server.name,
                                        "--input", "system:capture_1"])
        // Half a second recorded: the session is running, whatever the machine's load.
        let recording = run.waitFor(folder + "/data/002_01.wav", bytes: 44 + 48_000)
        run.process.interrupt()  // SIGINT, as Ctrl-C
        let (status, stderr) = run.finish()
        #expect(recording, "\(stderr)")
        #expect(status == 1, "\(stderr)")
        let sidecar = try JSONDecoder().decode(TaskSidecar.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/data/002_01.json")))
        #expect(!sidecar.completed)
        let frames = try AudioFileReader(path: folder + "/data/002_01.wav").info.frameCount
        #expect(frames > 0 && frames < 480_000, "\(frames) frames")
    }
}
