/// A reproducible play order: a Fisher–Yates shuffle of `0..<count` driven by SplitMix64
/// (Steele, Lea & Flood 2014) from `seed`. The same seed gives the same order on every
/// platform, so a session's track order can be rebuilt from the seed alone.
public func shuffledPlayOrder(count: Int, seed: UInt64) -> [Int] {
    var order = Array(0..<max(count, 0))
    var state = seed
    for index in stride(from: order.count - 1, to: 0, by: -1) {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        order.swapAt(index, Int(z % UInt64(index + 1)))
    }
    return order
}
