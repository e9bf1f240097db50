import Foundation
import Testing
@testable import TapOnsets

@Suite struct StartPickerScreeningTests {
    /// The picker as first written: every split scored with libm's logarithm. The screened
    /// picker must return the very same index.
    func everySplitPick(_ samples: [Float], minimumSegment: Int = 4) -> Int {
        let count = samples.count
        guard count >= 2 * minimumSegment + 1 else { return count / 2 }
        var total = 0.0
        for sample in samples { total += Double(sample) * Double(sample) }
        var before = 0.0
        for index in 0..<minimumSegment { before += Double(samples[index]) * Double(samples[index]) }
        var best = minimumSegment, bestScore = Double.infinity
        for split in minimumSegment...(count - minimumSegment) {
            let n1 = Double(split), n2 = Double(count - split)
            let score = n1 * log(before / n1 + 1e-20) + n2 * log(max(total - before, 0) / n2 + 1e-20)
            if score < bestScore { bestScore = score; best = split }
            before += Double(samples[split]) * Double(samples[split])
        }
        return best
    }

    func pick(_ samples: [Float]) -> Int { samples.withUnsafeBufferPointer { StartPicker.pick($0) } }

    @Test func screenedPickIsTheEverySplitPick() {
        var random = TestRandom(state: 5)
        for trial in 0..<400 {
            let count = 9 + Int(random.next() % 1_500)
            let start = Int(random.next() % UInt64(count))
            // From a burst 60 dB over the noise down to none at all (a flat AIC curve).
            let gain = Float(pow(10, random.uniform() * 3))
            let noise = Float(pow(10, -1 - random.uniform() * 5))
            var samples = (0..<count).map { _ in noise * Float(random.gaussian()) }
            for index in start..<count { samples[index] *= gain }
            #expect(pick(samples) == everySplitPick(samples), "trial \(trial)")
        }
    }

    @Test func edgeCasesPickAsBefore() {
        let stretches: [[Float]] = [
            [Float](repeating: 0, count: 200),                                    // digital silence
            [Float](repeating: 0.25, count: 200),                                 // constant
            (0..<300).map { $0 < 150 ? 0 : 1_000_000 },                            // the largest samples
            (0..<300).map { $0 < 150 ? 1e-30 : 1e-20 },                            // subnormal squares
            (0..<100).map { $0 == 50 ? .nan : 0.1 },
            (0..<100).map { $0 == 50 ? .infinity : 0.1 },
            (0..<9).map { Float($0) },                                             // the shortest
            [1, 2, 3],
        ]
        for samples in stretches { #expect(pick(samples) == everySplitPick(samples), "\(samples.prefix(3))") }
    }

    @Test func approximateLogStaysWithinItsBound() {
        let table = ApproximateLog.table
        var random = TestRandom(state: 9)
        var worst = 0.0
        for _ in 0..<200_000 {
            let x = pow(10, -20 + random.uniform() * 40)
            let approximate = table.withUnsafeBufferPointer { ApproximateLog.log(x, table: $0) }
            worst = max(worst, abs(approximate - log(x)))
        }
        #expect(worst < ApproximateLog.bound / 10)
    }
}
