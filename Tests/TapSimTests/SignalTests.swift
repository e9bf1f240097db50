import Testing
import TapSim

@Suite("Signal")
struct SignalTests {
    @Test("tap SNR: power over the first 10 ms against the background noise's mean power is within 0.1 dB",
          arguments: [SimulationConfiguration.tapIt, .hard, .clean])
    func snrDefinition(base: SimulationConfiguration) {
        let c = shortConfiguration(base, seconds: 15)
        let stems = simulateTaskStems(user: 3, track: 1, configuration: c, seed: 17)
        let task = stems.task
        let noisePower = meanPower(stems.backgroundNoise, 0..<stems.backgroundNoise.count)
        // The noise is the SNR reference.
        #expect(abs(decibels(noisePower / (task.referenceNoiseRMS * task.referenceNoiseRMS))) < 0.01)
        let window = Int((0.010 * c.sampleRate).rounded())
        let audible = task.truth.taps.filter(\.audible)
        #expect(audible.count > 10)
        for tap in audible {
            let power = meanPower(stems.taps, tap.startFrame..<(tap.startFrame + window))
            let measured = decibels(power / noisePower)
            #expect(abs(measured - tap.snrDB!) < 0.1, "tap at \(tap.startTime) s")
            #expect(c.snrRange.contains(tap.snrDB!))
        }
    }

    @Test("tap starts are exact: exactly 0 up to the start frame, non-zero right after")
    func tapStarts() {
        var c = SimulationConfiguration.tapIt.tapsOnly
        c.taskDuration = 60
        let task = simulateTask(user: 1, track: 1, configuration: c, seed: 23)
        let audible = task.truth.taps.filter(\.audible)
        #expect(audible.count > 60)
        var previousEnd = 0
        var checked = 0
        for tap in audible {
            defer { previousEnd = tap.endFrame }
            #expect(tap.startTime == Double(tap.startFrame) / c.sampleRate)
            guard previousEnd <= tap.startFrame - 1 else { continue }  // overlapping tail
            checked += 1
            #expect(task.samples[tap.startFrame - 1] == 0)
            #expect(task.samples[tap.startFrame] == 0)
            #expect(task.samples[tap.startFrame + 1] != 0)
            #expect(task.samples[(tap.startFrame + 1)..<(tap.startFrame + 20)].allSatisfy { $0 != 0 })
        }
        #expect(checked >= audible.count - 2)
        // Silent taps leave no trace.
        for tap in task.truth.taps where !tap.audible {
            #expect(tap.endFrame == tap.startFrame && tap.snrDB == nil)
            let covered = audible.contains { $0.startFrame < tap.startFrame && $0.endFrame > tap.startFrame + 1 }
            #expect(covered || task.samples[tap.startFrame + 1] == 0)
        }
    }

    @Test("output stays within the peak limit and the gain keeps SNRs")
    func headroom() {
        var c = shortConfiguration(.tapIt, seconds: 10)
        c.snrRange = 55...60  // forces the limiter: taps near full scale
        let stems = simulateTaskStems(user: 1, track: 1, configuration: c, seed: 4)
        let task = stems.task
        let peak = task.samples.map { abs($0) }.max() ?? 0
        #expect(task.outputGain < 1)
        #expect(Double(peak) <= 0.9)
        #expect(Double(peak) > 0.899)
        let noisePower = meanPower(stems.backgroundNoise, 0..<task.samples.count)
        // The noise is scaled with everything else: −50 dBFS + 20·log10(gain).
        #expect(abs(decibels(noisePower) - (-50 + 2 * decibels(task.outputGain))) < 0.01)
        let window = 441
        for tap in task.truth.taps where tap.audible {
            let measured = decibels(meanPower(stems.taps, tap.startFrame..<(tap.startFrame + window)) / noisePower)
            #expect(abs(measured - tap.snrDB!) < 0.1)
        }
        for preset in [SimulationConfiguration.tapIt, .hard, .clean] {
            let t = simulateTask(user: 2, track: 2, configuration: shortConfiguration(preset), seed: 9)
            #expect(t.samples.allSatisfy { abs($0) <= 0.9 && $0.isFinite })
            #expect(t.outputGain <= 1 && t.outputGain > 0)
        }
    }

