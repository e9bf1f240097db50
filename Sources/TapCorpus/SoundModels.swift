import TapStatistics

/// A foreign metronome's click: one sound, drawn once per item and played at every beat.
struct MetronomeClick: Sendable {
    /// The rendered click at the stimulus's rate, starting at 0.
    var samples: [Double]
    /// What it is, for the notes (e.g. `f=1000Hz;tau=8ms`).
    var description: String

    init(_ condition: CorpusCondition, sampleRate fs: Double, generator g: inout SeededGenerator) {
        switch condition {
        case .sineBurst:
            // A sine burst of 30 ms whose envelope decays with a 5–10 ms time constant.
            let frequency = g.nextLogUniform(in: 500...4000)
            let tau = g.nextUniform(in: 0.005...0.010)
            var s = [Double](repeating: 0, count: Int((0.030 * fs).rounded()))
            Sound.addDampedSine(&s, frequency: frequency, decay: tau, amplitude: 1, sampleRate: fs)
            Sound.applyRise(&s, frames: 0.0005 * fs)
            Sound.applyFall(&s, frames: 0.002 * fs)
            samples = s
            description = "click=sine-burst;f_hz=\(Int(frequency.rounded()));tau_ms=\(format(tau * 1000))"
        case .woodblock:
            // A hollow wooden body: three inharmonic modes, the higher ones dying faster.
            let f0 = g.nextUniform(in: 700...1400)
            let ratios = [1.0, g.nextUniform(in: 2.3...2.7), g.nextUniform(in: 3.9...4.6)]
            let decays = [g.nextUniform(in: 0.020...0.040), g.nextUniform(in: 0.008...0.015), g.nextUniform(in: 0.003...0.007)]
            let amplitudes = [1.0, g.nextUniform(in: 0.3...0.6), g.nextUniform(in: 0.1...0.3)]
            var s = [Double](repeating: 0, count: Sound.length(decay: decays[0], sampleRate: fs))
            for mode in 0..<3 {
                Sound.addDampedSine(&s, frequency: f0 * ratios[mode], decay: decays[mode],
                                    amplitude: amplitudes[mode], phase: g.nextUniform(in: 0...6.28), sampleRate: fs)
            }
            Sound.applyRise(&s, frames: 0.0003 * fs)
            samples = s
            description = "click=woodblock;f_hz=\(Int(f0.rounded()));tau_ms=\(format(decays[0] * 1000))"
        case .noiseClick:
            // Band-passed noise decaying with a 1.5–4 ms time constant.
            let tau = g.nextUniform(in: 0.0015...0.004)
            let centre = g.nextLogUniform(in: 1500...6000)
            var s = Sound.noise(count: Sound.length(decay: tau, sampleRate: fs), generator: &g)
            var filter = Biquad(.bandPass, frequency: centre, q: 0.7, sampleRate: fs)
            filter.process(&s)
            let r = PortableMath.exp(-1 / (tau * fs))
            var envelope = 1.0
            for n in s.indices { s[n] *= envelope; envelope *= r }
            Sound.applyRise(&s, frames: 0.0002 * fs)
            samples = s
            description = "click=noise-click;centre_hz=\(Int(centre.rounded()));tau_ms=\(format(tau * 1000))"
        default:
            // .beep: a 50 ms tone with 3 ms raised-cosine ramps.
            let frequency = g.nextUniform(in: 440...1000)
            var s = [Double](repeating: 0, count: Int((0.050 * fs).rounded()))
            Sound.addDampedSine(&s, frequency: frequency, decay: 1e6, amplitude: 1, sampleRate: fs)
            Sound.applyRise(&s, frames: 0.003 * fs)
            Sound.applyFall(&s, frames: 0.003 * fs)
            samples = s
            description = "click=beep;f_hz=\(Int(frequency.rounded()));length_ms=50"
        }
    }
}

