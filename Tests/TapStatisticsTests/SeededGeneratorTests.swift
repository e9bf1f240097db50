import Testing
@testable import TapStatistics

@Suite("SeededGenerator")
struct SeededGeneratorTests {
    @Test("SplitMix64 matches the reference outputs for state 0")
    func splitMixReference() {
        var state: UInt64 = 0
        #expect(SplitMix64.next(&state) == 0xE220_A839_7B1D_CDAF)
        #expect(SplitMix64.next(&state) == 0x6E78_9E6A_A1B9_65F4)
        #expect(SplitMix64.next(&state) == 0x06C4_5D18_8009_454F)
    }

    @Test("xoshiro256** seeded by SplitMix64(42) matches the reference C implementation")
    func xoshiroReference() {
        var generator = SeededGenerator(seed: 42)
        #expect(generator.next() == 0x1578_0B2E_0C2E_C716)
        #expect(generator.next() == 0x6104_D986_6D11_3A7E)
        #expect(generator.next() == 0xAE17_5332_39E4_99A1)
        #expect(generator.next() == 0xECB8_AD47_03B3_60A1)
    }

    @Test("same seed gives the same stream, other seeds and labels differ")
    func streams() {
        var a = SeededGenerator(seed: 7)
        var b = SeededGenerator(seed: 7)
        var c = SeededGenerator(seed: 8)
        let sa = (0..<100).map { _ in a.next() }
        #expect(sa == (0..<100).map { _ in b.next() })
        #expect(sa != (0..<100).map { _ in c.next() })
        #expect(SeededGenerator.derivedSeed(1, [1, 2]) != SeededGenerator.derivedSeed(1, [2, 1]))
        #expect(SeededGenerator.derivedSeed(1, [1]) != SeededGenerator.derivedSeed(1, [1, 0]))
        #expect(SeededGenerator.derivedSeed(1, [3]) == SeededGenerator.derivedSeed(1, [3]))
        var d = SeededGenerator(seed: 5, labels: 1, 2)
        var e = SeededGenerator(seed: SeededGenerator.derivedSeed(5, [1, 2]))
        #expect(d.next() == e.next())
    }

    @Test("uniform doubles lie in [0, 1) with mean 1/2 and variance 1/12")
    func uniform() {
        var g = SeededGenerator(seed: 1)
        let n = 200_000
        var sum = 0.0, sumSq = 0.0, low = 1.0, high = 0.0
        for _ in 0..<n {
            let u = g.nextUniform()
            sum += u; sumSq += u * u
            low = min(low, u); high = max(high, u)
        }
        let mean = sum / Double(n)
        #expect(low >= 0 && high < 1)
        #expect(abs(mean - 0.5) < 0.003)  // SE 0.00065
        #expect(abs(sumSq / Double(n) - mean * mean - 1.0 / 12) < 0.001)
        let r = g.nextUniform(in: 2...3)
        #expect(r >= 2 && r <= 3)
        let l = g.nextLogUniform(in: 300...6000)
        #expect(l >= 300 && l <= 6000 * (1 + 1e-12))
    }

    @Test("Gaussian deviates have mean 0, SD 1 and normal tails")
    func gaussian() {
        var g = SeededGenerator(seed: 2)
        let n = 200_000
        var sum = 0.0, sumSq = 0.0, beyond2 = 0
        for _ in 0..<n {
            let z = g.nextGaussian()
            sum += z; sumSq += z * z
            if abs(z) > 2 { beyond2 += 1 }
        }
        let mean = sum / Double(n)
        let sd = (sumSq / Double(n) - mean * mean).squareRoot()
        #expect(abs(mean) < 0.01)  // SE 0.0022
        #expect(abs(sd - 1) < 0.01)
        let tail = Double(beyond2) / Double(n)
        #expect(abs(tail - 0.0455) < 0.003)  // P(|Z| > 2) = 0.0455, SE 0.0005
        var h = SeededGenerator(seed: 2)
        #expect(abs(h.nextGaussian(mean: 10, standardDeviation: 0) - 10) == 0)
    }

    @Test("nextInt(below:) covers the range evenly, and 1 gives 0")
    func integers() {
        var g = SeededGenerator(seed: 3)
        var counts = [Int](repeating: 0, count: 7)
        for _ in 0..<70_000 { counts[g.nextInt(below: 7)] += 1 }
        for count in counts { #expect(abs(count - 10_000) < 500) }  // SD ≈ 93
        #expect(g.nextInt(below: 1) == 0)
        let big = g.nextInt(below: Int.max)
        #expect(big >= 0)
    }

    @Test("nextBool honours the extreme probabilities")
    func booleans() {
        var g = SeededGenerator(seed: 4)
        #expect((0..<1000).allSatisfy { _ in !g.nextBool(probability: 0) })
        #expect((0..<1000).allSatisfy { _ in g.nextBool(probability: 1) })
    }
}
