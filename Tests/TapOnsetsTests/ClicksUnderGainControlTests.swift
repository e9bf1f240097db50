import Foundation
import Testing
@testable import TapOnsets
import TapAudio

/// A phone or laptop records through an automatic gain control: between taps it turns the
/// metronome's bleed up by as much as 26 dB, on a tap it turns everything down. The clicks keep
/// their shape but not their level, and their fitted gains spread from about 0.1 to 2 of the
/// template's. The canceller subtracts a clean click outside its usual gains at the gain that
/// fits it, and the grid check does not take that spread for silent grid points.
/// Sample `index` of both suites' click at 48 kHz: a 1 kHz burst decaying over 8 ms, peak
/// −40 dBFS, ``sineBurstLength`` (30 ms) long.
func sineBurstClick(_ index: Int) -> Float {
    let t = Double(index) / 48_000
    return Float(0.01 * exp(-t / 0.008) * sin(2 * .pi * 1_000 * t))
}
let sineBurstLength = 1_440

@Suite struct ClicksUnderGainControlTests {
    static let rate = 48_000.0
    static let period = 0.557

    /// An automatic gain control after ffmpeg's `dynaudnorm` (frames of 100 ms, each frame's
    /// gain 0.9 over its peak, at most 20; the smallest over ±3 frames, then a Gaussian over
    /// ±3 frames, interpolated between frame centres).
    static func gainControlled(_ samples: [Float]) -> [Float] {
        let frameLength = Int(0.1 * rate)
        let frameCount = (samples.count + frameLength - 1) / frameLength
        let raw = (0..<frameCount).map { frame -> Double in
            let range = (frame * frameLength)..<min(samples.count, (frame + 1) * frameLength)
            let peak = range.reduce(0.0) { max($0, Double(abs(samples[$1]))) }
            return min(20, 0.9 / max(peak, 1e-9))
        }
        let smallest = raw.indices.map { frame in raw[max(0, frame - 3)...min(frameCount - 1, frame + 3)].min()! }
        let weights = (-3...3).map { exp(-Double($0 * $0) / (2 * 1.2 * 1.2)) }
        let smooth = smallest.indices.map { frame -> Double in
            var sum = 0.0, total = 0.0
            for (offset, weight) in zip(-3...3, weights) where smallest.indices.contains(frame + offset) {
                sum += weight * smallest[frame + offset]
                total += weight
            }
            return sum / total
        }
        return samples.indices.map { index in
            let position = (Double(index) - Double(frameLength) / 2) / Double(frameLength)
            let lower = min(max(Int(position.rounded(.down)), 0), frameCount - 1)
            let upper = min(lower + 1, frameCount - 1)
            let fraction = min(max(position - Double(lower), 0), 1)
            return samples[index] * Float(smooth[lower] * (1 - fraction) + smooth[upper] * fraction)
        }
    }

    /// 36 clicks (a 1 kHz burst decaying over 8 ms, −40 dBFS) and a tap between every other
    /// pair of clicks (20–40 dB over noise at −66 dBFS), through the gain control.
    static func session(seed: UInt64) -> (signal: Signal, taps: [Int]) {
        var random = TestRandom(state: seed)
        let frames = Int((1 + 36 * period + 1) * rate)
        var samples = (0..<frames).map { _ in Float(0.0005 * random.gaussian()) }
        for k in 0..<36 {
            let first = Int((1 + Double(k) * period) * rate)
            for offset in 0..<sineBurstLength { samples[first + offset] += sineBurstClick(offset) }
        }
        var taps: [Int] = []
        for k in stride(from: 1, to: 35, by: 2) {
            let start = Int((1 + (Double(k) + 0.4 + 0.2 * random.uniform()) * period) * rate)
            taps.append(start)
            let amplitude = 0.0005 * pow(10, (20 + 20 * random.uniform()) / 20)
            for offset in 0..<Int(0.08 * rate) {
                samples[start + offset] += Float(amplitude * exp(-Double(offset) / rate / 0.006) * random.gaussian())
            }
        }
        return (Signal(samples: gainControlled(samples), sampleRate: rate), taps)
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func clicksUnderAGainControlAreNoTaps(seed: UInt64) {
        let (signal, taps) = Self.session(seed: seed)
        let detection = detectTapOnsets(in: signal)
        let found = detection.onsets.map(\.frame)
        let hit = taps.filter { tap in found.contains { abs($0 - tap) <= Int(0.001 * Self.rate) } }
        #expect(hit.count == taps.count, "seed \(seed): \(hit.count) of \(taps.count) taps")
        let others = found.filter { frame in !taps.contains { abs($0 - frame) <= Int(0.01 * Self.rate) } }
        #expect(others.isEmpty, "seed \(seed): onsets that are no tap at \(others.map { String(format: "%.3f", Double($0) / Self.rate) })")
    }
}

/// The grid check (`BleedTemplate.verified`) on clicks whose gains a gain control spreads
/// around a median near ½: no grid point is taken for a silent one, while a grid at half the
/// click period still finds its silent points.
@Suite struct GridCheckUnderGainControlTests {
    static let rate = 48_000.0
    static let period = 26_736.0   // 0.557 s

    /// Clicks at every grid point (or only at even ones), each at a gain drawn log-normally
    /// around 0.55 (0.1–1.9), over noise 40 dB under the template's peak.
    static func check(seed: UInt64, everyOther: Bool) -> BleedTemplate? {
        var random = TestRandom(state: seed)
        let count = 34
        let frames = Int(1_000 + Double(count + 1) * period)
        var signal = (0..<frames).map { _ in Float(0.0001 * random.gaussian()) }
        for k in 0..<count where !everyOther || k % 2 == 0 {
            let gain = min(1.9, max(0.1, 0.55 * exp(0.6 * random.gaussian())))
            let start = 1_000 + Int(Double(k) * period)
            for index in 0..<sineBurstLength { signal[start + index] += Float(gain) * sineBurstClick(index) }
        }
        let template = BleedTemplate(samples: (0..<sineBurstLength).map(sineBurstClick), leadFrames: 0, phaseFrames: 1_000,
                                     periodFrames: period, heardClicks: Array(0..<count))
        return template.verified { start, length in
            start >= 0 && start + length <= frames ? Array(signal[start..<(start + length)]) : nil
        }
    }

    @Test(arguments: 1...8 as ClosedRange<UInt64>)
    func clicksAtSpreadGainsAreAllHeard(seed: UInt64) throws {
        let template = try #require(Self.check(seed: seed, everyOther: false))
        #expect(template.silentResidues.isEmpty, "seed \(seed): silent residues \(template.silentResidues) of \(template.clickModulus)")
    }

    @Test(arguments: 1...8 as ClosedRange<UInt64>)
    func aHalfPeriodGridStillFindsItsSilentPoints(seed: UInt64) throws {
        let template = try #require(Self.check(seed: seed, everyOther: true))
        #expect(template.clickModulus == 2 && template.silentResidues == [1], "seed \(seed): \(template.clickModulus) \(template.silentResidues)")
    }
}
