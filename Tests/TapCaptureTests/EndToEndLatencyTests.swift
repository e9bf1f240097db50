import Foundation
import Testing
import TapAudio
import TapCapture
import TapData
import TapTestSupport

extension JackTests {
    /// An experiment with one mono stimulus: clicks every 0.5 s, jittered by up to ±40 ms
    /// (seeded) so that the participant's taps are not machine-exact periodic, which the
    /// analysis would take for metronome bleed.
    func jitteredClickExperiment(seconds: Int = 15) throws -> String {
        let folder = NSTemporaryDirectory() + "tapkit-experiment-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var random = SplitMix64(seed: 42)
        var samples = [Float](repeating: 0, count: seconds * 48_000)
        var time = 0.5
        while time < Double(seconds) - 0.5 {
            samples[Int(time * 48_000)] = 0.5
            time += 0.5 + (Double(random.next() % 81) - 40) / 1_000
        }
        try Signal(samples: samples, sampleRate: 48_000).write(to: folder + "/clicks.wav", format: .wavFloat)
        try TrackList.write(["clicks.wav"], to: folder + "/trackList.xml")
        return folder
    }

    /// The latency `tapkit latency` finds in a data folder: (mean, SD, matched taps).
    func analysedLatency(_ data: String) throws -> (mean: Double, sd: Double, matched: Int, touches: Int) {
        let result = try runTapKit(["latency", data, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let task = try #require((json?["tasks"] as? [[String: Any]])?.first)
        return (try #require(task["mean_ms"] as? Double), try #require(task["sd_ms"] as? Double),
                try #require(task["n_matched"] as? Int), try #require(task["n_touches"] as? Int))
    }

    /// The end-to-end test: the participant taps (a sound into the recorded input) and
    /// presses a key 30 ms after each tap sound reaches the recorder; `tapkit run --keyboard`
    /// stamps the keys when it reads them; `tapkit latency` on the written folder must recover
    /// the participant's latency within 1 ms. The participant is a thread on a shared machine
    /// and sometimes presses late; the latency it really gave (its write returning, on the
    /// JACK clock) is the reference.
    @Test func keyboardLatencyIsRecoveredEndToEnd() throws {
        let server = try JackServerFixture(rate: 48_000, period: 128)
        let folder = try jitteredClickExperiment()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let keys = Pipe()
        let participant = try TestParticipant(serverName: server.name, responder: .init(
            kind: .keyPress, fileDescriptor: keys.fileHandleForWriting.fileDescriptor, delay: 0.030))
        let run = try runTapKit(["run", folder, "--user", "3", "--no-prompt", "--keyboard", "--server", server.name,
                                 "--output", "participant:in", "--input", "participant:out"], input: keys)
        let given = participant.responseDelays
        #expect(run.status == 0, "\(run.stderr)")
        let sidecar = try JSONDecoder().decode(TaskSidecar.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/data/003_01.json")))
        #expect(sidecar.tapInput == "keyboard" && sidecar.completed)
        let latency = try analysedLatency(folder + "/data")
        let givenMean = given.reduce(0, +) / Double(max(given.count, 1)) * 1_000
        print("keyboard path, 30 ms set, \(givenMean) ms given: analysed mean \(latency.mean) ms, SD \(latency.sd) ms, "
              + "\(latency.matched)/\(latency.touches) matched")
        #expect(latency.touches >= 27 && latency.matched == latency.touches && given.count == latency.touches)
        #expect(abs(latency.mean - givenMean) <= 1, "analysed \(latency.mean) ms, given \(givenMean) ms")
        #expect(abs(givenMean - 30) <= 5, "the participant itself was \(givenMean - 30) ms late on average")
    }

    /// Input-device taps carry the kernel's event time: written into a FIFO as Linux input
    /// events stamped 12 ms after each tap sound reached the recorder, they must come out
    /// 12 ms late, with next to no jitter, however late they are read.
    @Test func inputDeviceTapsKeepTheirKernelTime() throws {
        let server = try JackServerFixture(rate: 48_000, period: 128)
        let folder = try jitteredClickExperiment()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fifo = folder + "/event0"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Opened read-write, the FIFO takes events before tapkit opens its read end.
        let writer = open(fifo, O_RDWR)
        try #require(writer >= 0)
        defer { close(writer) }
        let participant = try TestParticipant(serverName: server.name, responder: .init(kind: .inputEvent, fileDescriptor: writer, delay: 0.012))
        let run = try runTapKit(["run", folder, "--user", "4", "--no-prompt", "--input-device", fifo, "--server", server.name,
                                 "--output", "participant:in", "--input", "participant:out"])
        _ = participant
        #expect(run.status == 0, "\(run.stderr)")
        let latency = try analysedLatency(folder + "/data")
        print("input-device path, 12 ms set: mean \(latency.mean) ms, SD \(latency.sd) ms, \(latency.matched)/\(latency.touches) matched")
        #expect(latency.touches >= 27 && latency.matched == latency.touches)
        #expect(abs(latency.mean - 12) <= 0.5, "mean latency \(latency.mean) ms")
        #expect(latency.sd <= 0.3, "SD \(latency.sd) ms")
    }
}
