import Foundation

/// SplitMix64 (Steele, Lea & Flood 2014): a tiny seeded generator so property tests are
/// reproducible across platforms and standard-library versions.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1) with 53 random bits.
    mutating func uniform() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Uniform in `range`.
    mutating func uniform(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + uniform() * (range.upperBound - range.lowerBound)
    }

    /// A standard normal variate (Box–Muller).
    mutating func normal() -> Double {
        let u1 = 1 - uniform()  // in (0, 1], keeps the logarithm finite
        let u2 = uniform()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}

/// |actual − expected| ≤ tolerance · max(1, |expected|)? A mixed relative/absolute check.
func isClose(_ actual: Double, _ expected: Double, relative tolerance: Double) -> Bool {
    abs(actual - expected) <= tolerance * Swift.max(1, abs(expected))
}

/// |actual − expected| ≤ tolerance · |expected|: a pure relative check.
func isRelativelyClose(_ actual: Double, _ expected: Double, _ tolerance: Double) -> Bool {
    abs(actual - expected) <= tolerance * abs(expected)
}
