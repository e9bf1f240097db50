import TapStatistics

/// The components of a recording, in the order they are mixed.
enum SoundComponent: CaseIterable {
    case backgroundNoise, hum, bleed, distractors, taps
}

extension TaskPlan {
    /// Adds one component to `buffer` (whose length is `frameCount`). `scratch` is reused
    /// between sounds to avoid allocating per tap.
    func render(_ component: SoundComponent, into buffer: inout [Float], scratch: inout [Double]) {
        let c = configuration
        let fs = c.sampleRate
        switch component {
        case .backgroundNoise:
            noise?.add(into: &buffer)
        case .hum:
            if let hum, let level = c.humLevelDB {
                let rms = referencePower.squareRoot() * PortableMath.amplitude(decibels: level)
                hum.add(rms: rms, sampleRate: fs, into: &buffer)
            }
        case .bleed:
            bleed?.add(onsets: bleedOnsetFrames, referencePower: referencePower, sampleRate: fs,
                       into: &buffer)
        case .distractors:
            let window = SoundLevels.windowFrames(DistractorSound.levelWindow, fs)
            for distractor in distractors {
                let count = distractor.sound.render(into: &scratch, sampleRate: fs)
                let target = referencePower * PortableMath.power(decibels: distractor.truth.levelDB)
                SoundLevels.addNormalized(scratch, count: count, window: window,
                                          targetPower: target, at: distractor.truth.startFrame,
                                          into: &buffer)
            }
        case .taps:
            let window = SoundLevels.windowFrames(0.010, fs)
            for tap in taps {
                guard let sound = tap.sound, let snr = tap.truth.snrDB else { continue }
                let count = sound.render(into: &scratch, sampleRate: fs)
                let target = referencePower * PortableMath.power(decibels: snr)
                SoundLevels.addNormalized(scratch, count: count, window: window,
                                          targetPower: target, at: tap.truth.startFrame,
                                          into: &buffer)
            }
        }
    }

    /// The gain (≤ 1) that brings the peak of `mix` to at most `peakLimit` (with a 1 ppm
    /// margin so `Float` rounding cannot overshoot).
    func headroomGain(for mix: [Float]) -> Double {
        var peak: Float = 0
        for x in mix { peak = max(peak, abs(x)) }
        let limit = configuration.peakLimit
        guard Double(peak) > limit else { return 1 }
        return limit / Double(peak) * (1 - 1e-6)
    }

    /// The finished task around `samples` (already scaled by `gain`).
    func task(user: Int, track: Int, samples: [Float], gain: Double) -> SimulatedTask {
        SimulatedTask(user: user, track: track, sampleRate: configuration.sampleRate,
                      channels: configuration.channels, samples: samples, outputGain: gain,
                      referenceNoiseRMS: gain * referencePower.squareRoot(), truth: truth)
    }
}

/// Multiplies every sample by `gain` (skipped when it is 1, so unscaled output stays exact).
func scale(_ samples: inout [Float], by gain: Double) {
    guard gain != 1 else { return }
    let factor = Float(gain)
    samples.withUnsafeMutableBufferPointer { s in
        for i in s.indices { s[i] *= factor }
    }
}
