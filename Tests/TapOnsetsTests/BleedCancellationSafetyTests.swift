import Foundation
import Testing
@testable import TapOnsets
import TapAudio

/// Metronome tasks whose click is a 30 ms, 1 kHz sine burst (8 ms decay) leaking at −45 to
/// −30 dBFS, with inter-onset intervals of 0.4–0.9 s and taps about 30 ms before the clicks:
/// tasks on which the click canceller once fitted a grid at a half or a third of the period
/// and wrote inverted clicks where none sounded.
struct SineClickTask {
    let rate = 44_100.0
    var signal: Signal
    var taps: [Int]
    var clicks: [Int]
    var period: Double

    init(seed: UInt64, seconds: Double = 30) {
        var random = TestRandom(state: seed)
        let rate = 44_100.0
        let frames = Int(seconds * rate)
        period = 0.4 + 0.5 * random.uniform()
        let level = pow(10, (-45 + 15 * random.uniform()) / 20)
        var click = [Float](repeating: 0, count: Int(0.030 * rate))
        for index in click.indices {
            let t = Double(index) / rate
            click[index] = Float(level * exp(-t / 0.008) * sin(2 * Double.pi * 1_000 * t))
        }
        var clicks: [Int] = [], taps: [Int] = []
        var time = 1.0
        while time < seconds - 0.2 {
            clicks.append(Int((time * rate).rounded()))
            taps.append(Int(((time - 0.030 + 0.012 * random.gaussian()) * rate).rounded()))
            time += period
        }
        let noise = 0.001
        let tapSound = syntheticTaps(starts: taps, amplitude: 10 + 30 * random.uniform(), noiseRMS: noise, frames: frames,
                                     seed: seed &+ 1000)
        var samples = tapSound.samples
        for start in clicks {
            for index in click.indices where start + index < frames { samples[start + index] += click[index] }
        }
        signal = Signal(samples: samples, sampleRate: rate)
        self.taps = taps
        self.clicks = clicks
    }

    /// Onsets farther than 5 ms from every tap, with their phase in the beat (0 = on a click).
    func spurious(_ onsets: [Onset]) -> [(time: Double, phase: Double)] {
        let tolerance = Int(0.005 * rate)
        return onsets.filter { onset in !taps.contains { abs($0 - onset.frame) <= tolerance } }.map { onset in
            let phase = ((onset.time - 1.0) / period).truncatingRemainder(dividingBy: 1)
            return (onset.time, phase < 0 ? phase + 1 : phase)
        }
    }
}

@Suite struct BleedCancellationSafetyTests {
    /// Nine tasks; with seed 14 the grid search once settled on half the click period, with
    /// seed 38 on a third of it, and seeds 3 and 5 have a click before the fitted grid's origin.
    @Test(arguments: [1, 3, 5, 9, 11, 14, 20, 33, 38] as [UInt64])
    func noClickIsWrittenWhereNoneSounds(seed: UInt64) {
        let task = SineClickTask(seed: seed)
        let detection = detectTapOnsets(in: task.signal)
        let spurious = task.spurious(detection.onsets)
        // An inverted click written between the clicks is an onset there, off the taps.
        let between = spurious.filter { (0.1...0.9).contains($0.phase) }
        #expect(between.isEmpty, "seed \(seed), period \(task.period) s: onsets between the clicks at phases \(between.prefix(8).map { String(format: "%.2f", $0.phase) })")
        #expect(detection.cancelledClicks <= task.clicks.count)
        // Every tap is still found.
        let tolerance = Int(0.005 * task.rate)
        let missed = task.taps.filter { tap in !detection.onsets.contains { abs($0.frame - tap) <= tolerance } }
        #expect(missed.isEmpty, "seed \(seed): \(missed.count) taps missed")
    }

    @Test func aClickBeforeTheGridsOriginIsCancelled() {
        // The first click lies one period before the first grid member the search kept.
        for seed in [3, 5] as [UInt64] {
            let task = SineClickTask(seed: seed)
            let detection = detectTapOnsets(in: task.signal)
            let first = task.clicks[0]
            let atFirstClick = detection.onsets.filter { abs($0.frame - first) <= Int(0.005 * task.rate) }
            #expect(atFirstClick.isEmpty, "seed \(seed): onsets at the first click \(atFirstClick.map(\.time))")
        }
    }
}
