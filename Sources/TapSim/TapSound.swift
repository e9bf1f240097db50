import TapStatistics

/// The timbre of the surface a participant taps on in one task: every tap of the task is a
/// random variation of it.
///
/// Drawn per task: 2–4 resonances with frequencies log-uniform in 300 Hz – 6 kHz, decay time
/// constants log-uniform in 2–25 ms and amplitudes uniform in 0.3–1; an attack time
/// log-uniform in 0.1–1 ms and an attack shape; a contact-noise burst of 1–3 ms with a gain of
/// 0.2–1 times the summed resonance amplitudes.
struct TapSurface: Sendable {
    static let frequencyRange = 300.0...6000.0
    static let decayRange = 0.002...0.025
    static let attackRange = 0.0001...0.001
    static let burstDurationRange = 0.001...0.003

    var frequencies: [Double]
    var decays: [Double]
    var amplitudes: [Double]
    var attack: Double
    var attackBlend: Double
    var burstGain: Double
    var burstDuration: Double

    init(generator g: inout SeededGenerator) {
        let count = 2 + g.nextInt(below: 3)
        frequencies = (0..<count).map { _ in g.nextLogUniform(in: Self.frequencyRange) }
        decays = (0..<count).map { _ in g.nextLogUniform(in: Self.decayRange) }
        amplitudes = (0..<count).map { _ in g.nextUniform(in: 0.3...1.0) }
        attack = g.nextLogUniform(in: Self.attackRange)
        attackBlend = g.nextUniform()
        burstGain = g.nextUniform(in: 0.2...1.0) * amplitudes.reduce(0, +)
        burstDuration = g.nextUniform(in: Self.burstDurationRange)
    }

    /// One tap on this surface. Per tap: each frequency moves by a Gaussian 0.15 octave, each
    /// decay by a factor e^N(0, 0.2²), each amplitude by ×U(0.7, 1.3) with a uniform random
    /// phase; the attack time by e^N(0, 0.3²), the attack shape by N(0, 0.1²), the burst
    /// duration by e^N(0, 0.2²) and its gain by ×U(0.7, 1.3) — each clamped to the ranges above.
    func drawTap(generator g: inout SeededGenerator, sampleRate: Double) -> TapSound {
        let nyquistGuard = 0.45 * sampleRate
        var resonances: [Resonance] = []
        resonances.reserveCapacity(frequencies.count)
        for k in frequencies.indices {
            let octaves = 0.15 * g.nextGaussian()
            let frequency = clamp(frequencies[k] * PortableMath.exp(octaves * PortableMath.ln2),
                                  Self.frequencyRange)
            let decay = clamp(decays[k] * PortableMath.exp(0.2 * g.nextGaussian()), Self.decayRange)
            let amplitude = amplitudes[k] * g.nextUniform(in: 0.7...1.3)
            let phase = PortableMath.twoPi * g.nextUniform()
            resonances.append(Resonance(frequency: min(frequency, nyquistGuard), decay: decay,
                                        amplitude: amplitude, phase: phase))
        }
        let tapAttack = clamp(attack * PortableMath.exp(0.3 * g.nextGaussian()), Self.attackRange)
        let blend = clamp(attackBlend + 0.1 * g.nextGaussian(), 0...1)
        let duration = clamp(burstDuration * PortableMath.exp(0.2 * g.nextGaussian()),
                             Self.burstDurationRange)
        let gain = burstGain * g.nextUniform(in: 0.7...1.3)
        return TapSound(resonances: resonances, attack: tapAttack, attackBlend: blend,
                        burstGain: gain, burstDuration: duration, noiseSeed: g.next())
    }
}

/// One exponentially damped sinusoid: a·e^(−t/τ)·sin(2πft + φ).
struct Resonance: Sendable {
    var frequency: Double
    var decay: Double
    var amplitude: Double
    var phase: Double
}

/// One tap sound, before level normalisation:
///
///     tap(n) = a(n/A) · [ Σₖ aₖ·e^(−n/(τₖ·fs))·sin(2πfₖn/fs + φₖ) + b(n) ]
///
/// with n frames after the start, A the attack in frames, and the attack envelope
/// `a(x) = (1 − m)·(1 − cos πx)/2 + m·sin(πx/2)` for x < 1, 1 after — a blend of a raised
/// cosine (zero slope at the start) and a quarter sine (abrupt start), both reaching 1 with
/// zero slope. `b(n) = g·(1 − n/D)²·N(0, 1)` for n < D is the broadband contact noise.
/// Since a(0) = 0 the sound is exactly 0 at its start frame and non-zero right after.
struct TapSound: Sendable {
    var resonances: [Resonance]
    var attack: Double
    var attackBlend: Double
    var burstGain: Double
    var burstDuration: Double
    var noiseSeed: UInt64

    /// Frames until the slowest resonance has decayed by 100 dB.
    func length(sampleRate: Double) -> Int {
        let slowest = resonances.map(\.decay).max() ?? 0
        let tail = (attack + slowest * SoundLevels.tailTimeConstants) * sampleRate
        return max(Int(tail.rounded(.up)) + 1, SoundLevels.windowFrames(0.010, sampleRate) + 1)
    }

    /// Writes the unnormalised sound into `output[0..<length]` and returns the length.
    func render(into output: inout [Double], sampleRate: Double) -> Int {
        let count = length(sampleRate: sampleRate)
        if output.count < count { output = [Double](repeating: 0, count: count) }
        output.withUnsafeMutableBufferPointer { out in
            for n in 0..<count { out[n] = 0 }
            for resonance in resonances {
                Synthesis.addDampedSine(into: out, count: count, frequency: resonance.frequency,
                                        decay: resonance.decay, amplitude: resonance.amplitude,
                                        phase: resonance.phase, sampleRate: sampleRate)
            }
            var noise = SeededGenerator(seed: noiseSeed)
            Synthesis.addNoiseBurst(into: out, count: count, frames: burstDuration * sampleRate, gain: burstGain, noise: &noise)
            Synthesis.applyAttack(to: out, attackFrames: attack * sampleRate, blend: attackBlend)
        }
        return count
    }
}

func clamp(_ value: Double, _ range: ClosedRange<Double>) -> Double {
    min(max(value, range.lowerBound), range.upperBound)
}
