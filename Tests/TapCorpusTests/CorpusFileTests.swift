import Foundation
import Testing
import TapSim
@testable import TapCorpus

@Suite struct CorpusFileTests {
    func temporaryDirectory() -> String {
        NSTemporaryDirectory() + "tapcorpus-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    @Test func aCorpusDirectoryReadsBack() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let renderer = CorpusRenderer(base: shortBase(seconds: 4))
        let written = try CorpusDirectory.render(to: directory, seed: 3, itemsPerSplit: 1, conditions: [.baseline, .beep],
                                                 renderer: renderer)
        let read = try CorpusDirectory.readManifest(directory)
        #expect(read == written)
        #expect(read.map(\.item) == ["baseline-dev-1", "baseline-held-1", "beep-dev-1", "beep-held-1"])
        #expect(read.filter { !$0.stimulus.isEmpty }.map(\.item) == ["beep-dev-1", "beep-held-1"])
        let rendered = try renderer.render(CorpusItem(condition: .beep, split: .held, index: 1, corpusSeed: 3))
        let taps = try CorpusDirectory.readTimes(directory + "/beep-held-1.taps.csv")
        #expect(taps.count == rendered.tapTimes.count)
        for (a, b) in zip(taps, rendered.tapTimes) { #expect(abs(a - b) <= 5e-7) }
        let events = try CorpusDirectory.readEvents(directory + "/beep-held-1.events.csv")
        #expect(events.map(\.kind) == rendered.events.map(\.kind))
        #expect(FileManager.default.fileExists(atPath: directory + "/beep-held-1.stimulus.wav"))
        #expect(FileManager.default.fileExists(atPath: directory + "/versions.txt"))
        // No temporary files are left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).allSatisfy { !$0.hasPrefix(".tmp-") })
        // A directory with files is refused unless told to overwrite.
        #expect(throws: CorpusError.directoryNotEmpty(path: directory)) {
            try CorpusDirectory.render(to: directory, seed: 3, itemsPerSplit: 1, conditions: [.baseline], renderer: renderer)
        }
        try CorpusDirectory.render(to: directory, seed: 3, itemsPerSplit: 1, conditions: [.baseline], renderer: renderer,
                                   overwrite: true)
    }

    @Test func matchingIsOneOnsetPerTapNearestFirst() {
        let taps = [1.0, 2.0, 3.0]
        let onsets = [0.995, 1.003, 2.02, 2.993, 3.009]
        let pairs = CorpusScoring.match(taps: taps, onsets: onsets)
        #expect(pairs.map(\.tap) == [0, 2])
        #expect(pairs.map(\.onset) == [1, 3])  // 1.003 (3 ms) beats 0.995 (5 ms); 2.993 beats 3.009
        // Greedy by distance: an onset between two taps goes to the nearer one.
        #expect(CorpusScoring.match(taps: [1.0, 1.012], onsets: [1.007]).map(\.tap) == [1])
    }

    @Test func scoresCountHitsAndExplainFalseOnsets() throws {
        let entry = ManifestEntry(split: .held, condition: .keyboard, item: "keyboard-held-1", audio: "a.wav", taps: "a.taps.csv",
                                  stimulus: "", events: "a.events.csv", seed: 1, sampleRate: 48_000, duration: 10,
                                  processingDelayMS: nil, notes: "")
        let events = [CorpusEvent(time: 1.5, kind: "key-press", duration: 0.02)]
        let score = CorpusScoring.score(entry: entry, taps: [1.0, 2.0, 3.0], onsets: [1.001, 1.06, 1.51, 2.02, 2.7, 3.0],
                                        events: events)
        #expect(score.hits == 2 && score.onsets == 6 && score.taps == 3)
        #expect(score.falseOnsetCauses == ["tap-decay": 1, "key-press": 1, "late": 1, "unexplained": 1])
        #expect(abs(score.precision - 2.0 / 6) < 1e-12 && abs(score.recall - 2.0 / 3) < 1e-12)
        #expect(score.timingErrorsMS.count == 2 && abs(score.timingErrorsMS[0] - 1) < 1e-9)
        let groups = CorpusScoring.summarize([score], conditions: ["keyboard"])
        #expect(groups.map(\.condition) == ["keyboard", "all"])
        #expect(groups[0].worstItem == "keyboard-held-1")
    }

