import Foundation
@testable import TapOnsets
import TapAudio

/// A small seeded generator for test signals (SplitMix64).
struct TestRandom {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }
    mutating func gaussian() -> Double {
        let u1 = max(uniform(), 1e-300), u2 = uniform()
        return sqrt(-2 * log(u1)) * cos(2 * Double.pi * u2)
    }
}

/// White noise at `noiseRMS` with decaying noise-burst "taps" at `starts` (frames), each with
/// its peak amplitude `amplitude` × noiseRMS. Nothing of a tap precedes its start frame.
func syntheticTaps(starts: [Int], amplitude: Double, noiseRMS: Double = 0.003, frames: Int,
                   rate: Double = 44_100, seed: UInt64 = 1, decay: Double = 0.008) -> Signal {
    var random = TestRandom(state: seed)
    var samples = (0..<frames).map { _ in Float(noiseRMS * random.gaussian()) }
    for start in starts {
        for offset in 0..<Int(rate * 0.1) where start + offset < frames {
            let t = Double(offset) / rate
            let envelope = exp(-t / decay)
            samples[start + offset] += Float(amplitude * noiseRMS * envelope * random.gaussian())
        }
    }
    return Signal(samples: samples, sampleRate: rate)
}

/// `signal` streamed through a ``BleedCanceller`` holding `template`, in blocks of 4096 frames:
/// what it releases, and how many clicks it subtracted.
func cancelled(_ signal: [Float], template: BleedTemplate, sampleRate: Double) -> (output: [Float], clicks: Int) {
    var canceller = BleedCanceller(template: template, sampleRate: sampleRate)
    var output: [Float] = []
    signal.withUnsafeBufferPointer { buffer in
        for start in stride(from: 0, to: buffer.count, by: 4_096) {
            canceller.process(UnsafeBufferPointer(rebasing: buffer[start..<min(buffer.count, start + 4_096)])) { samples, _ in output += samples }
        }
    }
    canceller.finish { samples, _ in output += samples }
    return (output, canceller.cancelledClicks)
}
