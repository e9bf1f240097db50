import Testing
import TapData

@Suite struct PlayOrderShuffleTests {
    @Test func isAReproduciblePermutation() {
        for count in [0, 1, 2, 7, 40] {
            for seed: UInt64 in [0, 1, 42, .max] {
                let order = shuffledPlayOrder(count: count, seed: seed)
                #expect(order.sorted() == Array(0..<count))
                #expect(order == shuffledPlayOrder(count: count, seed: seed))
            }
        }
        #expect(shuffledPlayOrder(count: 40, seed: 1) != shuffledPlayOrder(count: 40, seed: 2))
    }

    @Test func everyPositionIsReachedEvenly() {
        // Over 4000 seeds each track lands first about 1/8 of the time (Fisher–Yates is uniform).
        var firsts = [Int](repeating: 0, count: 8)
        for seed: UInt64 in 0..<4_000 { firsts[shuffledPlayOrder(count: 8, seed: seed)[0]] += 1 }
        #expect(firsts.allSatisfy { abs($0 - 500) < 100 }, "\(firsts)")
    }
}
