import TapSim
import TapStatistics

/// The corpus's own sound building blocks. Sines and exponentials go through `PortableMath`,
/// so a seed gives the same samples on every platform.
enum Sound {
    /// a·e^(−n/(τ·fs))·sin(2πfn/fs + φ) added to all of `out` (TapSim's rotating phasor).
    static func addDampedSine(_ out: inout [Double], frequency: Double, decay: Double,
                              amplitude: Double, phase: Double = 0, sampleRate: Double) {
        out.withUnsafeMutableBufferPointer { buffer in
            Synthesis.addDampedSine(into: buffer, count: buffer.count, frequency: frequency, decay: decay,
                                    amplitude: amplitude, phase: phase, sampleRate: sampleRate)
        }
    }

    /// Frames of a sound decaying with time constant `decay` down to −100 dB.
    static func length(decay: Double, sampleRate: Double) -> Int {
        Int(((decay * SoundLevels.tailTimeConstants) * sampleRate).rounded(.up)) + 1
    }

    /// Multiplies the first `frames` samples by a raised-cosine rise (0 at frame 0, so the
    /// sound's start frame is exactly 0 and it is non-zero from the next frame on).
    static func applyRise(_ out: inout [Double], frames: Double) {
        var n = 0
        while Double(n) < frames && n < out.count {
            out[n] *= (1 - PortableMath.cos(PortableMath.pi * Double(n) / frames)) / 2
            n += 1
        }
        if !out.isEmpty { out[0] = 0 }
    }

    /// Multiplies the last `frames` samples by a raised-cosine fall.
    static func applyFall(_ out: inout [Double], frames: Double) {
        let count = out.count
        var n = 0
        while Double(n) < frames && n < count {
            out[count - 1 - n] *= (1 - PortableMath.cos(PortableMath.pi * Double(n) / frames)) / 2
            n += 1
        }
    }

    /// RMS over the loudest window of `window` frames (hop window/4): the level of a short sound.
    static func loudestRMS(_ sound: [Double], window: Int) -> Double {
        guard !sound.isEmpty else { return 0 }
        let w = max(1, min(window, sound.count))
        var best = 0.0
        var start = 0
        while start + w <= sound.count {
            var sum = 0.0
            for n in start..<(start + w) { sum += sound[n] * sound[n] }
            best = max(best, sum / Double(w))
            start += max(1, w / 4)
        }
        return best.squareRoot()
    }

    /// Adds `gain · sound` to `buffer` from frame `start` (clipped at either end).
    static func add(_ sound: [Double], gain: Double, at start: Int, into buffer: inout [Float]) {
        for n in sound.indices {
            let index = start + n
            if index < 0 { continue }
            if index >= buffer.count { break }
            buffer[index] += Float(gain * sound[n])
        }
    }

    /// Adds `sound` scaled so that its loudest 10 ms has RMS `level` dBFS; returns the gain.
    @discardableResult
    static func add(_ sound: [Double], levelDBFS level: Double, at start: Int, sampleRate: Double,
                    into buffer: inout [Float]) -> Double {
        let rms = loudestRMS(sound, window: Int((0.010 * sampleRate).rounded()))
        guard rms > 0 else { return 0 }
        let gain = PortableMath.amplitude(decibels: level) / rms
        add(sound, gain: gain, at: start, into: &buffer)
        return gain
    }

    /// Gaussian noise.
    static func noise(count: Int, generator g: inout SeededGenerator) -> [Double] {
        (0..<count).map { _ in g.nextGaussian() }
    }
}

/// A biquad filter (transposed direct form II) with the coefficient formulae of
/// R. Bristow-Johnson's "Audio EQ Cookbook".
struct Biquad: Sendable {
    var b0 = 1.0, b1 = 0.0, b2 = 0.0, a1 = 0.0, a2 = 0.0
    private var z1 = 0.0, z2 = 0.0

    enum Kind { case lowPass, highPass, bandPass, peaking(gainDB: Double) }

    init(_ kind: Kind, frequency: Double, q: Double, sampleRate: Double) {
        let w0 = PortableMath.twoPi * min(frequency, 0.49 * sampleRate) / sampleRate
        let cosW = PortableMath.cos(w0), alpha = PortableMath.sin(w0) / (2 * q)
        var a0 = 1.0
        switch kind {
        case .lowPass:
            b0 = (1 - cosW) / 2; b1 = 1 - cosW; b2 = (1 - cosW) / 2
            a0 = 1 + alpha; a1 = -2 * cosW; a2 = 1 - alpha
        case .highPass:
            b0 = (1 + cosW) / 2; b1 = -(1 + cosW); b2 = (1 + cosW) / 2
            a0 = 1 + alpha; a1 = -2 * cosW; a2 = 1 - alpha
        case .bandPass:
            b0 = alpha; b1 = 0; b2 = -alpha
            a0 = 1 + alpha; a1 = -2 * cosW; a2 = 1 - alpha
        case let .peaking(gainDB):
            let a = PortableMath.amplitude(decibels: gainDB / 2)
            b0 = 1 + alpha * a; b1 = -2 * cosW; b2 = 1 - alpha * a
            a0 = 1 + alpha / a; a1 = -2 * cosW; a2 = 1 - alpha / a
        }
        b0 /= a0; b1 /= a0; b2 /= a0; a1 /= a0; a2 /= a0
    }

    mutating func process(_ x: Double) -> Double {
        let y = b0 * x + z1
        z1 = b1 * x - a1 * y + z2
        z2 = b2 * x - a2 * y
        return y
    }

    /// Filters `signal` in place.
    mutating func process(_ signal: inout [Double]) {
        for n in signal.indices { signal[n] = process(signal[n]) }
    }
}