    @Test func touchesCarryTheTruthTapSimLogged() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Enough taps for missed, spurious and silent touches to occur.
        var base = shortBase(seconds: 20)
        base.missedTouchProbability = 0.1
        base.spuriousTouchProbability = 0.1
        base.silentTapProbability = 0.1
        let renderer = CorpusRenderer(base: base)
        let item = CorpusItem(condition: .baseline, split: .dev, index: 1, corpusSeed: 5)
        let rendered = try renderer.render(item)
        let task = simulateTask(user: item.split.user, track: item.index, configuration: item.condition.simulation(base: base),
                                seed: item.seed)
        // The touches are the app's log, and the truth's latency is TapSim's own.
        #expect(rendered.touches.map(\.time) == task.truth.touches)
        #expect(rendered.touches.contains { $0.tapStart == nil } && rendered.touches.contains { $0.tapStart != nil && !$0.audible })
        let truth = try #require(CorpusTouch.trueLatency(rendered.touches))
        #expect(abs(truth.mean - task.truth.trueLatencyMean!) < 1e-12)
        #expect(abs(truth.sd! - task.truth.trueLatencySD!) < 1e-12)
        // Written and read back: times to the microsecond, latencies to the nanosecond.
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let entry = try CorpusDirectory.write(rendered, to: directory)
        #expect(entry.touches == "baseline-dev-1.touches.csv")
        let read = try CorpusDirectory.readTouches(directory + "/" + entry.touches)
        #expect(read.count == rendered.touches.count)
        for (a, b) in zip(read, rendered.touches) {
            #expect(a.time == b.time && a.audible == b.audible && (a.tapStart == nil) == (b.tapStart == nil))
            if let x = a.latency, let y = b.latency { #expect(abs(x - y) <= 5e-10) } else { #expect(a.latency == nil && b.latency == nil) }
        }
        let reread = try #require(CorpusTouch.trueLatency(read))
        #expect(abs(reread.mean - truth.mean) < 1e-9 && abs(reread.sd! - truth.sd!) < 1e-9)
    }

    @Test func aManifestWithoutTouchesStillReads() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // As `corpus render` wrote it before touches (session 15).
        try Data(("split,condition,item,audio,taps,stimulus,events,seed,sample_rate,duration,processing_delay_ms,notes\n"
                  + "dev,baseline,baseline-dev-1,baseline-dev-1.wav,baseline-dev-1.taps.csv,,baseline-dev-1.events.csv,7,48000,20.000000,,\n").utf8)
            .write(to: URL(fileURLWithPath: directory + "/manifest.csv"))
        let entries = try CorpusDirectory.readManifest(directory)
        #expect(entries.count == 1 && entries[0].touches.isEmpty)
        // A touches file with a bad line is named with its line.
        try Data("time,tap_start,latency,audible\n1.0,0.98,0.02,true\n2.0,,,maybe\n".utf8)
            .write(to: URL(fileURLWithPath: directory + "/t.csv"))
        #expect(throws: CorpusError.badFile(path: directory + "/t.csv", line: 3, reason: "audible must be true or false, not 'maybe'")) {
            try CorpusDirectory.readTouches(directory + "/t.csv")
        }
    }

    @Test func latencyScoresCountPairedOnsetsAndLatencyErrors() {
        let entry = ManifestEntry(split: .dev, condition: .speech, item: "speech-dev-1", audio: "a.wav", taps: "a.taps.csv",
                                  stimulus: "", events: "", seed: 1, sampleRate: 48_000, duration: 10,
                                  processingDelayMS: nil, notes: "")
        let touches = [CorpusTouch(time: 1.02, tapStart: 1.0, latency: 0.020, audible: true),
                       CorpusTouch(time: 2.03, tapStart: 2.0, latency: 0.030, audible: true),
                       CorpusTouch(time: 2.5, tapStart: nil, latency: nil, audible: false),
                       CorpusTouch(time: 3.04, tapStart: 3.0, latency: 0.040, audible: false)]
        // Taps at 1 and 2 s hit; a syllable at 2.49 s paired with the spurious touch.
        let score = CorpusLatencyScoring.score(entry: entry, taps: [1.0, 2.0], touches: touches, onsets: [1.0001, 2.0002, 2.49],
                                               pairs: [(1.0001, 1.02), (2.0002, 2.03), (2.49, 2.5)], estimated: (0.0252, 0.0072))
        #expect(score.hits == 2 && score.matched == 3 && score.matchedOnTaps == 2)
        #expect(score.wrongPairs == 1 && score.tapsLeftOut == 0)
        #expect(abs(score.precision - 2.0 / 3) < 1e-12 && score.recall == 1)
        // The truth: mean 25 ms and SD 7.071 ms over the two audible taps' touches.
        #expect(abs(score.meanErrorMS! - 0.2) < 1e-9)
        #expect(abs(score.sdErrorMS! - (7.2 - 50.0.squareRoot())) < 1e-9)
        #expect(score.latencyWithinBound)
        let missed = CorpusLatencyScoring.score(entry: entry, taps: [1.0, 2.0], touches: touches, onsets: [], pairs: [],
                                                estimated: nil)
        #expect(missed.recall == 0 && missed.precision == 1 && !missed.latencyWithinBound)
        #expect(missed.wrongPairs == 0 && missed.tapsLeftOut == 2)
        // A tap's onset paired with the next tap's touch is a wrong pair, and leaves its tap out.
        let crossed = CorpusLatencyScoring.score(entry: entry, taps: [1.0, 2.0], touches: touches, onsets: [1.0001, 2.0002],
                                                 pairs: [(1.0001, 1.02), (2.0002, 2.5)], estimated: (0.01, 0.01))
        #expect(crossed.matchedOnTaps == 2 && crossed.wrongPairs == 1 && crossed.tapsLeftOut == 1)
        let groups = CorpusLatencyScoring.summarize([score, missed], conditions: ["speech"])
        #expect(groups.map(\.condition) == ["speech", "all"])
        #expect(groups[0].itemsWithinBound == 1 && groups[0].worstItem == "speech-dev-1" && groups[0].recall == 0.5)
        #expect(abs(groups[0].worstMeanErrorMS! - 0.2) < 1e-9)
    }
}
