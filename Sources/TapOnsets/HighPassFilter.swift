import Foundation

/// A 4th-order Butterworth high-pass as two cascaded biquads (coefficients after R. Bristow-
/// Johnson, "Cookbook formulae for audio EQ biquad filter coefficients"; pole Qs of a
/// 4th-order Butterworth are 1/(2 cos(π/8)) and 1/(2 cos(3π/8))).
///
/// Causal on purpose: the response to a transient cannot start before the transient, so the
/// filter adds no negative bias to onset times.
struct HighPassFilter: Sendable {
    private struct Biquad: Sendable {
        typealias Value = SIMD2<Double>
        var b0, b1, b2, a1, a2: Double
        var z1 = Value(), z2 = Value()

        init(cutoff: Double, q: Double, sampleRate: Double) {
            let w0 = 2 * Double.pi * cutoff / sampleRate
            let alpha = sin(w0) / (2 * q)
            let cosw = cos(w0)
            let a0 = 1 + alpha
            b0 = (1 + cosw) / 2 / a0
            b1 = -(1 + cosw) / a0
            b2 = (1 + cosw) / 2 / a0
            a1 = -2 * cosw / a0
            a2 = (1 - alpha) / a0
        }

        /// The same section with its state at rest.
        var atRest: Biquad {
            var copy = self
            (copy.z1, copy.z2) = (Value(), Value())
            return copy
        }

        /// The radius of the poles: the state's influence shrinks by this factor per sample.
        var poleRadius: Double { a2.squareRoot() }

        /// Transposed direct form II: one multiply-add chain per sample, good numerics.
        @inline(__always)
        mutating func process(_ x: Value) -> Value {
            let y = b0 * x + z1
            z1 = b1 * x - a1 * y + z2
            z2 = b2 * x - a2 * y
            return y
        }
    }

    private var first: Biquad
    private var second: Biquad
    /// Samples after which a wrong starting state has faded under 10⁻¹³ of the signal.
    private let settlingFrames: Int

    init(cutoff: Double, sampleRate: Double) {
        let cutoff = min(cutoff, sampleRate * 0.45)
        first = Biquad(cutoff: cutoff, q: 1 / (2 * cos(Double.pi / 8)), sampleRate: sampleRate)
        second = Biquad(cutoff: cutoff, q: 1 / (2 * cos(3 * Double.pi / 8)), sampleRate: sampleRate)
        // The slower section's poles set the fade; twice the plain estimate covers the
        // polynomial factor of a resonant pair.
        let radius = max(first.poleRadius, second.poleRadius)
        settlingFrames = radius < 1 ? Int((2 * log(1e-13) / log(radius)).rounded(.up)) : .max
    }

    /// Filters one sample (state in the first lane).
    @inline(__always)
    mutating func process(_ x: Float) -> Float {
        Float(second.process(first.process(SIMD2(Double(x), 0)))[0])
    }

    /// Filters a block.
    ///
    /// A recursive filter is a chain of dependent multiply-adds, one sample after another. A
    /// long block is cut in four parts filtered side by side in SIMD lanes: the first part
    /// continues from the filter's state, and each other part starts from rest
    /// ``settlingFrames`` before its first sample, by which time the starting state's trace has
    /// faded below a float's precision (the output is the sequential filter's to float
    /// rounding: `HighPassFilterTests`). Short blocks are filtered in one lane.
    mutating func process(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutablePointer<Float>) {
        let count = input.count
        let part = count / 4
        guard settlingFrames < .max, part >= 2 * settlingFrames, let base = input.baseAddress else {
            for index in 0..<count { output[index] = process(input[index]) }
            return
        }
        // Four lanes in two SIMD2 pairs: lanes 0, 1 run parts 0 and 1; lanes 2, 3 parts 2 and 3.
        var lowA = first, lowB = second
        var highA = first.atRest, highB = second.atRest
        let starts = (part, 2 * part, 3 * part)
        // Settle lanes 1–3 on the samples before their parts (lane 0 keeps its state).
        let settledLane0 = (lowA.z1[0], lowA.z2[0], lowB.z1[0], lowB.z2[0])
        for offset in -settlingFrames..<0 {
            let low = SIMD2(0, Double(base[starts.0 + offset]))
            let high = SIMD2(Double(base[starts.1 + offset]), Double(base[starts.2 + offset]))
            _ = lowB.process(lowA.process(low))
            _ = highB.process(highA.process(high))
        }
        (lowA.z1[0], lowA.z2[0], lowB.z1[0], lowB.z2[0]) = settledLane0
        for index in 0..<part {
            let low = SIMD2(Double(base[index]), Double(base[starts.0 + index]))
            let high = SIMD2(Double(base[starts.1 + index]), Double(base[starts.2 + index]))
            let lowOut = lowB.process(lowA.process(low))
            let highOut = highB.process(highA.process(high))
            output[index] = Float(lowOut[0])
            output[starts.0 + index] = Float(lowOut[1])
            output[starts.1 + index] = Float(highOut[0])
            output[starts.2 + index] = Float(highOut[1])
        }
        // Lane 3 carries on to the end of the block; its state is the filter's from there.
        var lastA = first.atRest, lastB = second.atRest
        (lastA.z1[0], lastA.z2[0], lastB.z1[0], lastB.z2[0]) = (highA.z1[1], highA.z2[1], highB.z1[1], highB.z2[1])
        first = lastA
        second = lastB
        for index in (4 * part)..<count { output[index] = process(input[index]) }
    }
}
