import TapStatistics

/// Building blocks shared by the sound models: recursive oscillators, envelopes, filters.
/// Per-sample work is multiply–add only; sines and exponentials are evaluated once per
/// sound (or once per block), never per sample.
package enum Synthesis {
    /// Adds a·e^(−n/(τ·fs))·sin(2πfn/fs + φ) for n in 0..<count, by rotating a complex phasor
    /// z ← z·r·e^(iω) (stable: |r·e^(iω)| < 1, so rounding errors decay with the sound).
    package static func addDampedSine(into out: UnsafeMutableBufferPointer<Double>, count: Int,
                              frequency: Double, decay: Double, amplitude: Double,
                              phase: Double, sampleRate: Double) {
        let omega = PortableMath.twoPi * frequency / sampleRate
        let r = PortableMath.exp(-1 / (decay * sampleRate))
        let stepRe = r * PortableMath.cos(omega)
        let stepIm = r * PortableMath.sin(omega)
        var re = amplitude * PortableMath.cos(phase)
        var im = amplitude * PortableMath.sin(phase)
        for n in 0..<min(count, out.count) {
            out[n] += im
            let nextRe = re * stepRe - im * stepIm
            im = re * stepIm + im * stepRe
            re = nextRe
        }
    }

    /// Multiplies the start of `out` by the attack envelope
    /// a(x) = (1 − m)·(1 − cos πx)/2 + m·sin(πx/2), x = n/attackFrames < 1 (then 1).
    static func applyAttack(to out: UnsafeMutableBufferPointer<Double>, attackFrames: Double,
                            blend m: Double) {
        var n = 0
        while Double(n) < attackFrames && n < out.count {
            let x = Double(n) / attackFrames
            let raisedCosine = (1 - PortableMath.cos(PortableMath.pi * x)) / 2
            let quarterSine = PortableMath.sin(PortableMath.pi / 2 * x)
            out[n] *= (1 - m) * raisedCosine + m * quarterSine
            n += 1
        }
    }

    /// Multiplies the start of `out` by a raised-cosine rise (1 − cos πx)/2 over `attackFrames`.
    /// Adds a contact-noise burst: Gaussian noise under a quadratic fall from `gain` to zero
    /// over `frames` (fractional) frames — the broadband click that starts a tap or a knock.
    static func addNoiseBurst(into out: UnsafeMutableBufferPointer<Double>, count: Int, frames: Double,
                              gain: Double, noise: inout SeededGenerator) {
        var n = 0
        while Double(n) < frames && n < count {
            let fall = 1 - Double(n) / frames
            out[n] += gain * fall * fall * noise.nextGaussian()
            n += 1
        }
    }

    static func applyRaisedCosineAttack(to out: UnsafeMutableBufferPointer<Double>,
                                        attackFrames: Double) {
        applyAttack(to: out, attackFrames: attackFrames, blend: 0)
    }
}

/// A biquad filter in transposed direct form II.
struct Biquad: Sendable {
    var b0, b1, b2, a1, a2: Double
    private var z1 = 0.0
    private var z2 = 0.0

    /// Band-pass with 0 dB peak gain (Bristow-Johnson, "Cookbook formulae for audio EQ biquad
    /// filter coefficients").
    init(bandPass frequency: Double, q: Double, sampleRate: Double) {
        let w0 = PortableMath.twoPi * frequency / sampleRate
        let alpha = PortableMath.sin(w0) / (2 * q)
        let a0 = 1 + alpha
        b0 = alpha / a0
        b1 = 0
        b2 = -alpha / a0
        a1 = -2 * PortableMath.cos(w0) / a0
        a2 = (1 - alpha) / a0
    }

    mutating func process(_ x: Double) -> Double {
        let y = b0 * x + z1
        z1 = b1 * x - a1 * y + z2
        z2 = b2 * x - a2 * y
        return y
    }
}

/// Level conventions shared by all sounds.
package enum SoundLevels {
    /// e^(−11.513) = 10⁻⁵: sounds are cut 100 dB below their envelope peak.
    package static let tailTimeConstants = 11.512925464970229

    /// The number of frames in a level window of `seconds`: round(seconds · sampleRate).
    static func windowFrames(_ seconds: Double, _ sampleRate: Double) -> Int {
        max(1, Int((seconds * sampleRate).rounded()))
    }

    /// Mean power of `sound[0..<window]` (frames past `count` count as 0).
    static func windowPower(_ sound: UnsafeBufferPointer<Double>, count: Int,
                            window: Int) -> Double {
        var sum = 0.0
        for n in 0..<min(count, window) { sum += sound[n] * sound[n] }
        return sum / Double(window)
    }

    /// Scales `sound[0..<count]` so that its mean power over the first `window` frames is
    /// `targetPower`, and adds it to `buffer` from `start` on (clipped at the buffer's end).
    static func addNormalized(_ sound: [Double], count: Int, window: Int, targetPower: Double,
                              at start: Int, into buffer: inout [Float]) {
        sound.withUnsafeBufferPointer { s in
            let power = windowPower(s, count: count, window: window)
            guard power > 0 else { return }
            let gain = (targetPower / power).squareRoot()
            buffer.withUnsafeMutableBufferPointer { out in
                let end = min(count, out.count - start)
                guard end > 0 else { return }
                for n in 0..<end { out[start + n] += Float(gain * s[n]) }
            }
        }
    }
}
