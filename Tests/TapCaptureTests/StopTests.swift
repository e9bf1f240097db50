import Foundation
import Testing
import TapAudio
import TapCapture

/// A run that returns its report from a background thread.
final class BackgroundRun: @unchecked Sendable {  // `report` is written before `done` is signalled
    private let done = DispatchSemaphore(value: 0)
    private var outcome: Result<CaptureReport, any Error>?

    init(_ body: @escaping @Sendable () throws -> CaptureReport) {
        Thread {
            self.outcome = Result { try body() }
            self.done.signal()
        }.start()
    }

    func wait(seconds: Double) throws -> CaptureReport? {
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return try outcome?.get()
    }
}

extension JackTests {
    /// Ten seconds of stimulus with clicks at 0.1, 0.2 and 0.3 s, stopped after about 0.8 s.
    @Test func stoppingMidTaskLeavesValidFilesWithEverythingSoFar() throws {
        let server = try JackServerFixture(rate: 48_000, period: 128)
        let participant = try TestParticipant(serverName: server.name)
        let client = try JackClient(name: "capture", serverName: server.name)
        let capture = PlaybackCapture(client: client)
        let folder = NSTemporaryDirectory() + "tapcapture-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var stimulus = [Float](repeating: 0, count: 480_000)
        for frame in [4_800, 9_600, 14_400] { stimulus[frame] = 0.5 }
        let run = BackgroundRun { [stimulus] in
            try capture.run(stimulus: [stimulus], sampleRate: 48_000, recordingTo: folder + "/take.wav",
                            outputs: ["participant:in"], inputs: [],
                            midiInputs: ["participant:midi_out"], timestampsPath: folder + "/take.txt")
        }
        Thread.sleep(forTimeInterval: 0.8)
        capture.stop()
        let report = try #require(try run.wait(seconds: 10))
        _ = participant
        #expect(!report.completed)
        #expect(report.recordedFrames > 14_400 && report.recordedFrames < 240_000, "\(report.recordedFrames) frames")
        let recording = try AudioFileReader(path: folder + "/take.wav")
        #expect(recording.info.frameCount == report.recordedFrames)
        let taps = try String(contentsOfFile: folder + "/take.txt", encoding: .utf8)
        #expect(taps == [4_800, 9_600, 14_400].map { String(format: "%f\n", Double($0 + 128) / 48_000) }.joined())
    }

    @Test func theServerGoingAwayEndsTheRunWithValidFiles() throws {
        let server = try JackServerFixture(rate: 48_000, period: 128)
        let capture = PlaybackCapture(client: try JackClient(name: "capture", serverName: server.name))
        let folder = NSTemporaryDirectory() + "tapcapture-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = BackgroundRun {
            try capture.run(stimulus: [[Float](repeating: 0.1, count: 480_000)], sampleRate: 48_000,
                            recordingTo: folder + "/take.wav", outputs: [], inputs: [])
        }
        Thread.sleep(forTimeInterval: 0.6)
        server.kill()
        let report = try #require(try run.wait(seconds: 10))
        #expect(!report.completed)
        #expect(report.recordedFrames > 0)
        #expect(try AudioFileReader(path: folder + "/take.wav").info.frameCount == report.recordedFrames)
    }
}
