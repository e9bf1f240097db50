import Foundation
import Testing
import TapSim

@Suite("Truth")
struct TruthTests {
    /// One hour of tapping (≈ 6000 taps), truth only.
    static let long: TaskTruth = {
        var c = SimulationConfiguration.tapIt
        c.taskDuration = 3600
        return simulateTruth(user: 1, track: 1, configuration: c, seed: 77)
    }()

    @Test("true latency over a long task: mean 15 ± 1 ms, SD 5 ± 1 ms, never negative")
    func latencyStatistics() throws {
        let truth = Self.long
        let mean = try #require(truth.trueLatencyMean)
        let sd = try #require(truth.trueLatencySD)
        #expect(abs(mean - 0.015) < 0.001)
        #expect(abs(sd - 0.005) < 0.001)
        // Tighter: with ≈ 5000 latencies the standard errors are ≈ 0.07 ms (mean) and
        // ≈ 0.05 ms (SD); the uniform-quantisation approximation is far smaller.
        #expect(abs(mean - 0.015) < 0.0003)
        #expect(abs(sd - 0.005) < 0.0003)
        let latencies = truth.taps.compactMap(\.latency)
        #expect(latencies.allSatisfy { $0 >= 0 })
        // The summary covers audible taps only.
        let audible = truth.taps.filter(\.audible).compactMap(\.latency)
        #expect(abs(audible.reduce(0, +) / Double(audible.count) - mean) < 1e-12)
    }

    @Test("latency follows the configured model for other targets too")
    func otherLatency() throws {
        var c = SimulationConfiguration.tapIt
        c.taskDuration = 3600
        c.latencyMean = 0.040
        c.latencySD = 0.010
        c.bufferFrames = 512
        let truth = simulateTruth(user: 1, track: 1, configuration: c, seed: 1)
        #expect(abs(try #require(truth.trueLatencyMean) - 0.040) < 0.001)
        #expect(abs(try #require(truth.trueLatencySD) - 0.010) < 0.001)
    }

    @Test("touches fall on buffer boundaries and are logged rounded to microseconds, sorted")
    func quantisation() {
        let truth = Self.long
        let buffer = 256.0 / 44100
        var touchTimes = truth.taps.compactMap(\.touchTime) + truth.spuriousTouchTimes
        for t in touchTimes {
            let buffers = t / buffer
            #expect(abs(buffers - buffers.rounded()) < 1e-6, "touch \(t)")
        }
        touchTimes.sort()
        #expect(truth.touches == truth.touches.sorted())
        #expect(truth.touches.count == touchTimes.count)
        for (logged, exact) in zip(truth.touches, touchTimes) {
            #expect(abs(logged - exact) <= 0.5e-6 + 1e-12)
            #expect(abs(logged * 1e6 - (logged * 1e6).rounded()) < 1e-6)
        }
        for tap in truth.taps {
            if let touch = tap.touchTime {
                #expect(tap.latency! == touch - tap.startTime)
            } else {
                #expect(tap.latency == nil)
            }
        }
    }

    @Test("clock drift skews touch times by the given ppm")
    func drift() {
        var c = shortConfiguration(.clean, seconds: 20)
        let plain = simulateTruth(user: 1, track: 1, configuration: c, seed: 3)
        c.clockDriftPPM = 100
        let drifted = simulateTruth(user: 1, track: 1, configuration: c, seed: 3)
        for (a, b) in zip(plain.taps, drifted.taps) {
            #expect(abs(b.touchTime! - a.touchTime! * (1 + 100e-6)) < 1e-12)
        }
    }

    @Test("silent, missed and spurious counts are binomially plausible")
    func anomalyCounts() {
        let truth = Self.long
        let n = Double(truth.taps.count)
        #expect(n > 5000)
        func plausible(_ count: Int, _ p: Double) -> Bool {
            abs(Double(count) - n * p) < 4.5 * (n * p * (1 - p)).squareRoot()
        }
        #expect(plausible(truth.taps.filter { !$0.audible }.count, 0.02))
        #expect(plausible(truth.taps.filter { $0.touchTime == nil }.count, 0.02))
        #expect(plausible(truth.spuriousTouchTimes.count, 0.01))
        let clean = simulateTruth(user: 1, track: 1, configuration: .clean, seed: 77)
        #expect(clean.taps.allSatisfy { $0.audible && $0.touchTime != nil })
        #expect(clean.spuriousTouchTimes.isEmpty && clean.distractors.isEmpty)
        #expect(clean.touches.count == clean.taps.count)
    }

