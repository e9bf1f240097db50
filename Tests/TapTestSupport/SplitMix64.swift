import Foundation

/// SplitMix64 (Steele, Lea & Flood 2014): a tiny, fast, seedable generator, so every synthetic
/// test input is reproducible bit for bit across platforms and library versions.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1), 53 random bits.
    public mutating func uniform() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Uniform in `range`.
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * uniform()
    }

    /// Uniform in `range`.
    public mutating func uniform(in range: ClosedRange<Double>) -> Double { uniform(range) }

    /// `true` with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { uniform() < p }

    /// Normal deviate by the Box–Muller transform.
    public mutating func gaussian(mean: Double = 0, sd: Double = 1) -> Double {
        let u1 = 1 - uniform()  // (0, 1], keeps log finite
        let u2 = uniform()
        return mean + sd * (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// A standard normal variate.
    public mutating func normal() -> Double { gaussian() }
}
