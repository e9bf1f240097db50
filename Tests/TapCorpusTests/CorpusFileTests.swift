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
}
