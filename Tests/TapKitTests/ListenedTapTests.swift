import Foundation
import Testing
import TapKit
@testable import TapLatency
import TapTestSupport

/// End to end: the latency analysis of a file listens again where a touch finds no onset.
@Suite struct ListenedTapTests {
    /// Twenty loud taps 0.5 s apart from 1 s and a quiet one at 6.25 s (decaying noise bursts)
    /// over a noise whose level jumps ±6 dB every millisecond: the floor's spread raises the
    /// detector's threshold over the quiet tap's peak, the click probe's stays under it.
    static func recording() -> [Float] {
        let rate = 44_100.0, frames = Int(12 * rate)
        var random = SplitMix64(seed: 5)
        var gain = 1.0
        var samples = [Float](repeating: 0, count: frames)
        for index in 0..<frames {
            if index % 44 == 0 { gain = pow(10, random.uniform(-6.0...6.0) / 20) }
            samples[index] = Float(0.003 * gain * random.gaussian())
        }
        for (start, amplitude) in (0..<20).map({ (1.0 + 0.5 * Double($0), 30.0) }) + [(6.25, 3.5)] {
            let first = Int(start * rate)
            for offset in 0..<Int(0.1 * rate) {
                samples[first + offset] += Float(amplitude * 0.003 * exp(-Double(offset) / rate / 0.008) * random.gaussian())
            }
        }
        return samples
    }

    @Test func aTouchFindsItsQuietTapInTheFile() throws {
        let folder = NSTemporaryDirectory() + "tapkit-listened-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (audio, timestamps) = (folder + "/001_01.wav", folder + "/001_01.txt")
        try Signal(samples: Self.recording(), sampleRate: 44_100).write(to: audio)
        let times = ((0..<20).map { 1.0 + 0.5 * Double($0) } + [6.25]).sorted()
        let touches = times.enumerated().map { $0.element + 0.015 + 0.001 * Double($0.offset % 3) }
        try touches.map { String(format: "%.6f", $0) }.joined(separator: "\n")
            .write(toFile: timestamps, atomically: true, encoding: .utf8)
        // The detection hears nothing at the quiet tap, and its touch alone finds no onset.
        let detection = try detectTapOnsets(inFile: audio)
        #expect(!detection.allOnsets.contains { abs($0.time - 6.25) < 0.01 })
        let id = TaskID(user: 1, track: 1)
        #expect(analyzeLatency(id: id, touches: touches, detection: detection).match.pairs.count == 20)
        // The analysis of the file listens there, and pairs it.
        let task = try analyzeLatency(id: id, timestampsPath: timestamps, audioPath: audio)
        #expect(task.match.pairs.count == 21 && task.rescuedOnsets == 1)
        #expect(task.match.pairs.contains { abs($0.onsetTime - 6.25) < 0.001 })
    }

    /// After a stimulus file's subtraction nothing is listened for: the listen would hear the
    /// stimulus the subtraction took out. Where the file could not be subtracted, it is.
    @Test func noListenAfterAStimulusFilesSubtraction() throws {
        var detection = TapOnsetDetection(onsets: [])
        detection.stimulusBleed = StimulusBleedReport(status: .removed)
        #expect(tapListener(audioPath: "/nonexistent.wav", detection: detection, options: LatencyAnalysisOptions()) == nil)
        detection.stimulusBleed = StimulusBleedReport(status: .notReduced(reason: "too quiet"))
        let listen = try #require(tapListener(audioPath: "/nonexistent.wav", detection: detection, options: LatencyAnalysisOptions()))
        // A file that cannot be opened hears nothing.
        #expect(listen(1.0, 0.01).isEmpty)
    }
}
