import TapStatistics

/// A knock or a cough, with its parameters drawn when the task is planned.
///
/// - **Knock**: 1–2 damped sinusoids (80–400 Hz log-uniform, decay 15–60 ms) for the thump,
///   plus a broadband noise burst of 0.3–1.5 ms with gain U(0.5, 1.5) for the sharp start,
///   under a raised-cosine attack of 0.05–0.2 ms. Cut 100 dB down, at most 0.8 s.
/// - **Cough**: 150–400 ms of Gaussian noise through two band-pass biquads ("formants" at
///   300–700 Hz and 1–2.5 kHz, Q 2–4) plus 0.3× the unfiltered noise, under an envelope that
///   rises as a raised cosine over 10–30 ms and falls as (1 − u)² to zero at the end.
///
/// Both start at exactly 0 at their start frame. The level is set over the first 50 ms.
struct DistractorSound: Sendable {
    var kind: DistractorKind
    var levelDB: Double
    var attack: Double
    var duration: Double
    var thumps: [Resonance]
    var burstGain: Double
    var burstDuration: Double
    var formants: [(frequency: Double, q: Double)]
    var noiseSeed: UInt64

    /// Level window: 50 ms covers the loud part of both kinds.
    static let levelWindow = 0.050

    init(kind: DistractorKind, levelDB: Double, generator g: inout SeededGenerator) {
        self.kind = kind
        self.levelDB = levelDB
        switch kind {
        case .knock:
            attack = g.nextUniform(in: 0.00005...0.0002)
            let count = 1 + g.nextInt(below: 2)
            thumps = (0..<count).map { _ in
                Resonance(frequency: g.nextLogUniform(in: 80...400),
                          decay: g.nextUniform(in: 0.015...0.060),
                          amplitude: g.nextUniform(in: 0.5...1.0),
                          phase: PortableMath.twoPi * g.nextUniform())
            }
            burstGain = g.nextUniform(in: 0.5...1.5)
            burstDuration = g.nextUniform(in: 0.0003...0.0015)
            formants = []
            let slowest = thumps.map(\.decay).max() ?? 0
            duration = min(0.8, attack + slowest * SoundLevels.tailTimeConstants)
        case .cough:
            duration = g.nextUniform(in: 0.150...0.400)
            attack = g.nextUniform(in: 0.010...0.030)
            thumps = []
            burstGain = 0
            burstDuration = 0
            formants = [(g.nextUniform(in: 300...700), g.nextUniform(in: 2...4)),
                        (g.nextUniform(in: 1000...2500), g.nextUniform(in: 2...4))]
        }
        noiseSeed = g.next()
    }

    /// Frames of the sound.
    func length(sampleRate: Double) -> Int {
        Int((duration * sampleRate).rounded(.up)) + 1
    }

    /// Writes the unnormalised sound into `output[0..<length]` and returns the length.
    func render(into output: inout [Double], sampleRate: Double) -> Int {
        let count = length(sampleRate: sampleRate)
        if output.count < count { output = [Double](repeating: 0, count: count) }
        var noise = SeededGenerator(seed: noiseSeed)
        output.withUnsafeMutableBufferPointer { out in
            for n in 0..<count { out[n] = 0 }
            switch kind {
            case .knock:
                for thump in thumps {
                    Synthesis.addDampedSine(into: out, count: count, frequency: thump.frequency,
                                            decay: thump.decay, amplitude: thump.amplitude,
                                            phase: thump.phase, sampleRate: sampleRate)
                }
                Synthesis.addNoiseBurst(into: out, count: count, frames: burstDuration * sampleRate, gain: burstGain, noise: &noise)
                Synthesis.applyRaisedCosineAttack(to: out, attackFrames: attack * sampleRate)
            case .cough:
                var low = Biquad(bandPass: formants[0].frequency, q: formants[0].q,
                                 sampleRate: sampleRate)
                var high = Biquad(bandPass: formants[1].frequency, q: formants[1].q,
                                  sampleRate: sampleRate)
                let attackFrames = attack * sampleRate
                let decayFrames = Double(count - 1) - attackFrames
                for n in 0..<count {
                    let x = noise.nextGaussian()
                    let voiced = low.process(x) + high.process(x) + 0.3 * x
                    let t = Double(n)
                    let envelope: Double
                    if t < attackFrames {
                        envelope = (1 - PortableMath.cos(PortableMath.pi * t / attackFrames)) / 2
                    } else {
                        let u = min(1, (t - attackFrames) / decayFrames)
                        envelope = (1 - u) * (1 - u)
                    }
                    out[n] = voiced * envelope
                }
            }
        }
        return count
    }
}
