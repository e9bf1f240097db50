import TapStatistics

/// Mains hum: a fundamental (50 or 60 Hz, ±0.05 Hz per task) and harmonics 2–5.
///
/// Harmonic amplitudes relative to the fundamental are drawn per task: odd harmonics
/// (3, 5) U(0.2, 0.6), even ones (2, 4) U(0.05, 0.3) — transformer and rectifier hum is
/// rich in odd harmonics; phases are uniform. The sum is scaled to the requested RMS using
/// the analytic RMS √(Σ aₖ²/2).
struct MainsHum: Sendable {
    var fundamental: Double
    var amplitudes: [Double]
    var phases: [Double]

    init(nominalFrequency: Double, generator g: inout SeededGenerator) {
        fundamental = nominalFrequency + g.nextUniform(in: -0.05...0.05)
        amplitudes = [1.0]
        for harmonic in 2...5 {
            amplitudes.append(harmonic % 2 == 1 ? g.nextUniform(in: 0.2...0.6)
                                                : g.nextUniform(in: 0.05...0.3))
        }
        phases = amplitudes.map { _ in PortableMath.twoPi * g.nextUniform() }
    }

    /// Frames between re-computations of each oscillator's exact phase, so that rounding in
    /// the phasor recursion cannot accumulate over long recordings.
    static let blockFrames = 4096

    /// Adds the hum, with RMS `rms`, to `buffer`.
    func add(rms: Double, sampleRate: Double, into buffer: inout [Float]) {
        let sumOfSquares = amplitudes.reduce(0) { $0 + $1 * $1 }
        let scale = rms / (sumOfSquares / 2).squareRoot()
        var block = [Double](repeating: 0, count: Self.blockFrames)
        let count = buffer.count
        buffer.withUnsafeMutableBufferPointer { out in
            block.withUnsafeMutableBufferPointer { acc in
                var start = 0
                while start < count {
                    let length = min(Self.blockFrames, count - start)
                    for n in 0..<length { acc[n] = 0 }
                    for k in amplitudes.indices {
                        let frequency = fundamental * Double(k + 1)
                        // Exact phase at the block start, reduced to one cycle before sin/cos.
                        let cycles = frequency * Double(start) / sampleRate
                            + phases[k] / PortableMath.twoPi
                        let angle = PortableMath.twoPi * (cycles - cycles.rounded(.down))
                        Synthesis.addDampedSine(into: acc, count: length, frequency: frequency,
                                                decay: .infinity, amplitude: scale * amplitudes[k],
                                                phase: angle, sampleRate: sampleRate)
                    }
                    for n in 0..<length { out[start + n] += Float(acc[n]) }
                    start += length
                }
            }
        }
    }
}
