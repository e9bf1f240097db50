import Foundation

/// The resampler's filter: a Kaiser-windowed sinc low-pass, sampled at every one of the `L`
/// fractional input positions an output frame can fall on (one *phase* per position).
///
/// Output frame `k` lies at input time `k·M/L = n + p/L` (whole part `n`, phase `p`). Its
/// value is `Σ_m coefficient(p, m) · x[n + 1 − K + m]` for `m` in `0 ..< 2K`: the `2K` input
/// frames nearest to it, `K` on each side, so the filter is centred on the output's own
/// time and adds no delay.
struct PolyphaseFilterBank: Sendable {
    /// Output frames per `downFactor` input frames (`L`, the output rate over the gcd).
    let upFactor: Int
    /// Input frames per `upFactor` output frames (`M`, the input rate over the gcd).
    let downFactor: Int
    /// Input frames used on each side of an output frame (`K`).
    let halfLength: Int
    /// The coefficients, phase by phase, `tapCount` per phase, contiguous.
    let coefficients: [Float]

    /// Taps per phase, a multiple of 8 so the dot product runs in whole SIMD vectors.
    var tapCount: Int { 2 * halfLength }

    /// The largest table built (64 MiB of `Float`). Rates with a tiny common divisor make
    /// large tables: 44 100 → 48 001 Hz needs 48 001 phases (6.5 M coefficients at
    /// `.standard`, built), 44 100 → 192 001 Hz needs 192 001 (26 M, refused).
    static let maximumCoefficientCount = 1 << 24

    /// Designs the filter for converting by `upFactor / downFactor` (both already divided by
    /// their gcd); `nil` when the table would exceed ``maximumCoefficientCount``.
    init?(upFactor: Int, downFactor: Int, quality: Resampler.Quality) {
        // Frequencies in cycles per input frame. The band edges are fractions of the lower
        // rate; when downsampling that is the output rate, L/M of the input rate.
        let lowerRateFraction = min(1, Double(upFactor) / Double(downFactor))
        let passbandEdge = quality.passbandEdge * lowerRateFraction
        let stopbandEdge = quality.stopbandEdge * lowerRateFraction
        let cutoff = (passbandEdge + stopbandEdge) / 2
        let taps = KaiserWindow.length(attenuation: quality.designAttenuation,
                                       transitionWidth: stopbandEdge - passbandEdge)
        // Round K up to a multiple of 4 (2K a multiple of 8); never fewer input frames on a
        // side than one output step spans, so every input frame is seen by some output.
        let multiple = 4
        let minimumHalf = max(Int((taps / 2).rounded(.up)), (downFactor + upFactor - 1) / upFactor)
        let halfLength = (minimumHalf + multiple - 1) / multiple * multiple
        guard upFactor <= Self.maximumCoefficientCount / (2 * halfLength) else { return nil }

        let beta = KaiserWindow.beta(attenuation: quality.designAttenuation)
        let tapCount = 2 * halfLength
        var coefficients = [Float](repeating: 0, count: upFactor * tapCount)
        var phaseTaps = [Double](repeating: 0, count: tapCount)
        for phase in 0..<upFactor {
            for tap in 0..<tapCount {
                // Distance from the output instant to the input frame this tap weighs.
                let distance = Double(phase + (halfLength - 1 - tap) * upFactor) / Double(upFactor)
                phaseTaps[tap] = 2 * cutoff * Self.sinc(2 * cutoff * distance)
                    * KaiserWindow.value(at: distance / Double(halfLength), beta: beta)
            }
            // Unit gain at 0 Hz in every phase, so a constant input stays exactly constant
            // instead of carrying a ripple at the phase rate.
            let sum = phaseTaps.reduce(0, +)
            for tap in 0..<tapCount {
                coefficients[phase * tapCount + tap] = Float(phaseTaps[tap] / sum)
            }
        }
        self.upFactor = upFactor
        self.downFactor = downFactor
        self.halfLength = halfLength
        self.coefficients = coefficients
    }

    /// sin(πx)/(πx).
    static func sinc(_ x: Double) -> Double {
        x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
    }
}

/// Σ a[i]·b[i] over `count` floats, `count` a multiple of 8, in a fixed order (two 8-lane
/// accumulators), so the result does not depend on where the buffers lie in memory — that is
/// what makes the output identical for any block split.
@inline(__always)
func dotProduct(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
    let rawA = UnsafeRawPointer(a)
    let rawB = UnsafeRawPointer(b)
    let stride = MemoryLayout<Float>.stride
    var sum0 = SIMD8<Float>()
    var sum1 = SIMD8<Float>()
    var i = 0
    while i + 16 <= count {
        let offset0 = i * stride
        let offset1 = offset0 + 8 * stride
        sum0 += rawA.loadUnaligned(fromByteOffset: offset0, as: SIMD8<Float>.self)
            * rawB.loadUnaligned(fromByteOffset: offset0, as: SIMD8<Float>.self)
        sum1 += rawA.loadUnaligned(fromByteOffset: offset1, as: SIMD8<Float>.self)
            * rawB.loadUnaligned(fromByteOffset: offset1, as: SIMD8<Float>.self)
        i += 16
    }
    if i < count {
        sum0 += rawA.loadUnaligned(fromByteOffset: i * stride, as: SIMD8<Float>.self)
            * rawB.loadUnaligned(fromByteOffset: i * stride, as: SIMD8<Float>.self)
    }
    return (sum0 + sum1).sum()
}

/// ``dotProduct(_:_:count:)`` of one coefficient run with two channels at once: each
/// coefficient vector is loaded once for both, which is what limits the speed. Each result is
/// bit-identical to `dotProduct` on its channel alone (same accumulators, same order).
@inline(__always)
func dotProducts(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ c: UnsafePointer<Float>,
                 count: Int) -> (Float, Float) {
    let rawA = UnsafeRawPointer(a)
    let rawB = UnsafeRawPointer(b)
    let rawC = UnsafeRawPointer(c)
    let stride = MemoryLayout<Float>.stride
    var sumB0 = SIMD8<Float>()
    var sumB1 = SIMD8<Float>()
    var sumC0 = SIMD8<Float>()
    var sumC1 = SIMD8<Float>()
    var i = 0
    while i + 16 <= count {
        let offset0 = i * stride
        let offset1 = offset0 + 8 * stride
        let a0 = rawA.loadUnaligned(fromByteOffset: offset0, as: SIMD8<Float>.self)
        let a1 = rawA.loadUnaligned(fromByteOffset: offset1, as: SIMD8<Float>.self)
        sumB0 += a0 * rawB.loadUnaligned(fromByteOffset: offset0, as: SIMD8<Float>.self)
        sumB1 += a1 * rawB.loadUnaligned(fromByteOffset: offset1, as: SIMD8<Float>.self)
        sumC0 += a0 * rawC.loadUnaligned(fromByteOffset: offset0, as: SIMD8<Float>.self)
        sumC1 += a1 * rawC.loadUnaligned(fromByteOffset: offset1, as: SIMD8<Float>.self)
        i += 16
    }
    if i < count {
        let a0 = rawA.loadUnaligned(fromByteOffset: i * stride, as: SIMD8<Float>.self)
        sumB0 += a0 * rawB.loadUnaligned(fromByteOffset: i * stride, as: SIMD8<Float>.self)
        sumC0 += a0 * rawC.loadUnaligned(fromByteOffset: i * stride, as: SIMD8<Float>.self)
    }
    return ((sumB0 + sumB1).sum(), (sumC0 + sumC1).sum())
}
