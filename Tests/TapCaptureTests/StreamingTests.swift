import Foundation
import Testing
import TapAudio
import TapCapture
import TapData
import TapTestSupport

extension JackTests {
    /// Seeded noise, one array per channel.
    func noise(frames: Int, channels: Int, seed: UInt64) -> [[Float]] {
        var random = SplitMix64(seed: seed)
        return (0..<channels).map { _ in
            (0..<frames).map { _ in Float(Int(random.next() % 20_001) - 10_000) / 40_000 }
        }
    }

    /// A 60 s stereo stimulus streamed from disk at period 128, routed back into the input:
    /// the recording must equal the left channel sample for sample (to 16-bit precision), with
    /// nothing dropped and nothing late. Xruns are reported, not failed on: a loaded machine
    /// may miss a cycle, and the dummy driver then still delivers every frame.
    @Test func sixtySecondsStreamedAtPeriod128() throws {
        let server = try JackServerFixture(rate: 48_000, period: 128)
        let client = try JackClient(name: "capture", serverName: server.name)
        let folder = directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let channels = noise(frames: 60 * 48_000, channels: 2, seed: 7)
        try writeStereo(channels, to: folder + "/long.wav")
        let report = try PlaybackCapture(client: client).run(
            try Stimulus.file(folder + "/long.wav"), recordingTo: folder + "/take.wav",
            outputs: ["capture:in_1"], inputs: [])
        print("60 s at period 128: \(report.xruns) xrun(s), \(report.droppedFrames) dropped, "
              + "\(report.stimulusUnderrunFrames) stimulus frames late")
        #expect(report.completed && report.recordedFrames == 60 * 48_000)
        #expect(report.droppedFrames == 0 && report.stimulusUnderrunFrames == 0)
        #expect(report.cycles == 60 * 48_000 / 128)
        let recording = try Signal(contentsOf: folder + "/take.wav")
        let worst = zip(recording.samples, channels[0]).map { abs($0 - $1) }.max() ?? 1
        #expect(recording.frameCount == 60 * 48_000)
        #expect(worst <= 1.0 / 32_768, "largest difference \(worst)")
    }

    func writeStereo(_ channels: [[Float]], to path: String) throws {
        let writer = try AudioFileWriter(path: path, format: .wavFloat, sampleRate: 48_000, channelCount: channels.count)
        var interleaved = [Float](repeating: 0, count: channels[0].count * channels.count)
        for (channel, samples) in channels.enumerated() {
            for (frame, sample) in samples.enumerated() { interleaved[frame * channels.count + channel] = sample }
        }
        try interleaved.withUnsafeBufferPointer { try writer.write(interleaved: $0) }
        try writer.close()
    }

    /// A 44.1 kHz stimulus on a 48 kHz server is converted while it plays: a click at input
    /// frame 147·m (time m/300 s) must peak at output frame 160·m, exactly where that time
    /// falls, and the run lasts the converted length.
    @Test func aStimulusAtAnotherRateIsConvertedOnTheClock() throws {
        let server = try JackServerFixture(rate: 48_000, period: 128)
        let client = try JackClient(name: "capture", serverName: server.name)
        let folder = directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let multiples = [30, 100, 250, 299]
        var samples = [Float](repeating: 0, count: 44_100)
        for m in multiples { samples[147 * m] = 0.5 }
        try Signal(samples: samples, sampleRate: 44_100).write(to: folder + "/cd.wav", format: .wavFloat)
        let stimulus = try Stimulus.file(folder + "/cd.wav")
        #expect(stimulus.frameCount(atRate: 48_000) == 48_000)
        let report = try PlaybackCapture(client: client).run(stimulus, recordingTo: folder + "/take.flac",
                                                             outputs: ["capture:in_1"], inputs: [])
        #expect(report.completed && report.recordedFrames == 48_000)
        let recording = try Signal(contentsOf: folder + "/take.flac")
        for m in multiples {
            let window = (160 * m - 100)..<(160 * m + 100)
            let peak = window.max { abs(recording.samples[$0]) < abs(recording.samples[$1]) }
            #expect(peak == 160 * m, "click \(m) peaks at \(peak ?? -1)")
        }
    }

    /// `--keep-previous` moves the earlier session of this user into previous-1, intact.
    @Test func keepPreviousKeepsBothSessions() throws {
        let server = try JackServerFixture(rate: 48_000, period: 128)
        let participant = try TestParticipant(serverName: server.name)
        let (folder, _) = try experiment()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arguments = ["run", folder, "--user", "5", "--no-prompt", "--server", server.name,
                         "--playback", "participant:in", "--midi-input", "participant:midi_out"]
        #expect(try runTapKit(arguments).status == 0)
        // A file of this user from an older, longer track list goes with the rest.
        try Data("1.0\n".utf8).write(to: URL(fileURLWithPath: folder + "/data/005_03.txt"))
        let first = try Data(contentsOf: URL(fileURLWithPath: folder + "/data/005_01.wav"))
        let second = try runTapKit(arguments + ["--keep-previous"])
        _ = participant
        #expect(second.status == 0, "\(second.stderr)")
        let moved = try FileManager.default.contentsOfDirectory(atPath: folder + "/data/previous-1").sorted()
        #expect(moved == ["005_01.json", "005_01.txt", "005_01.wav", "005_02.json", "005_02.txt", "005_02.wav",
                          "005_03.txt", "005_play_order.txt"])
        #expect(!FileManager.default.fileExists(atPath: folder + "/data/005_03.txt"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/data/previous-1/005_01.wav")) == first)
        #expect(FileManager.default.fileExists(atPath: folder + "/data/005_01.wav"))
        let both = try runTapKit(["run", folder, "--user", "5", "--no-prompt", "--server", server.name, "--overwrite", "--keep-previous",
                                  "--midi-input", "participant:midi_out"])
        #expect(both.status == 2)
        // --overwrite deletes every file of this user first, the stray one included.
        try Data("1.0\n".utf8).write(to: URL(fileURLWithPath: folder + "/data/005_03.txt"))
        #expect(try runTapKit(arguments + ["--overwrite"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: folder + "/data/005_03.txt"))
        #expect(FileManager.default.fileExists(atPath: folder + "/data/005_02.wav"))
    }

    /// Ctrl-C at the prompt before the first task ends the session there: exit status 1,
    /// no task file written.
    @Test func ctrlCAtThePromptEndsTheSession() throws {
        let server = try JackServerFixture()
        let (folder, _) = try experiment()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tapkitBinary)
        process.arguments = ["run", folder, "--user", "6", "--server", server.name, "--input", "system:capture_1"]
        let input = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardError = errors
        try process.run()
        Thread.sleep(forTimeInterval: 1)
        process.interrupt()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!process.isRunning, "still waiting at the prompt after Ctrl-C")
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 1)
        #expect(stderr.contains("press Enter") && stderr.contains("stopped after 0 complete task"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/data/006_01.wav"))
    }

    /// A stimulus that is missing is named before anything is written.
    @Test func aMissingStimulusIsNamedBeforeAnythingIsWritten() throws {
        let server = try JackServerFixture()
        let (folder, _) = try experiment()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.removeItem(atPath: folder + "/click2.wav")
        let run = try runTapKit(["run", folder, "--user", "1", "--no-prompt", "--server", server.name, "--input", "system:capture_1"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("click2.wav"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/data"))
    }
}
