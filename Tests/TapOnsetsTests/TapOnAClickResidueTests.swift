import Foundation
import Testing
@testable import TapOnsets
import TapAudio

/// A tap that sounds a few milliseconds after a metronome click starts. The click is
/// subtracted, but what a click leaves where the subtraction does not fit it exactly (here its
/// level wobbles by ±25 % from click to click) starts at the click: the tap must be timed where
/// it starts, not where the residue does.
@Suite struct TapOnAClickResidueTests {
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func aTapJustAfterAClickIsTimedAtTheTap(seed: UInt64) {
        var random = TestRandom(state: seed)
        let rate = 44_100.0, seconds = 24.0, period = 0.6
        let frames = Int(seconds * rate)
        let level = pow(10, -35.0 / 20)
        var clicks: [Int] = [], taps: [Int] = [], lateTaps: [Int] = []
        var time = 1.0, beat = 0
        while time < seconds - 0.2 {
            clicks.append(Int((time * rate).rounded()))
            // Every third tap lands 4–6 ms after its click starts; the others 30 ms before.
            let asynchrony = beat % 3 == 2 ? 0.004 + 0.002 * random.uniform() : -0.030 + 0.010 * random.gaussian()
            let tap = Int(((time + asynchrony) * rate).rounded())
            taps.append(tap)
            if beat % 3 == 2 { lateTaps.append(tap) }
            time += period
            beat += 1
        }
        // Taps whose peak power is about 3 dB over the click's.
        var samples = syntheticTaps(starts: taps, amplitude: level / 0.0003, noiseRMS: 0.0003, frames: frames,
                                    seed: seed &+ 100).samples
        for start in clicks {
            let gain = 0.75 + 0.5 * random.uniform()
            for index in 0..<Int(0.030 * rate) where start + index < frames {
                let t = Double(index) / rate
                samples[start + index] += Float(gain * level * exp(-t / 0.008) * sin(2 * Double.pi * 1_000 * t))
            }
        }
        let detection = detectTapOnsets(in: Signal(samples: samples, sampleRate: rate))
        #expect(detection.cancelledClicks >= clicks.count / 2, "seed \(seed): the clicks were not subtracted")
        for tap in lateTaps {
            let nearest = detection.onsets.min { abs($0.frame - tap) < abs($1.frame - tap) }
            let error = nearest.map { Double($0.frame - tap) / rate * 1000 } ?? .infinity
            #expect(abs(error) <= 1, "seed \(seed): the tap at \(Double(tap) / rate) s is timed \(error) ms off")
        }
    }
}
