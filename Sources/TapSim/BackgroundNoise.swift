import TapStatistics

/// Stationary background noise: white Gaussian noise mixed with pink-ish noise.
///
/// Pink noise comes from Paul Kellet's "refined" filter (a sum of one-pole low-passes,
/// published on musicdsp.org, 1999), driven by its own white Gaussian input. Its coefficients
/// are designed for 44.1 kHz; at other rates the slope is still roughly −3 dB/octave.
/// The two parts are weighted so that `pinkFraction` of the expected power is pink, and the
/// sum is then scaled so that its mean power over the task is exactly `power`.
struct BackgroundNoise: Sendable {
    var seed: UInt64
    var pinkFraction: Double
    var power: Double

    /// Frames run through the pink filter before the recording starts, so that its slowest
    /// pole (0.99886, τ ≈ 20 ms at 44.1 kHz) has settled.
    static let warmUpFrames = 8192

    /// Adds the noise to `buffer`. Two passes over the same random stream: the first measures
    /// the raw power, the second adds the scaled samples (no extra buffer needed).
    func add(into buffer: inout [Float]) {
        let count = buffer.count
        guard count > 0, power > 0 else { return }
        let whiteWeight = (1 - pinkFraction).squareRoot()
        let pinkWeight = (pinkFraction / PinkFilter.impulseEnergy).squareRoot()

        var rawEnergy = 0.0
        run(count: count, whiteWeight: whiteWeight, pinkWeight: pinkWeight) { _, value in
            rawEnergy += value * value
        }
        guard rawEnergy > 0 else { return }
        let scale = (power * Double(count) / rawEnergy).squareRoot()
        buffer.withUnsafeMutableBufferPointer { out in
            run(count: count, whiteWeight: whiteWeight, pinkWeight: pinkWeight) { n, value in
                out[n] += Float(scale * value)
            }
        }
    }

    private func run(count: Int, whiteWeight: Double, pinkWeight: Double,
                     _ body: (Int, Double) -> Void) {
        var generator = SeededGenerator(seed: seed)
        var pink = PinkFilter()
        for _ in 0..<Self.warmUpFrames {
            _ = generator.nextGaussian()
            _ = pink.process(generator.nextGaussian())
        }
        for n in 0..<count {
            let white = generator.nextGaussian()
            let pinkValue = pink.process(generator.nextGaussian())
            body(n, whiteWeight * white + pinkWeight * pinkValue)
        }
    }
}

/// Paul Kellet's refined pink-noise filter (musicdsp.org, "Pink noise filter", 1999):
/// accurate to ±0.05 dB above 9.2 Hz at 44.1 kHz.
struct PinkFilter: Sendable {
    private var b0 = 0.0, b1 = 0.0, b2 = 0.0, b3 = 0.0, b4 = 0.0, b5 = 0.0, b6 = 0.0

    mutating func process(_ white: Double) -> Double {
        b0 = 0.99886 * b0 + white * 0.0555179
        b1 = 0.99332 * b1 + white * 0.0750759
        b2 = 0.96900 * b2 + white * 0.1538520
        b3 = 0.86650 * b3 + white * 0.3104856
        b4 = 0.55000 * b4 + white * 0.5329522
        b5 = -0.7616 * b5 - white * 0.0168980
        let pink = b0 + b1 + b2 + b3 + b4 + b5 + b6 + white * 0.5362
        b6 = white * 0.115926
        return pink
    }

    /// Σ h[n]² of the filter's impulse response: its output power for unit-variance white
    /// input (computed once, by running the filter; the slowest pole is below 1e-9 after
    /// 20 000 frames).
    static let impulseEnergy: Double = {
        var filter = PinkFilter()
        var energy = 0.0
        for n in 0..<20_000 {
            let h = filter.process(n == 0 ? 1 : 0)
            energy += h * h
        }
        return energy
    }()
}
