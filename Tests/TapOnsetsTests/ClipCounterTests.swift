import Testing
@testable import TapOnsets

@Suite struct ClipCounterTests {
    @Test func countsRunsAcrossBlocksLikeOneSampleAtATime() {
        var random = TestRandom(state: 41)
        for trial in 0..<50 {
            // Quiet stretches, and runs of 1–5 samples at or beyond full scale, split into
            // blocks of every size so that runs straddle block boundaries.
            var samples: [Float] = []
            while samples.count < 5_000 {
                samples += (0..<Int(random.next() % 300)).map { _ in Float(random.gaussian()) * 0.1 }
                let sign: Float = random.uniform() < 0.5 ? -1 : 1
                samples += (0..<(1 + Int(random.next() % 5))).map { _ in sign * (random.uniform() < 0.5 ? 1 : 0.9995) }
            }
            var expected = 0, run = 0
            for sample in samples {
                run = abs(sample) >= ClipCounter.level ? run + 1 : 0
                if run == ClipCounter.runLength { expected += 1 }
            }
            var counter = ClipCounter()
            var start = 0
            while start < samples.count {
                let end = min(samples.count, start + Int(random.next() % 40))
                samples[start..<end].withUnsafeBufferPointer { counter.process($0) }
                start = end
            }
            #expect(counter.runs == expected, "trial \(trial)")
            #expect(counter.samples == samples.count)
        }
    }
}
