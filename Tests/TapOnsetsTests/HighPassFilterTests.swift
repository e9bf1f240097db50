import Foundation
import Testing
@testable import TapOnsets

/// The block filter cuts long blocks into parts filtered side by side; what it writes must
/// be the sequential filter's output, whatever the block sizes, rates and cutoffs.
@Suite struct HighPassFilterTests {
    /// Noise with a slow swell, a DC step and loud transients: everything the state carries.
    func testSignal(frames: Int, seed: UInt64) -> [Float] {
        var state = seed
        func uniform() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(state >> 40) / Float(1 << 24) - 0.5
        }
        return (0..<frames).map { n in
            let swell = Float(sin(Double(n) * 0.0003))
            let step: Float = n > frames / 3 ? 0.2 : 0
            let transient: Float = n % 9_973 < 40 ? 0.8 * uniform() : 0
            return 0.05 * uniform() * swell + step + transient
        }
    }

    func sampleBySample(_ input: [Float], cutoff: Double, rate: Double) -> [Float] {
        var filter = HighPassFilter(cutoff: cutoff, sampleRate: rate)
        return input.map { filter.process($0) }
    }

    func inBlocks(_ input: [Float], sizes: [Int], cutoff: Double, rate: Double) -> [Float] {
        var filter = HighPassFilter(cutoff: cutoff, sampleRate: rate)
        var output = [Float](repeating: .nan, count: input.count)
        var start = 0, turn = 0
        while start < input.count {
            let end = min(start + sizes[turn % sizes.count], input.count)
            input[start..<end].withUnsafeBufferPointer { block in
                output.withUnsafeMutableBufferPointer { filter.process(block, into: $0.baseAddress! + start) }
            }
            start = end
            turn += 1
        }
        return output
    }

    @Test(arguments: [(8_000.0, 120.0), (44_100.0, 120.0), (48_000.0, 60.0), (96_000.0, 120.0)])
    func blocksInPartsEqualTheSequentialFilter(rate: Double, cutoff: Double) {
        let input = testSignal(frames: 400_000, seed: UInt64(rate))
        let reference = sampleBySample(input, cutoff: cutoff, rate: rate)
        // Long blocks (filtered in parts), short ones (one lane) and a mix of both.
        for sizes in [[65_536], [400_000], [1_000, 131_072, 7]] {
            let output = inBlocks(input, sizes: sizes, cutoff: cutoff, rate: rate)
            var worst: Float = 0
            for (a, b) in zip(output, reference) { worst = max(worst, abs(a - b)) }
            // Float rounding of the last bit at most (the signal reaches ±1).
            #expect(worst <= 2e-7, "rate \(rate), cutoff \(cutoff), blocks \(sizes): largest difference \(worst)")
        }
    }
}
