import Foundation
import Testing
@testable import TapOnsets
import TapAudio

/// A tap that sounds in the long tail of a louder sustained sound (a cough, a chord) rises far
/// over the tail but peaks well under the sound that left it. It is a new sound, not the tail's
/// own beating: it must start an onset of its own.
@Suite struct TapOnALongTailTests {
    let rate = 44_100.0

    func signal(tapAmplitude: Double, seed: UInt64) -> (Signal, tapStart: Int) {
        let noise = 0.001
        var random = TestRandom(state: seed)
        var samples = (0..<Int(2 * rate)).map { _ in Float(noise * random.gaussian()) }
        // A sustained sound from 0.5 s: 20 ms rise, then a 150 ms decay time constant.
        let soundStart = Int(0.5 * rate)
        for offset in 0..<Int(0.6 * rate) {
            let t = Double(offset) / rate
            let envelope = min(1, t / 0.020) * exp(-max(0, t - 0.020) / 0.150)
            samples[soundStart + offset] += Float(30 * noise * envelope * random.gaussian())
        }
        // A tap 270 ms in, 7 dB under the sound's peak, 9 dB over its tail there.
        let tapStart = soundStart + Int(0.270 * rate)
        for offset in 0..<Int(0.1 * rate) {
            let t = Double(offset) / rate
            samples[tapStart + offset] += Float(tapAmplitude * noise * exp(-t / 0.008) * random.gaussian())
        }
        return (Signal(samples: samples, sampleRate: rate), tapStart)
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func aTapFarUnderTheSoundButOverItsTailIsFound(seed: UInt64) {
        let (signal, tapStart) = signal(tapAmplitude: 13.5, seed: seed)
        let onsets = detectOnsets(in: signal)
        #expect(onsets.contains { abs($0.frame - tapStart) <= Int(0.002 * rate) },
                "onsets at \(onsets.map { String(format: "%.4f", $0.time) })")
    }

    @Test func theTailAloneStartsNoSecondOnset() {
        let (signal, _) = signal(tapAmplitude: 0, seed: 9)
        let onsets = detectOnsets(in: signal).filter { $0.time > 0.45 && $0.time < 1.2 }
        #expect(onsets.count == 1, "onsets at \(onsets.map { String(format: "%.4f", $0.time) })")
    }
}
