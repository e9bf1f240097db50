import Foundation
import Testing
import TapAudio
import TapCapture

extension JackTests {
    /// One-sample impulses at known frames.
    static let clickFrames = [4_800, 12_345, 30_001, 47_999]

    func stimulus(frames: Int) -> [Float] {
        var samples = [Float](repeating: 0, count: frames)
        for frame in Self.clickFrames { samples[frame] = 0.5 }
        return samples
    }

    func directory() -> String {
        let path = NSTemporaryDirectory() + "tapcapture-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test(arguments: [64, 128, 256])
    func recordingIsFrameLockedToPlayback(period: Int) throws {
        let server = try JackServerFixture(rate: 48_000, period: period)
        let client = try JackClient(name: "capture", serverName: server.name)
        let folder = directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Route the stimulus straight back into the input. jackd2 hands an input connected to a
        // single output that output's own buffer, so a client feeding itself reads, in the same
        // cycle, exactly what it wrote: the graph delay of this route is 0 frames, and every
        // click must come back at precisely the frame it was played.
        let report = try PlaybackCapture(client: client).run(
            stimulus: [stimulus(frames: 48_000)], sampleRate: 48_000, recordingTo: folder + "/take.wav",
            outputs: ["capture:in_1"], inputs: [], tailFrames: 1_000)
        #expect(report.recordedFrames == 49_000)
        #expect(report.droppedFrames == 0)
        let recording = try Signal(contentsOf: folder + "/take.wav")
        #expect(recording.frameCount == 49_000)
        let found = recording.samples.indices.filter { recording.samples[$0] > 0.25 }
        #expect(found == Self.clickFrames, "clicks recorded at \(found)")
        // Every cycle of the run was counted (xruns are reported, not failed on: a debug build on
        // a busy machine may miss a cycle).
        #expect(report.cycles == (49_000 + period - 1) / period)
    }
}

extension JackTests {
    @Test(arguments: [64, 128, 256])
    func midiTapsAreStampedToTheFrame(period: Int) throws {
        let server = try JackServerFixture(rate: 48_000, period: period)
        let participant = try TestParticipant(serverName: server.name)
        let client = try JackClient(name: "capture", serverName: server.name)
        let folder = directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let report = try PlaybackCapture(client: client).run(
            stimulus: [stimulus(frames: 48_000)], sampleRate: 48_000, recordingTo: folder + "/take.wav",
            outputs: ["participant:in"], inputs: [], midiInputs: ["participant:midi_out"],
            timestampsPath: folder + "/take.txt", tailFrames: 1_000)
        _ = participant
        // The participant hears each click in the cycle it is played and answers at the same
        // offset; its note reaches the capture client one cycle later (the two clients form a
        // loop, which JACK closes with one period of delay). So each tap is stamped at the
        // click's frame plus exactly one period.
        let expected = Self.clickFrames.map { Double($0 + period) / 48_000 }
        #expect(report.tapTimes == expected)
        let written = try String(contentsOfFile: folder + "/take.txt", encoding: .utf8)
        #expect(written == expected.map { String(format: "%f\n", $0) }.joined())
    }
}