    @Test("the stems add up to the samples")
    func stemsSum() {
        let stems = simulateTaskStems(user: 2, track: 5, configuration: shortConfiguration(.hard), seed: 31)
        var worst: Float = 0
        for i in stems.task.samples.indices {
            let sum = stems.backgroundNoise[i] + stems.hum[i] + stems.bleed[i] + stems.distractors[i] + stems.taps[i]
            worst = max(worst, abs(sum - stems.task.samples[i]))
        }
        #expect(worst < 1e-6)
        #expect(stems.hum.contains { $0 != 0 } && stems.bleed.contains { $0 != 0 })
    }

    @Test("hum, bleed and distractor levels follow their definitions")
    func componentLevels() {
        var c = shortConfiguration(.hard, seconds: 12)
        c.distractorRate = 1
        let stems = simulateTaskStems(user: 1, track: 3, configuration: c, seed: 12)
        let task = stems.task
        let reference = task.referenceNoiseRMS * task.referenceNoiseRMS
        let humLevel = decibels(meanPower(stems.hum, 0..<stems.hum.count) / reference)
        #expect(abs(humLevel - c.humLevelDB!) < 0.05)
        let bleedLevel = task.truth.bleedLevelDB!
        #expect(c.bleedLevelRange!.contains(bleedLevel))
        for onset in task.truth.bleedOnsetTimes.prefix(5) {
            let frame = Int((onset * c.sampleRate).rounded())
            #expect(abs(decibels(meanPower(stems.bleed, frame..<(frame + 441)) / reference) - bleedLevel) < 0.1)
            #expect(stems.bleed[frame] == 0 && stems.bleed[frame - 1] == 0 && stems.bleed[frame + 1] != 0)
        }
        #expect(!task.truth.distractors.isEmpty)
        #expect(Set(task.truth.distractors.map(\.kind)).count == 2)
        var previousEnd = 0
        for distractor in task.truth.distractors {
            defer { previousEnd = max(previousEnd, distractor.endFrame) }
            guard distractor.startFrame > previousEnd, distractor.endFrame <= task.samples.count else { continue }
            let window = distractor.startFrame..<(distractor.startFrame + 2205)
            let level = decibels(meanPower(stems.distractors, window) / reference)
            #expect(abs(level - distractor.levelDB) < 0.1, "\(distractor.kind) at \(distractor.startTime)")
            #expect(stems.distractors[distractor.startFrame] == 0)
            #expect(stems.distractors[distractor.startFrame + 1] != 0)
            #expect(c.distractorLevelRange.contains(distractor.levelDB))
        }
    }

    @Test("switched-off components are silent; the noise-free signal is exactly zero between sounds")
    func switchedOff() {
        let c = shortConfiguration(.tapIt).tapsOnly
        let stems = simulateTaskStems(user: 1, track: 1, configuration: c, seed: 2)
        #expect(stems.backgroundNoise.allSatisfy { $0 == 0 })
        #expect(stems.hum.allSatisfy { $0 == 0 } && stems.bleed.allSatisfy { $0 == 0 })
        #expect(stems.distractors.allSatisfy { $0 == 0 })
        let first = stems.task.truth.taps.first { $0.audible }!
        #expect(stems.task.samples[0...first.startFrame].allSatisfy { $0 == 0 })
    }

    @Test("the background noise is coloured: more power below 500 Hz than white noise would have")
    func noiseColour() {
        var c = shortConfiguration(.tapIt.tapsOnly, seconds: 4)
        c.includesBackgroundNoise = true
        let stems = simulateTaskStems(user: 1, track: 1, configuration: c, seed: 6)
        // One-pole low-pass at ~500 Hz: white noise keeps ≈ 500/22050·π/2 ≈ 3.6 % of its power.
        let a = 0.93
        var y = 0.0, low = 0.0, total = 0.0
        for x in stems.backgroundNoise {
            y = a * y + (1 - a) * Double(x)
            low += y * y
            total += Double(x) * Double(x)
        }
        #expect(low / total > 0.08)
        // White only for comparison.
        c.pinkNoiseFraction = 0
        let white = simulateTaskStems(user: 1, track: 1, configuration: c, seed: 6).backgroundNoise
        y = 0; low = 0; total = 0
        for x in white {
            y = a * y + (1 - a) * Double(x)
            low += y * y
            total += Double(x) * Double(x)
        }
        #expect(low / total < 0.05)
    }
}
