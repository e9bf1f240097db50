import Foundation
import Testing
@testable import TapOnsets
import TapAudio

@Suite struct OnsetDetectorTests {
    let rate = 44_100.0

    @Test func findsStartsOfLoudTransientsToTheSample() {
        let starts = stride(from: 22_050, to: 400_000, by: 24_000).map { $0 + ($0 % 7) }
        let signal = syntheticTaps(starts: starts, amplitude: 30, frames: 420_000)
        let onsets = detectOnsets(in: signal)
        #expect(onsets.count == starts.count)
        for (onset, start) in zip(onsets, starts) {
            #expect(abs(onset.frame - start) <= 4, "onset \(onset.frame) vs true \(start)")
            #expect(onset.snrDB > 20)
        }
    }

    @Test func quietTransientsAreFoundWithSmallError() {
        let starts = stride(from: 30_000, to: 420_000, by: 20_000).map { $0 + ($0 % 11) }
        let signal = syntheticTaps(starts: starts, amplitude: 3, frames: 440_000, seed: 7)
        let onsets = detectOnsets(in: signal)
        #expect(onsets.count == starts.count)
        let errors = zip(onsets, starts).map { Double($0.frame - $1) / rate * 1000 }
        #expect(errors.allSatisfy { abs($0) < 2 }, "errors in ms: \(errors)")
    }

    @Test func noiseAloneGivesNoOnsets() {
        let signal = syntheticTaps(starts: [], amplitude: 0, frames: 441_000, seed: 3)
        #expect(detectOnsets(in: signal).isEmpty)
    }

    @Test func streamingInOddBlocksEqualsOneBlock() {
        let starts = [5_000, 40_000, 41_500, 90_000]
        let signal = syntheticTaps(starts: starts, amplitude: 20, frames: 120_000, seed: 5)
        let whole = detectOnsets(in: signal)
        var detector = OnsetDetector(sampleRate: rate)
        var streamed: [Onset] = []
        var index = 0
        var size = 1
        while index < signal.samples.count {
            let end = min(index + size, signal.samples.count)
            detector.process(Array(signal.samples[index..<end]), into: &streamed)
            index = end
            size = size * 3 % 4_099 + 1
        }
        detector.finish(into: &streamed)
        #expect(streamed == whole)
        #expect(whole.count == 4)
    }

    @Test func aLoudHumDoesNotTrigger() {
        var signal = syntheticTaps(starts: [50_000], amplitude: 20, frames: 200_000, seed: 9)
        for index in signal.samples.indices {
            let t = Double(index) / rate
            let hum: Double = 0.3 * sin(2 * Double.pi * 50 * t) + 0.1 * sin(2 * Double.pi * 150 * t)
            signal.samples[index] += Float(hum)
        }
        let onsets = detectOnsets(in: signal)
        #expect(onsets.count == 1)
        #expect(abs((onsets.first?.frame ?? 0) - 50_000) <= 8)
    }
}

@Suite struct SlidingQuantileTests {
    @Test func medianFollowsInsertionsAndRemovals() {
        var quantile = SlidingQuantile(quantile: 0.5, lowest: 0, highest: 100, binWidth: 1)
        for value in [10.0, 20, 30, 40, 50] { quantile.insert(value) }
        #expect(quantile.value() == 30.5)
        quantile.remove(10)
        quantile.remove(20)
        #expect(quantile.value() == 40.5)
        quantile.insert(0)
        quantile.insert(1)
        quantile.insert(2)
        #expect(quantile.value() == 2.5)
    }
}
