import Foundation
import Testing
@testable import TapOnsets
import TapAudio

/// A tap tens of milliseconds before a loud metronome beep (taps come before the beat): the
/// beep is not the tap's decay. Its tail is read up to the beep's start, heard or subtracted
/// (`OnsetDetector.measure`), so the tap scores as one instead of as a sustained sound.
struct TapBeforeABeepTests {
    static let rate = 44_100.0
    static let beeps = (0..<32).map { 1.0 + 0.6 * Double($0) }
    /// Taps 25 ms before every other beep from the fifth on; the others are heard alone.
    static let taps = beeps.indices.filter { $0 >= 4 && $0 % 2 == 0 }.map { beeps[$0] - 0.025 }

    /// 600 Hz beeps of 50 ms (2 ms raised-cosine ramps) at `beepAmplitude`, noise-burst taps
    /// (6 ms decay) peaking near 0.1, and a faint white noise.
    static func recording(beepAmplitude: Double) -> Signal {
        let frames = Int(21 * rate)
        var random = TestRandom(state: 5)
        var samples = (0..<frames).map { _ in Float(0.0003 * random.gaussian()) }
        let ramp = 0.002, length = 0.05
        for beep in beeps {
            // Each beep starts at its own phase (a tone generator running freely), so a
            // template of them cancels little.
            let phase = 2 * .pi * random.uniform()
            let start = Int(beep * rate)
            for offset in 0..<Int(length * rate) {
                let t = Double(offset) / rate
                let gain = min(1, t / ramp, (length - t) / ramp)
                let shaped = 0.5 - 0.5 * cos(.pi * max(0, gain))
                samples[start + offset] += Float(beepAmplitude * shaped * sin(2 * .pi * 600 * t + phase))
            }
        }
        for tap in taps {
            let start = Int(tap * rate)
            for offset in 0..<Int(0.06 * rate) {
                let t = Double(offset) / rate
                samples[start + offset] += Float(0.05 * exp(-t / 0.006) * random.gaussian())
            }
        }
        return Signal(samples: samples, sampleRate: rate)
    }

    @Test func tapsJustBeforeLoudBeepsAreTaps() {
        let detection = detectTapOnsets(in: Self.recording(beepAmplitude: 0.2))
        let found = Self.taps.filter { tap in detection.onsets.contains { abs($0.time - tap) <= 0.002 } }
        #expect(found.count == Self.taps.count, "\(found.count) of \(Self.taps.count) taps; other sounds: \(detection.otherOnsets.map { ($0.time, $0.tapScore, $0.features?.decayDB ?? .nan) })")
        // The beeps are the stimulus, not taps.
        #expect(detection.onsets.count == Self.taps.count, "\(detection.onsets.map(\.time))")
    }
}
