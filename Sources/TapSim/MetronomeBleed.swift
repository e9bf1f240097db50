import TapStatistics

/// The metronome leaking from the headphones into the microphone: the same tonal beep at every
/// click.
///
/// Per task: a frequency uniform in 0.8–2 kHz, an exponential decay time constant uniform in
/// 25–35 ms (≈ 30 ms), and a raised-cosine attack of 0.5–2 ms. Each click's level over its
/// first 10 ms is `levelDB` above the reference noise power, like a tap's SNR.
struct MetronomeBleed: Sendable {
    var frequency: Double
    var decay: Double
    var attack: Double
    var levelDB: Double

    init(levelRange: ClosedRange<Double>, generator g: inout SeededGenerator) {
        levelDB = g.nextUniform(in: levelRange)
        frequency = g.nextUniform(in: 800...2000)
        decay = g.nextUniform(in: 0.025...0.035)
        attack = g.nextUniform(in: 0.0005...0.002)
    }

    /// Frames of one beep: until it has decayed by 100 dB.
    func length(sampleRate: Double) -> Int {
        Int(((attack + decay * SoundLevels.tailTimeConstants) * sampleRate).rounded(.up)) + 1
    }

    /// Adds a beep at each onset frame to `buffer`.
    func add(onsets: [Int], referencePower: Double, sampleRate: Double,
             into buffer: inout [Float]) {
        let count = length(sampleRate: sampleRate)
        var template = [Double](repeating: 0, count: count)
        template.withUnsafeMutableBufferPointer { out in
            Synthesis.addDampedSine(into: out, count: count, frequency: frequency, decay: decay,
                                    amplitude: 1, phase: 0, sampleRate: sampleRate)
            Synthesis.applyRaisedCosineAttack(to: out, attackFrames: attack * sampleRate)
        }
        let target = referencePower * PortableMath.power(decibels: levelDB)
        let window = SoundLevels.windowFrames(0.010, sampleRate)
        for onset in onsets {
            SoundLevels.addNormalized(template, count: count, window: window, targetPower: target,
                                      at: onset, into: &buffer)
        }
    }
}
