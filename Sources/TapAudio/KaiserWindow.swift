import Foundation

/// The Kaiser window and its design formulas (Kaiser 1974; Oppenheim & Schafer, *Discrete-Time
/// Signal Processing*, §7.6), used to design the resampler's low-pass filter.
enum KaiserWindow {
    /// The shape parameter β that gives a window-method low-pass filter `attenuation` dB of
    /// stopband attenuation (and a passband ripple of the same relative size).
    static func beta(attenuation: Double) -> Double {
        if attenuation > 50 { return 0.1102 * (attenuation - 8.7) }
        if attenuation >= 21 {
            return 0.5842 * pow(attenuation - 21, 0.4) + 0.07886 * (attenuation - 21)
        }
        return 0
    }

    /// Kaiser's estimate of the filter length in taps (samples) for `attenuation` dB with a
    /// transition band `transitionWidth` wide, in cycles per sample.
    static func length(attenuation: Double, transitionWidth: Double) -> Double {
        (attenuation - 8) / (2.285 * 2 * Double.pi * transitionWidth)
    }

    /// The window at `position` in −1 … 1 (0 is the centre); 0 outside.
    static func value(at position: Double, beta: Double) -> Double {
        guard abs(position) <= 1 else { return 0 }
        return besselI0(beta * (1 - position * position).squareRoot()) / besselI0(beta)
    }

    /// The modified Bessel function of the first kind, order 0, by its power series
    /// Σ ((x/2)^k / k!)², which converges quickly for the β ≤ 20 used here.
    static func besselI0(_ x: Double) -> Double {
        let halfX = x / 2
        var term = 1.0
        var sum = 1.0
        var k = 1.0
        while term > sum * 1e-17 {
            let factor = halfX / k
            term *= factor * factor
            sum += term
            k += 1
        }
        return sum
    }
}
