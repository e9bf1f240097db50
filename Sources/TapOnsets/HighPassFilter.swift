import Foundation

/// A 4th-order Butterworth high-pass as two cascaded biquads (coefficients after R. Bristow-
/// Johnson, "Cookbook formulae for audio EQ biquad filter coefficients"; pole Qs of a
/// 4th-order Butterworth are 1/(2 cos(π/8)) and 1/(2 cos(3π/8))).
///
/// Causal on purpose: the response to a transient cannot start before the transient, so the
/// filter adds no negative bias to onset times.
struct HighPassFilter: Sendable {
    private struct Biquad: Sendable {
        var b0, b1, b2, a1, a2: Double
        var z1 = 0.0, z2 = 0.0

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

        /// Transposed direct form II: one multiply-add chain per sample, good numerics.
        @inline(__always)
        mutating func process(_ x: Double) -> Double {
            let y = b0 * x + z1
            z1 = b1 * x - a1 * y + z2
            z2 = b2 * x - a2 * y
            return y
        }
    }

    private var first: Biquad
    private var second: Biquad

    init(cutoff: Double, sampleRate: Double) {
        let cutoff = min(cutoff, sampleRate * 0.45)
        first = Biquad(cutoff: cutoff, q: 1 / (2 * cos(Double.pi / 8)), sampleRate: sampleRate)
        second = Biquad(cutoff: cutoff, q: 1 / (2 * cos(3 * Double.pi / 8)), sampleRate: sampleRate)
    }

    @inline(__always)
    mutating func process(_ x: Float) -> Float {
        Float(second.process(first.process(Double(x))))
    }

    /// Filters a block. The two sections are software-pipelined — the second works on
    /// sample n − 1 while the first works on sample n — so their recursions, each a chain of
    /// dependent multiply-adds, overlap instead of running back to back (about twice as fast).
    mutating func process(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutablePointer<Float>) {
        guard !input.isEmpty else { return }
        var a = first, b = second
        var pending = a.process(Double(input[0]))
        for index in 1..<input.count {
            let next = a.process(Double(input[index]))
            output[index - 1] = Float(b.process(pending))
            pending = next
        }
        output[input.count - 1] = Float(b.process(pending))
        first = a
        second = b
    }
}
