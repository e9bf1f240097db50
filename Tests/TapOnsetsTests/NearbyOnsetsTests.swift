import Foundation
import Testing
import TapAudio
@testable import TapOnsets

/// Listening again around an instant hears a tap the detection's threshold let pass, timed in
/// the recording.
@Suite struct NearbyOnsetsTests {
    /// Sixteen loud taps 0.5 s apart from 1 s in white noise and one at 0.3 s, and at 5.25 s
    /// one whose peak stands about 4 dB over the noise: under the detector's 6 dB threshold,
    /// over the click probe's 3 dB.
    func recording(at path: String) throws {
        let rate = 44_100.0, frames = Int(10 * rate)
        var signal = syntheticTaps(starts: [Int(0.3 * rate)] + (0..<16).map { Int((1.0 + 0.5 * Double($0)) * rate) }, amplitude: 30, frames: frames)
        let quiet = syntheticTaps(starts: [Int(5.25 * rate)], amplitude: 1.4, frames: frames, seed: 7)
        let noise = syntheticTaps(starts: [], amplitude: 0, frames: frames, seed: 7)
        for k in signal.samples.indices { signal.samples[k] += quiet.samples[k] - noise.samples[k] }
        try signal.write(to: path, format: .wavFloat)
    }

    @Test func aTapUnderTheThresholdIsHeardWhenListenedFor() throws {
        let path = NSTemporaryDirectory() + "tapkit-nearby-\(UUID().uuidString).wav"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try recording(at: path)
        let detection = try detectTapOnsets(inFile: path)
        #expect(!detection.allOnsets.contains { abs($0.time - 5.25) < 0.01 })
        let nearby = try NearbyOnsets(path: path)
        let heard = try nearby.onsets(near: 5.25, within: 0.01)
        #expect(heard.count == 1)
        let quiet = try #require(heard.first)
        #expect(abs(quiet.time - 5.25) < 0.001)
        #expect(quiet.frame == Int((quiet.time * 44_100).rounded()) && quiet.peakTime >= quiet.time)
        #expect(quiet.features != nil)
        // A loud tap is timed as the detection times it; where nothing sounds, nothing is heard.
        let loud = try #require(try nearby.onsets(near: 3.0, within: 0.01).first)
        let detected = try #require(detection.onsets.first { abs($0.time - 3.0) < 0.01 })
        #expect(abs(loud.time - detected.time) < 0.0005)
        #expect(try nearby.onsets(near: 5.45, within: 0.01).isEmpty)
        // Near the start and the end the stretch is cut at the recording's edges; past the end,
        // or at no instant, nothing is heard.
        let early = try nearby.onsets(near: 0.3, within: 0.01)
        #expect(early.count == 1 && abs((early.first?.time ?? 0) - 0.3) < 0.001)
        #expect(try nearby.onsets(near: 9.95, within: 0.01).isEmpty)
        #expect(try nearby.onsets(near: 10.2, within: 0.5).isEmpty)
        #expect(try nearby.onsets(near: .nan, within: 0.01).isEmpty)
    }
}
