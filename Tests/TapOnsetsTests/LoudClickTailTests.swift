import Foundation
import Testing
@testable import TapOnsets
import TapAudio

/// A metronome through a loudspeaker: a woodblock-like click 50 dB over the noise, whose tail
/// is still audible where the click template's audible part ends. The template fades out
/// there (`templateFadeDuration`) instead of stopping, so subtracting it leaves no step that
/// the detector would report 140 ms after every click.
@Suite struct LoudClickTailTests {
    static let rate = 48_000.0
    static let period = 0.45
    static let clickCount = 40

    /// Three damped modes, as a woodblock rings, peaking about 0.3 (−10 dBFS).
    static func woodblock(_ t: Double) -> Double {
        guard t >= 0 else { return 0 }
        return 0.2 * exp(-t / 0.035) * sin(2 * .pi * 1_050 * t)
            + 0.12 * exp(-t / 0.012) * sin(2 * .pi * 2_520 * t)
            + 0.06 * exp(-t / 0.005) * sin(2 * .pi * 4_300 * t)
    }

    @Test func aLoudClicksTailLeavesNoOnsets() throws {
        let frames = Int((1 + Double(Self.clickCount) * Self.period + 1) * Self.rate)
        var random = TestRandom(state: 45)
        var samples = (0..<frames).map { _ in Float(0.001 * random.gaussian()) }   // −60 dBFS
        for k in 0..<Self.clickCount {
            let start = 1 + Double(k) * Self.period
            let first = Int(start * Self.rate)
            for frame in first..<min(frames, first + Int(0.4 * Self.rate)) {
                samples[frame] += Float(Self.woodblock(Double(frame) / Self.rate - start))
            }
        }
        // Taps between the clicks, 25–35 dB over the noise, a noise burst with a fast decay.
        var tapStarts: [Int] = []
        for k in stride(from: 2, to: Self.clickCount - 2, by: 3) {
            let start = Int((1 + (Double(k) + 0.55) * Self.period) * Self.rate)
            tapStarts.append(start)
            let amplitude = 0.001 * pow(10, (25 + 10 * random.uniform()) / 20)
            for offset in 0..<Int(0.08 * Self.rate) {
                samples[start + offset] += Float(amplitude * exp(-Double(offset) / Self.rate / 0.006) * random.gaussian())
            }
        }
        let detection = detectTapOnsets(in: Signal(samples: samples, sampleRate: Self.rate))
        #expect(detection.cancelledClicks >= Self.clickCount - 2)
        let taps = detection.onsets.map(\.frame)
        let found = tapStarts.filter { start in taps.contains { abs($0 - start) <= Int(0.001 * Self.rate) } }
        #expect(found.count == tapStarts.count, "\(found.count) of \(tapStarts.count) taps")
        let others = taps.filter { frame in !tapStarts.contains { abs($0 - frame) <= Int(0.01 * Self.rate) } }
        #expect(others.isEmpty, "onsets that are no tap: \(others.map { String(format: "%.3f", Double($0) / Self.rate) })")
    }
}
