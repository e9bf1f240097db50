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

    /// Input that is already high-passed (as bleed cancellation hands it on) is taken four hops
    /// at a time when a block holds them: the same onsets as hop by hop, sample-sized blocks.
    @Test func highPassedInputInWholeHopsEqualsSampleBySample() {
        let starts = [5_000, 40_000, 41_500, 90_000, 90_700]
        let signal = syntheticTaps(starts: starts, amplitude: 20, frames: 120_000, seed: 7)
        var filter = HighPassFilter(cutoff: OnsetDetectorConfiguration.standard.highPassCutoff, sampleRate: rate)
        let filtered = signal.samples.map { filter.process($0) }
        func detect(blockSize: Int) -> [Onset] {
            var detector = OnsetDetector(sampleRate: rate, configurations: [.standard, .standard.clickProbe], input: .highPassed)
            var onsets: [[Onset]] = [[], []]
            var index = 0
            while index < filtered.count {
                let end = min(index + blockSize, filtered.count)
                filtered[index..<end].withUnsafeBufferPointer { detector.process($0, into: &onsets) }
                index = end
            }
            detector.finish(into: &onsets)
            return onsets.flatMap { $0 }
        }
        let bySample = detect(blockSize: 1)
        #expect(bySample.count >= 2 * 4)
        for blockSize in [4_099, 65_536] { #expect(detect(blockSize: blockSize) == bySample, "blocks of \(blockSize)") }
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

@Suite struct BleedCancellationTests {
    let rate = 44_100.0

    /// Noise, a metronome beep (1.2 kHz, 30 ms decay) every 0.5234 s from 1 s on (for
    /// `clicks` clicks), and a tap per beat: the tap of beat k starts `offsets[k % n]` seconds
    /// after its click, give or take a human `jitter` (SD; exact taps would themselves look like
    /// a metronome). Returns the signal and the true tap start frames.
    func session(clicks: Int, offsets: [Double], jitter: Double = 0.0015, seconds: Double = 24) -> (Signal, [Int]) {
        var random = TestRandom(state: 77)
        let frames = Int(seconds * rate)
        var signal = syntheticTaps(starts: [], amplitude: 0, frames: frames, seed: 31)
        var beep = [Float](repeating: 0, count: Int(0.15 * rate))
        for index in beep.indices {
            let t = Double(index) / rate
            let attack = min(1, t / 0.001)
            beep[index] = Float(0.03 * attack * exp(-t / 0.03) * sin(2 * Double.pi * 1_200 * t))
        }
        var tapStarts: [Int] = []
        for k in 0..<40 {
            let click = 1.0 + Double(k) * 0.5234
            let clickFrame = Int((click * rate).rounded())
            if k < clicks {
                for index in beep.indices where clickFrame + index < frames { signal.samples[clickFrame + index] += beep[index] }
            }
            tapStarts.append(Int(((click + offsets[k % offsets.count] + jitter * random.gaussian()) * rate).rounded()))
        }
        let taps = syntheticTaps(starts: tapStarts, amplitude: 6, noiseRMS: 0.003, frames: frames, seed: 32)
        let noise = syntheticTaps(starts: [], amplitude: 0, noiseRMS: 0.003, frames: frames, seed: 32)
        for index in signal.samples.indices { signal.samples[index] += taps.samples[index] - noise.samples[index] }
        return (signal, tapStarts.filter { $0 < frames })
    }

    func errors(_ onsets: [Onset], _ starts: [Int]) -> [Int] {
        starts.map { start in onsets.map { $0.frame - start }.min { abs($0) < abs($1) } ?? Int.max }
    }

    @Test func tapsOnClickTailsAreTimedAfterTheClicksAreSubtracted() {
        // Taps 4–9 ms after loud clicks, and some well before them.
        let (signal, starts) = session(clicks: 40, offsets: [0.004, -0.030, 0.009, -0.050, 0.006])
        let detection = detectTapOnsets(in: signal)
        #expect(detection.cancelledClicks >= 38)
        #expect(detection.stimulusOnsets.count >= 8)
        let misses = errors(detection.onsets, starts).filter { abs($0) > 10 }
        #expect(misses.isEmpty, "taps timed off by more than 10 frames: \(misses)")
        // Without cancelling, the click's start stands in for the tap's: the test can fail.
        let kept = detectOnsets(in: signal)
        #expect(errors(kept, starts).filter { abs($0) > 10 }.count >= 10)
    }

    @Test func whereTheClicksStopNothingIsSubtracted() {
        // A synchronization–continuation run: 16 clicks, then taps alone.
        let (signal, starts) = session(clicks: 16, offsets: [-0.030, -0.020], jitter: 0.015)
        let detection = detectTapOnsets(in: signal)
        #expect((14...16).contains(detection.cancelledClicks), "cancelled \(detection.cancelledClicks)")
        #expect(errors(detection.onsets, starts).allSatisfy { abs($0) <= 10 })
        let extra = detection.onsets.filter { onset in !starts.contains { abs($0 - onset.frame) <= 10 } }
        #expect(detection.onsets.count == starts.count, "extra onsets at \(extra.map { ($0.time, $0.snrDB) })")
    }

    @Test func aRecordingWithoutClicksIsLeftAlone() {
        // Human taps: about every 0.52 s, with a 20 ms SD (machine-exact taps would look like
        // a metronome, and be treated as one).
        var random = TestRandom(state: 41)
        let starts = (0..<34).map { 30_000 + $0 * 23_000 + Int(0.020 * rate * random.gaussian()) }
        let signal = syntheticTaps(starts: starts, amplitude: 8, frames: 820_000, seed: 41)
        let detection = detectTapOnsets(in: signal)
        #expect(detection.cancelledClicks == 0)
        #expect(detection.onsets.map(\.time) == detectOnsets(in: signal).map(\.time))
    }
}