/// A key of a keyboard: the press (plastic hitting the end stop) and the softer release.
struct KeyClick: Sendable {
    var press: [Double]
    var release: [Double]

    init(sampleRate fs: Double, generator g: inout SeededGenerator) {
        press = Self.click(sampleRate: fs, bright: g.nextUniform(in: 2500...5000), body: g.nextUniform(in: 180...400),
                           generator: &g)
        release = Self.click(sampleRate: fs, bright: g.nextUniform(in: 3000...6000), body: g.nextUniform(in: 250...500),
                             generator: &g)
    }

    /// A short broadband tick (1–2 ms of high-passed noise), a plastic resonance and a dull body.
    static func click(sampleRate fs: Double, bright: Double, body: Double, generator g: inout SeededGenerator) -> [Double] {
        let bodyDecay = g.nextUniform(in: 0.006...0.012)
        var s = [Double](repeating: 0, count: Sound.length(decay: bodyDecay, sampleRate: fs))
        let tickFrames = Int((g.nextUniform(in: 0.001...0.002) * fs).rounded())
        var tick = Sound.noise(count: tickFrames, generator: &g)
        var highPass = Biquad(.highPass, frequency: 1500, q: 0.7, sampleRate: fs)
        highPass.process(&tick)
        for n in tick.indices { s[n] += 0.8 * tick[n] * (1 - Double(n) / Double(tickFrames)) }
        Sound.addDampedSine(&s, frequency: bright, decay: g.nextUniform(in: 0.0015...0.003), amplitude: 0.6,
                            phase: g.nextUniform(in: 0...6.28), sampleRate: fs)
        Sound.addDampedSine(&s, frequency: body, decay: bodyDecay, amplitude: 0.5, sampleRate: fs)
        Sound.applyRise(&s, frames: 0.0002 * fs)
        return s
    }
}

/// Handling noise of a phone held in the hand or lying on a table being touched.
enum HandlingSound {
    /// A low thump: two damped low modes with a soft 3–10 ms attack, low-passed at 250 Hz.
    static func thump(sampleRate fs: Double, generator g: inout SeededGenerator) -> [Double] {
        let f = g.nextUniform(in: 15...60)
        let decay = g.nextUniform(in: 0.030...0.080)
        var s = [Double](repeating: 0, count: Sound.length(decay: decay, sampleRate: fs))
        Sound.addDampedSine(&s, frequency: f, decay: decay, amplitude: 1, sampleRate: fs)
        Sound.addDampedSine(&s, frequency: f * g.nextUniform(in: 2.1...2.6), decay: decay / 2, amplitude: 0.4,
                            phase: g.nextUniform(in: 0...6.28), sampleRate: fs)
        var lowPass = Biquad(.lowPass, frequency: 250, q: 0.7, sampleRate: fs)
        lowPass.process(&s)
        Sound.applyRise(&s, frames: g.nextUniform(in: 0.003...0.010) * fs)
        return s
    }

    /// Rubbing: low-passed noise under a Hann-like swell of 0.3–1.2 s.
    static func rub(sampleRate fs: Double, generator g: inout SeededGenerator) -> [Double] {
        let count = Int((g.nextUniform(in: 0.3...1.2) * fs).rounded())
        var s = Sound.noise(count: count, generator: &g)
        var lowPass1 = Biquad(.lowPass, frequency: g.nextUniform(in: 150...400), q: 0.7, sampleRate: fs)
        var lowPass2 = lowPass1
        lowPass1.process(&s)
        lowPass2.process(&s)
        for n in s.indices {
            s[n] *= (1 - PortableMath.cos(PortableMath.twoPi * Double(n) / Double(count))) / 2
        }
        return s
    }
}

/// A number with three decimals at most, for the notes.
func format(_ value: Double, decimals: Int = 3) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = "\(rounded)"
    if text.hasSuffix(".0") { text.removeLast(2) }
    return text
}
