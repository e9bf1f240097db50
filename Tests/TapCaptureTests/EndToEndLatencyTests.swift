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

    /// The latency `tapkit latency` finds in a data folder: the per-pair latencies (ms), and
    /// the matched and logged taps. With stimulus-file removal on, as by default: the test
    /// participant's tap sound is the same burst at a fixed delay after every click, a linear
    /// response to the stimulus that the removal takes for bleed and subtracts; the analysis
    /// sees the touches left unmatched and falls back to the click grid, saying why.
    func analysedLatency(_ data: String) throws -> (latencies: [Double], matched: Int, touches: Int) {
        let result = try runTapKit(["latency", data, "--format", "json", "--pairs"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let task = try #require((json?["tasks"] as? [[String: Any]])?.first)
        let pairs = try #require(task["pairs"] as? [[String: Any]])
        let bleed = task["stimulus_bleed"] as? [String: Any]
        #expect(bleed?["status"] as? String == "fallback" && (bleed?["reason"] as? String)?.contains("fixed delay") == true,
                "\(String(describing: bleed))")
        return (pairs.compactMap { $0["latency_ms"] as? Double },
                try #require(task["n_matched"] as? Int), try #require(task["n_touches"] as? Int))
    }

    /// The median, and the spread as 1.4826 × the median absolute deviation (the SD of a normal
    /// distribution): statistics a few scheduling outliers on a busy machine cannot move.
    func robust(_ values: [Double]) -> (median: Double, spread: Double) {
        func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            guard !sorted.isEmpty else { return .nan }
            return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
        let centre = median(values)
        return (centre, 1.4826 * median(values.map { abs($0 - centre) }))
    }

    /// The end-to-end test: the participant taps (a sound into the recorded input) and
    /// presses a key 30 ms after each tap sound reaches the recorder; `tapkit run --keyboard`
    /// stamps the keys when it reads them; `tapkit latency` on the written folder must recover
    /// the participant's latency within 1 ms. The participant is a thread on a shared machine
    /// and sometimes presses late; the latency it really gave (its write returning, on the
    /// JACK clock) is the reference. tapkit stamps a key when its reader thread wakes, which on
    /// a machine whose other core is busy is now and then milliseconds after the write: the
    /// medians are compared, which such outliers cannot move (a mean moved 2.5 ms under load).
    @Test func keyboardLatencyIsRecoveredEndToEnd() throws {
        let server = try JackServerFixture(rate: 48_000, period: 128)
        let folder = try jitteredClickExperiment()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let keys = Pipe()
        let participant = try TestParticipant(serverName: server.name, responder: .init(
            kind: .keyPress, fileDescriptor: keys.fileHandleForWriting.fileDescriptor, delay: 0.030))
        let run = try runTapKit(["run", folder, "--user", "3", "--no-prompt", "--keyboard", "--server", server.name,
                                 "--playback", "participant:in", "--input", "participant:out"], input: keys)
        let given = participant.responseDelays
        #expect(run.status == 0, "\(run.stderr)")
        let sidecar = try JSONDecoder().decode(TaskSidecar.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/data/003_01.json")))
        #expect(sidecar.tapInput == "keyboard" && sidecar.completed)
        let latency = try analysedLatency(folder + "/data")
        let analysed = robust(latency.latencies), givenMedian = robust(given.map { $0 * 1_000 }).median
        // The capture's xruns too: beside three busy loops on both cores a run logged 121–228
        // and still recovered the latency within 0.07 ms, but one run under heavier load gave
        // a median 2 ms early (session 35), and another 2.7 ms early with a spread of 4.0 ms
        // and 331 xruns (session 38: a busy loop, a release build and two corpus evaluations
        // beside `make test` on two cores; with both cores running busy loops alone, three
        // runs passed within 0.03 ms). Cause not found; this line says what it saw.
        print("keyboard path, 30 ms set, median \(givenMedian) ms given: analysed median \(analysed.median) ms, "
              + "spread \(analysed.spread) ms, \(latency.matched)/\(latency.touches) matched, \(sidecar.xruns) xruns")
        // Every key is logged, and matched but for a few: a key pressed or read more than 20 ms
        // off the others (the matching's least tolerance) is an outlier matching leaves unpaired
        // by design, and on a busy machine the participant's thread or tapkit's reader now and
        // then wakes that late (26 of 28 matched once in a full `make test`, 28 of 28 alone).
        #expect(latency.touches >= 27 && given.count == latency.touches)
        #expect(10 * latency.matched >= 9 * latency.touches, "\(latency.matched) of \(latency.touches) touches matched")
        #expect(abs(analysed.median - givenMedian) <= 1, "analysed \(analysed.median) ms, given \(givenMedian) ms")
        #expect(abs(givenMedian - 30) <= 5, "the participant itself was \(givenMedian - 30) ms late (median)")
    }

    /// Input-device taps carry the kernel's event time: written into a FIFO as Linux input
    /// events stamped 12 ms after each tap sound reached the recorder, they must come out
    /// 12 ms late, with next to no jitter, however late they are read. Judged by the median and
    /// the MAD-based spread: the frame clock's estimate for an event can be off when every JACK
    /// cycle in its 1 s window ran late on a busy machine (an SD of 0.317 ms was seen), and such
    /// outliers must not fail the test.
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
                                 "--playback", "participant:in", "--input", "participant:out"])
        _ = participant
        #expect(run.status == 0, "\(run.stderr)")
        let latency = try analysedLatency(folder + "/data")
        let analysed = robust(latency.latencies)
        print("input-device path, 12 ms set: median \(analysed.median) ms, spread \(analysed.spread) ms, "
              + "\(latency.matched)/\(latency.touches) matched")
        // Every touch is logged, and matched but for a few: once in a full `make test` on a
        // fresh clone (2026-11-28) 27 of 28 were matched, the 27 at 11.999 ms with a spread of
        // 0.003 ms, so one touch or its tap sound was lost to the load, not the time of the
        // others (not reproduced since: 12 runs alone with stress-ng on the other core, 5 full
        // runs of the suite).
        // As for the keyboard path, at least nine in ten must match; the time is judged below.
        #expect(latency.touches >= 27)
        #expect(10 * latency.matched >= 9 * latency.touches, "\(latency.matched) of \(latency.touches) touches matched")
        #expect(abs(analysed.median - 12) <= 0.5, "median latency \(analysed.median) ms")
        #expect(analysed.spread <= 0.3, "spread \(analysed.spread) ms")
    }
}