    @Test("stimulus and asynchronies: fixed IOI in range, taps start after the lead-in, mean asynchrony negative")
    func stimulus() {
        let c = SimulationConfiguration.tapIt
        var taskMeans: [Double] = []
        for track in 1...40 {
            let truth = simulateTruth(user: 1, track: track, configuration: c, seed: 5)
            #expect(c.tempoRange.contains(truth.interOnsetInterval))
            #expect(truth.clickTimes.first == c.firstClickTime)
            #expect(truth.clickTimes.last! <= c.taskDuration - c.endMargin)
            for (a, b) in zip(truth.clickTimes, truth.clickTimes.dropFirst()) {
                #expect(abs(b - a - truth.interOnsetInterval) < 1e-9)
            }
            #expect(truth.taps.first?.clickIndex == c.leadInClicks)
            #expect(truth.taps.count == truth.clickTimes.count - c.leadInClicks)
            for tap in truth.taps {
                #expect(abs(tap.asynchrony - (tap.startTime - truth.clickTimes[tap.clickIndex])) < 1e-12)
            }
            taskMeans.append(truth.asynchronyMean)
        }
        let grand = taskMeans.reduce(0, +) / Double(taskMeans.count)
        #expect(abs(grand - (-0.030)) < 0.008)  // SE 0.015/√40 = 0.0024
        let asynchronies = Self.long.taps.map(\.asynchrony)
        let mean = asynchronies.reduce(0, +) / Double(asynchronies.count)
        let sd = (asynchronies.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(asynchronies.count - 1)).squareRoot()
        #expect(abs(mean - Self.long.asynchronyMean) < 0.002)
        #expect(abs(sd - 0.020) < 0.002)
    }

    @Test("distractors arrive at the configured rate, mix kinds, and keep clear of tap starts")
    func distractors() {
        var c = SimulationConfiguration.tapIt
        c.taskDuration = 3600
        c.distractorRate = 0.1
        c.distractorClearance = 0
        let all = simulateTruth(user: 2, track: 1, configuration: c, seed: 1).distractors
        #expect(abs(Double(all.count) - 360) < 4.5 * 360.0.squareRoot())
        let knocks = all.filter { $0.kind == .knock }.count
        #expect(abs(Double(knocks) - Double(all.count) / 2) < 4.5 * (Double(all.count) / 4).squareRoot())
        c.distractorClearance = 0.1
        let truth = simulateTruth(user: 2, track: 1, configuration: c, seed: 1)
        #expect(truth.distractors.count < all.count)
        let starts = truth.taps.map(\.startTime)
        for d in truth.distractors {
            #expect(starts.allSatisfy { abs($0 - d.startTime) >= 0.1 })
            #expect(d.endFrame > d.startFrame)
        }
        // Clearance only removes candidates; the kept ones are unchanged.
        #expect(truth.distractors.allSatisfy { kept in all.contains(kept) })
    }

    @Test("edge cases: no clicks, one tap, no lead-in")
    func edgeCases() {
        var c = SimulationConfiguration.clean
        c.taskDuration = 1.2  // first click at 1 s is after duration − margin
        let none = simulateTask(user: 1, track: 1, configuration: c, seed: 1)
        #expect(none.truth.clickTimes.isEmpty && none.truth.taps.isEmpty && none.truth.touches.isEmpty)
        #expect(none.truth.trueLatencyMean == nil && none.truth.trueLatencySD == nil)
        #expect(none.samples.count == 52_920)
        #expect(none.samples.allSatisfy { $0.isFinite && abs($0) < 1e-3 })

        c.taskDuration = 2
        c.tempoRange = 0.8...0.8
        c.leadInClicks = 0
        let one = simulateTruth(user: 1, track: 1, configuration: c, seed: 1)
        #expect(one.clickTimes == [1.0])
        #expect(one.taps.count == 1)
        #expect(one.trueLatencyMean != nil && one.trueLatencySD == nil)

        c.leadInClicks = 5
        let listening = simulateTruth(user: 1, track: 1, configuration: c, seed: 1)
        #expect(listening.taps.isEmpty && listening.trueLatencyMean == nil)
    }

    @Test("truth encodes to JSON and back")
    func codable() throws {
        let truth = simulateTruth(user: 1, track: 1, configuration: .tapIt, seed: 4)
        let data = try JSONEncoder().encode(truth)
        #expect(try JSONDecoder().decode(TaskTruth.self, from: data) == truth)
    }
}

@Suite("Truth at the recording's end")
struct EndOfRecordingTests {
    @Test("no touch is logged after the recording ends")
    func touchesInsideRecording() {
        var c = SimulationConfiguration.tapIt
        c.taskDuration = 600
        c.endMargin = 0
        c.spuriousTouchProbability = 1
        let truth = simulateTruth(user: 1, track: 1, configuration: c, seed: 8)
        #expect(truth.touches.allSatisfy { $0 <= c.taskDuration })
        #expect(truth.spuriousTouchTimes.count < truth.taps.count)  // the last one(s) dropped
        #expect(truth.spuriousTouchTimes.count > truth.taps.count - 3)
    }
}
