/// A small, fast, seedable random number generator: xoshiro256** (Blackman & Vigna 2018,
/// "Scrambled linear pseudorandom number generators", https://prng.di.unimi.it/), seeded
/// through SplitMix64 as its authors recommend.
///
/// Everything it produces — integers, uniform doubles, Gaussian deviates — is computed with
/// integer operations and IEEE-754 basic arithmetic only (its logarithm is a series, not
/// libm's), so the same seed gives bit-identical sequences on every platform. The standard library's
/// `random(in:using:)` helpers are deliberately avoided, because their algorithms are not
/// guaranteed to stay the same.
public struct SeededGenerator: RandomNumberGenerator, Sendable, Equatable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64
    /// The second deviate of the last polar-method pair, handed out by the next call.
    private var spareGaussian: Double?

    /// Creates a generator whose 256-bit state is filled from SplitMix64 started at `seed`.
    public init(seed: UInt64) {
        var state = seed
        s0 = SplitMix64.next(&state)
        s1 = SplitMix64.next(&state)
        s2 = SplitMix64.next(&state)
        s3 = SplitMix64.next(&state)
        spareGaussian = nil
    }

    /// Creates a generator for an independent sub-stream named by `labels` under `seed`
    /// (for example `(seed, user, track)`); equivalent to
    /// `SeededGenerator(seed: SeededGenerator.derivedSeed(seed, labels))`.
    public init(seed: UInt64, labels: UInt64...) {
        self.init(seed: Self.derivedSeed(seed, labels))
    }

    /// Hashes `seed` and a path of labels into a new seed.
    ///
    /// Each step applies the SplitMix64 finalizer, so nearby labels (track 1, track 2) give
    /// unrelated streams, and a stream depends only on its own path — not on how many other
    /// streams were used before it.
    public static func derivedSeed(_ seed: UInt64, _ labels: [UInt64]) -> UInt64 {
        var hash = SplitMix64.mix(seed &+ SplitMix64.golden)
        for label in labels {
            hash = SplitMix64.mix(hash ^ SplitMix64.mix(label &+ SplitMix64.golden))
        }
        return hash
    }

    /// The next 64 random bits (xoshiro256**).
    public mutating func next() -> UInt64 {
        let result = rotateLeft(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotateLeft(s3, 45)
        return result
    }

    /// A uniform double in [0, 1): the top 53 bits of ``next()`` times 2⁻⁵³.
    public mutating func nextUniform() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A uniform double in `range` (the upper bound is reached only up to rounding).
    public mutating func nextUniform(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * nextUniform()
    }

    /// A double whose logarithm is uniform between the logarithms of `range`'s bounds
    /// (both bounds must be positive) — for frequencies and time constants.
    public mutating func nextLogUniform(in range: ClosedRange<Double>) -> Double {
        let low = PortableMath.log(range.lowerBound)
        let high = PortableMath.log(range.upperBound)
        return PortableMath.exp(low + (high - low) * nextUniform())
    }

    /// `true` with probability `probability` (one uniform draw, always consumed).
    public mutating func nextBool(probability: Double) -> Bool {
        nextUniform() < probability
    }

    /// A uniform integer in `0..<bound` (`bound` > 0), unbiased by rejection (Lemire 2019,
    /// "Fast random integer generation in an interval", ACM TOMACS 29(1)).
    public mutating func nextInt(below bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        let range = UInt64(bound)
        var product = next().multipliedFullWidth(by: range)
        if product.low < range {
            let threshold = (0 &- range) % range
            while product.low < threshold {
                product = next().multipliedFullWidth(by: range)
            }
        }
        return Int(product.high)
    }

    /// A standard normal deviate (mean 0, SD 1).
    ///
    /// Box–Muller in Marsaglia's polar form (Marsaglia & Bray 1964): it needs one logarithm
    /// and one square root per pair and no sine or cosine; the logarithm is computed with basic arithmetic only,
    /// so results do not depend on the platform's libm.
    public mutating func nextGaussian() -> Double {
        if let spare = spareGaussian {
            spareGaussian = nil
            return spare
        }
        while true {
            let u = 2 * nextUniform() - 1
            let v = 2 * nextUniform() - 1
            let s = u * u + v * v
            if s > 0 && s < 1 {
                let factor = (-2 * PortableMath.log(s) / s).squareRoot()
                spareGaussian = v * factor
                return u * factor
            }
        }
    }

    /// A normal deviate with the given mean and standard deviation.
    public mutating func nextGaussian(mean: Double, standardDeviation: Double) -> Double {
        mean + standardDeviation * nextGaussian()
    }

    private func rotateLeft(_ x: UInt64, _ k: UInt64) -> UInt64 {
        (x << k) | (x >> (64 - k))
    }
}

/// SplitMix64 (Steele, Lea & Flood 2014, "Fast splittable pseudorandom number generators"),
/// used to seed ``SeededGenerator`` and to hash stream labels.
public enum SplitMix64 {
    static let golden: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// The SplitMix64 output function (a 64-bit bijective mixer).
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Advances `state` and returns the next output.
    public static func next(_ state: inout UInt64) -> UInt64 {
        state &+= golden
        return mix(state)
    }
}
