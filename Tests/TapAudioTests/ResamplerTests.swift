import Foundation
import TapTestSupport
import Testing
@testable import TapAudio

/// The rate pairs the timing and splitting tests run on: both directions around 44.1/48 kHz,
/// a large upsampling ratio with many phases (441), and plain 2:1 decimation.
let resamplingPairs: [(Int, Int)] = [
    (44_100, 48_000), (48_000, 44_100), (22_050, 48_000), (96_000, 48_000), (8_000, 44_100),
]

/// Converts interleaved `input` in blocks of the given sizes (cycled), then finishes.
func resampleInBlocks(_ input: [Float], with resampler: inout Resampler, blockFrames: [Int]) -> [Float] {
    var output: [Float] = []
    let channels = resampler.channelCount
    var frame = 0
    var block = 0
    let frames = input.count / channels
    input.withUnsafeBufferPointer { buffer in
        while frame < frames {
            let count = min(blockFrames[block % blockFrames.count], frames - frame)
            resampler.process(UnsafeBufferPointer(rebasing: buffer[(frame * channels)..<((frame + count) * channels)]),
                              into: &output)
            frame += count
            block += 1
        }
    }
    resampler.finish(into: &output)
    return output
}

/// Seeded noise in −1 … 1.
func noise(count: Int, seed: UInt64) -> [Float] {
    var generator = SplitMix64(seed: seed)
    return (0..<count).map { _ in Float(generator.uniform(-1...1)) }
}

@Suite struct ResamplerStreamingTests {
    @Test func equalRatesPassThroughBitIdentically() throws {
        let input = noise(count: 2 * 10_001, seed: 1)
        var resampler = try Resampler(inputRate: 48_000, outputRate: 48_000, channels: 2)
        let output = resampleInBlocks(input, with: &resampler, blockFrames: [1, 999, 4_096, 0, 7])
        #expect(output == input)
        let signal = Signal(samples: noise(count: 5_000, seed: 2), sampleRate: 44_100)
        #expect(try signal.resampled(to: 44_100) == signal)
    }

    @Test(arguments: resamplingPairs)
    func anyBlockSplitGivesBitIdenticalOutput(inputRate: Int, outputRate: Int) throws {
        let input = noise(count: 2 * 30_000, seed: UInt64(inputRate + outputRate))
        var resampler = try Resampler(inputRate: inputRate, outputRate: outputRate, channels: 2, quality: .fast)
        let oneShot = resampleInBlocks(input, with: &resampler, blockFrames: [Int.max / 4])
        var generator = SplitMix64(seed: UInt64(inputRate * 3 + outputRate))
        for _ in 0..<3 {
            // Block sizes from 0 (an empty call) up to past the internal 4096-frame chunk.
            let sizes = (0..<50).map { _ in generator.chance(0.3) ? Int(generator.next() % 8) : Int(generator.next() % 6_000) }
            // The same resampler again: `finish` must have reset it.
            let split = resampleInBlocks(input, with: &resampler, blockFrames: sizes)
            #expect(split == oneShot)
        }
    }

