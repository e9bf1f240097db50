import TapStatistics

/// How a played stimulus reaches the microphone: a delay, a coloration (the loudspeaker or
/// headphone leak and the room), a clock drift between the playing and the recording device,
/// and a level.
///
/// Stimulus time τ (seconds from the start of the stimulus file) is heard in the recording at
/// `t = τ·(1 + driftPPM·10⁻⁶) + delay`.
struct AcousticPath: Sendable {
    /// Seconds from playing to recording, 1–10 ms.
    var delay: Double
    /// Recording-clock drift against the stimulus clock, parts per million (±20–50).
    var driftPPM: Double
    /// High-pass corner of the small transducer, Hz.
    var highPass: Double
    /// A resonance of the path: frequency (Hz) and gain (dB).
    var resonance: Double, resonanceGainDB: Double
    /// Low-pass corner, Hz.
    var lowPass: Double
    /// RMS over the loudest 10 ms of the leaked stimulus in the recording, dBFS (−45 to −30
    /// from headphones, by default).
    var levelDBFS: Double

    /// Headphone leak: the stimulus conditions' level range, dBFS.
    static let headphoneLevels: ClosedRange<Double> = -45...(-30)
    /// A loudspeaker heard by the microphone: as loud as the taps or louder, dBFS.
    static let loudspeakerLevels: ClosedRange<Double> = -25...(-10)

    init(generator g: inout SeededGenerator, levels: ClosedRange<Double> = headphoneLevels) {
        delay = g.nextUniform(in: 0.001...0.010)
        driftPPM = (g.nextBool(probability: 0.5) ? 1 : -1) * g.nextUniform(in: 20...50)
        highPass = g.nextUniform(in: 150...400)
        resonance = g.nextLogUniform(in: 1000...4000)
        resonanceGainDB = g.nextUniform(in: -6...6)
        lowPass = g.nextUniform(in: 6000...10000)
        levelDBFS = g.nextUniform(in: levels)
    }

    /// The recording time of stimulus time `tau`.
    func recordingTime(ofStimulusTime tau: Double) -> Double {
        tau * (1 + driftPPM * 1e-6) + delay
    }

    /// The notes: `path_delay_ms=…;drift_ppm=…;leak_dbfs=…`.
    var notes: String {
        "path_delay_ms=\(format(delay * 1000));drift_ppm=\(format(driftPPM, decimals: 1));leak_dbfs=\(format(levelDBFS, decimals: 1))"
    }

    /// The stimulus as the microphone hears it: colored, delayed, drifted, resampled to
    /// `outputRate`, `frameCount` frames, scaled to ``levelDBFS``.
    func apply(to stimulus: [Float], stimulusRate: Double, outputRate: Double, frameCount: Int) -> [Float] {
        var colored = stimulus.map(Double.init)
        var filters = [
            Biquad(.highPass, frequency: highPass, q: 0.7, sampleRate: stimulusRate),
            Biquad(.peaking(gainDB: resonanceGainDB), frequency: resonance, q: 1.5, sampleRate: stimulusRate),
            Biquad(.lowPass, frequency: lowPass, q: 0.7, sampleRate: stimulusRate),
        ]
        for index in filters.indices { filters[index].process(&colored) }
        // Output frame n is at time n/outputRate; it reads the stimulus at
        // τ = (t − delay)/(1 + drift), i.e. at input position τ·stimulusRate.
        let step = stimulusRate / outputRate / (1 + driftPPM * 1e-6)
        let start = -delay * stimulusRate / (1 + driftPPM * 1e-6)
        var out = FractionalResampler.resample(colored, start: start, step: step, count: frameCount)
        let rms = Sound.loudestRMS(out, window: Int((0.010 * outputRate).rounded()))
        let gain = rms > 0 ? PortableMath.amplitude(decibels: levelDBFS) / rms : 0
        for n in out.indices { out[n] *= gain }
        return out.map { Float($0) }
    }
}

/// Band-limited interpolation at arbitrary positions: a Blackman-windowed sinc of 2×16 taps
/// (in input samples, widened when the step exceeds 1 so it also low-passes), tabulated at
/// 256 phases per sample and interpolated linearly between them.
enum FractionalResampler {
    static let halfWidth = 16
    static let phases = 256

    /// `count` output samples, sample k read at input position `start + k·step`.
    static func resample(_ input: [Double], start: Double, step: Double, count: Int) -> [Double] {
        let cutoff = min(1, 1 / step) * 0.95
        let span = Int((Double(halfWidth) / cutoff).rounded(.up))
        // Table of h(u) for u = j/phases, j in 0...span·phases (h is even).
        let tableCount = span * phases + 2
        var table = [Double](repeating: 0, count: tableCount)
        for j in 0..<tableCount {
            let u = Double(j) / Double(phases)
            guard u < Double(span) else { continue }
            let x = PortableMath.pi * cutoff * u
            let sinc = u == 0 ? 1 : PortableMath.sin(x) / x
            let w = 0.42 + 0.5 * PortableMath.cos(PortableMath.pi * u / Double(span))
                + 0.08 * PortableMath.cos(2 * PortableMath.pi * u / Double(span))
            table[j] = cutoff * sinc * w
        }
        var output = [Double](repeating: 0, count: count)
        input.withUnsafeBufferPointer { x in
            table.withUnsafeBufferPointer { h in
                output.withUnsafeMutableBufferPointer { y in
                    for k in 0..<count {
                        let position = start + Double(k) * step
                        let centre = Int(position.rounded(.down))
                        let low = max(0, centre - span + 1), high = min(x.count - 1, centre + span)
                        guard low <= high else { continue }
                        var sum = 0.0
                        for i in low...high {
                            let u = abs(position - Double(i)) * Double(phases)
                            let j = Int(u)
                            guard j + 1 < h.count else { continue }
                            let fraction = u - Double(j)
                            sum += x[i] * (h[j] + fraction * (h[j + 1] - h[j]))
                        }
                        y[k] = sum
                    }
                }
            }
        }
        return output
    }
}