    @Test func frameCountsFollowTheRoundingRule() throws {
        let rates = [8_000, 22_050, 44_100, 48_000, 96_000, 11_025, 32_000]
        for inputRate in rates {
            for outputRate in rates where outputRate != inputRate {
                var resampler = try Resampler(inputRate: inputRate, outputRate: outputRate, channels: 1, quality: .fast)
                for frames in [0, 1, 2, 3, 7, 100, 1_001, 4_097, 9_999] {
                    let output = resampleInBlocks([Float](repeating: 0.25, count: frames), with: &resampler,
                                                  blockFrames: [333, 1, 5_000])
                    let expected = (frames * outputRate + inputRate / 2) / inputRate
                    #expect(output.count == expected, "\(frames) frames, \(inputRate) → \(outputRate) Hz")
                    #expect(Resampler.outputFrameCount(forInputFrames: frames, inputRate: inputRate,
                                                       outputRate: outputRate) == expected)
                }
            }
        }
        // The rule by hand: 1 frame at 44.1 kHz is 1.088 frames at 48 kHz → 1; 3 → 3.27 → 3;
        // 1 frame at 48 kHz is 0.91875 at 44.1 kHz → 1; 1 at 96 kHz is 0.5 at 48 kHz → 1 (halves up).
        #expect(Resampler.outputFrameCount(forInputFrames: 1, inputRate: 44_100, outputRate: 48_000) == 1)
        #expect(Resampler.outputFrameCount(forInputFrames: 3, inputRate: 44_100, outputRate: 48_000) == 3)
        #expect(Resampler.outputFrameCount(forInputFrames: 1, inputRate: 48_000, outputRate: 44_100) == 1)
        #expect(Resampler.outputFrameCount(forInputFrames: 1, inputRate: 96_000, outputRate: 48_000) == 1)
        #expect(Resampler.outputFrameCount(forInputFrames: 44_100, inputRate: 44_100, outputRate: 48_000) == 48_000)
    }

    @Test func blocksNeverOutgrowTheAdvertisedCapacityAndWaitForTheLookahead() throws {
        for (inputRate, outputRate) in resamplingPairs {
            var resampler = try Resampler(inputRate: inputRate, outputRate: outputRate, channels: 1, quality: .fast)
            for frames in [1, 17, 4_096, 10_000] {
                var output: [Float] = []
                let block = [Float](repeating: 0.5, count: frames)
                var largest = 0
                for _ in 0..<5 {
                    output.removeAll()
                    block.withUnsafeBufferPointer { resampler.process($0, into: &output) }
                    largest = max(largest, output.count)
                }
                output.removeAll()
                resampler.finish(into: &output)
                largest = max(largest, output.count)
                #expect(largest <= resampler.maximumOutputFrames(forInputFrames: frames))
            }
            // The output frames timed before input frame 1 need input frames 0 … K: one frame
            // short of that yields nothing, one more yields them all.
            let lookahead = resampler.inputLookahead
            var output: [Float] = []
            let ones = [Float](repeating: 1, count: lookahead + 1)
            ones.withUnsafeBufferPointer { resampler.process(UnsafeBufferPointer(rebasing: $0[..<lookahead]), into: &output) }
            #expect(output.isEmpty)
            ones.withUnsafeBufferPointer { resampler.process(UnsafeBufferPointer(rebasing: $0[lookahead...]), into: &output) }
            #expect(output.count == (outputRate + inputRate - 1) / inputRate)
            resampler.reset()
        }
    }

    @Test func channelsStaySeparate() throws {
        let frames = 20_000
        let tone = (0..<frames).map { Float(0.9 * sin(2 * Double.pi * 1_000 * Double($0) / 44_100)) }
        let loud = noise(count: frames, seed: 5)
        let stereo = try Resampler.resample([tone, [Float](repeating: 0, count: frames)], from: 44_100, to: 48_000)
        #expect(stereo[1].map(abs).max()! <= 1e-7)
        #expect(stereo[0].map(abs).max()! > 0.85)
        // Each channel is exactly what converting it alone gives, through the stereo and the
        // general (3-channel) paths alike.
        let mono = try Resampler.resample([tone], from: 44_100, to: 48_000)[0]
        #expect(stereo[0] == mono)
        let three = try Resampler.resample([loud, tone, loud], from: 44_100, to: 48_000)
        #expect(three[1] == mono)
        #expect(three[0] == three[2])
    }

    @Test(arguments: resamplingPairs)
    func constantInputStaysConstant(inputRate: Int, outputRate: Int) throws {
        let output = try Resampler.resample([[Float](repeating: 0.5, count: 5_000)], from: inputRate, to: outputRate)[0]
        let middle = output[(output.count / 4)..<(3 * output.count / 4)]
        #expect(middle.map { abs($0 - 0.5) }.max()! <= 1e-6)
    }

    @Test func invalidSetupsThrow() throws {
        #expect(throws: AudioError.self) { try Resampler(inputRate: 0, outputRate: 48_000, channels: 1) }
        #expect(throws: AudioError.self) { try Resampler(inputRate: 44_100, outputRate: -1, channels: 1) }
        #expect(throws: AudioError.self) { try Resampler(inputRate: 44_100, outputRate: 48_000, channels: 0) }
        // 192 001 phases × 136 taps is over the 2^24-coefficient table limit.
        #expect(throws: AudioError.self) { try Resampler(inputRate: 44_100, outputRate: 192_001, channels: 1) }
        #expect(throws: AudioError.self) { try Signal(samples: [0, 1], sampleRate: 44_100.5).resampled(to: 48_000) }
        #expect(throws: AudioError.self) { try Resampler.resample([[0, 1], [0]], from: 44_100, to: 48_000) }
        do {
            _ = try Resampler(inputRate: 44_100, outputRate: 0, channels: 2)
            Issue.record("no error for a zero output rate")
        } catch {
            #expect(error.description == "cannot resample: sample rates must be positive, not 44100 Hz → 0 Hz")
            #expect(error.path == "")
        }
    }
}
