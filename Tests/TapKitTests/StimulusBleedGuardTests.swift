import Foundation
import Testing
import TapKit
@testable import TapLatency
import TapTestSupport

/// An experiment folder with a click-track stimulus — a 0.3 ms click of noise every 0.5 s,
/// jittered by up to ±40 ms (seeded) so that the click grid does not take the taps for
/// metronome bleed — and one recording in which a tap follows each click, over a noise floor at
/// −66 dBFS, with touches logged 20 ms after each tap.
///
/// - `fixedDelay`: a loopback or solenoid rig's taps: the same burst (3 ms decay, peaks near
///   −3 dBFS) 12 ms after every click, and the clicks themselves not recorded, as in the JACK
///   end-to-end tests. To stimulus-file removal the taps are a linear response to the stimulus:
///   bleed.
/// - otherwise: a human's taps, each its own burst (peaks near −18 dBFS), ±20 ms around each
///   click, and the clicks leaking into the microphone 3 ms late at their own level.
struct ClickTapExperiment {
    static let rate = 22_050.0
    static let stimulusDuration = 16.0
    static let recordingDuration = 17.0
    static let touchLatency = 0.020

    let stimulus: [Float]
    let recording: [Float]
    let taps: [Double]
    let touches: [Double]

    init(fixedDelay: Bool, seed: UInt64 = 7) {
        let rate = Self.rate
        var random = SplitMix64(seed: seed)
        var clicks: [Int] = []
        var time = 0.5
        while time < Self.stimulusDuration - 0.5 {
            clicks.append(Int((time * rate).rounded()))
            time += 0.5 + random.uniform(-0.040...0.040)
        }
        let click = (0..<Int(0.0025 * rate)).map { Float(0.3 * exp(-Double($0) / (0.0003 * rate)) * random.gaussian()) }
        var stimulus = [Float](repeating: 0, count: Int(Self.stimulusDuration * rate))
        for start in clicks { for (k, value) in click.enumerated() { stimulus[start + k] += value } }

        var recording = (0..<Int(Self.recordingDuration * rate)).map { _ in Float(0.0005 * random.gaussian()) }
        let amplitude = fixedDelay ? 0.3 : 0.05
        func burst() -> [Float] { (0..<Int(0.03 * rate)).map { Float(amplitude * exp(-Double($0) / (0.003 * rate)) * random.gaussian()) } }
        let machineBurst = burst()
        var taps: [Double] = []
        for start in clicks {
            let tap = start + Int(((fixedDelay ? 0.012 : random.uniform(-0.020...0.020)) * rate).rounded())
            for (k, value) in (fixedDelay ? machineBurst : burst()).enumerated() { recording[tap + k] += value }
            taps.append(Double(tap) / rate)
            if !fixedDelay {
                let bleed = start + Int((0.003 * rate).rounded())
                for (k, value) in click.enumerated() { recording[bleed + k] += value }
            }
        }
        self.stimulus = stimulus
        self.recording = recording
        self.taps = taps
        touches = taps.map { $0 + Self.touchLatency }
    }

    /// Writes `trackList.xml` naming `clicks.wav`, the stimulus, and `data/001_01.wav` and `.txt`.
    func write(experiment: String) throws {
        try FileManager.default.createDirectory(atPath: experiment + "/data", withIntermediateDirectories: true)
        try Signal(samples: stimulus, sampleRate: Self.rate).write(to: experiment + "/clicks.wav")
        try TrackList.write(["clicks.wav"], to: experiment + "/trackList.xml")
        try Signal(samples: recording, sampleRate: Self.rate).write(to: experiment + "/data/001_01.wav")
        try touches.map { String(format: "%f\n", $0) }.joined()
            .write(toFile: experiment + "/data/001_01.txt", atomically: true, encoding: .utf8)
    }
}

/// The latency analysis keeps stimulus-file removal for human taps, and sets it aside for the
/// click grid when it took a tapping machine's taps for bleed.
@Suite struct StimulusBleedGuardTests {
    func analysed(_ experiment: ClickTapExperiment, stimulusBleed: StimulusBleedMode = .auto) throws -> (TaskLatency, String) {
        let folder = TemporaryFolder()
        try experiment.write(experiment: folder.path)
        let report = try analyzeLatency(folder: folder.file("data"), options: LatencyAnalysisOptions(stimulusBleed: stimulusBleed), jobs: 1)
        #expect(report.failures.isEmpty, "\(report.failures)")
        return (try #require(report.tasks.first), folder.file("clicks.wav"))
    }

    /// A loopback rig: the same burst 12 ms after every click, touches 20 ms after it. The
    /// removal's path estimate takes the taps in (without the guard: 0 of 30 matched); the
    /// task falls back to the click grid, matches every touch at 20 ms, and says why.
    @Test func tapsAtAFixedDelayAfterEachClickFallBackToTheClickGrid() throws {
        let experiment = ClickTapExperiment(fixedDelay: true)
        let (task, stimulus) = try analysed(experiment)
        #expect(task.touches.count == experiment.touches.count && task.touches.count >= 25)
        #expect(task.match.pairs.count == task.touches.count, "\(task.match.pairs.count) of \(task.touches.count) matched")
        #expect(abs((task.latency?.median ?? 0) - ClickTapExperiment.touchLatency) < 0.001, "\(String(describing: task.latency))")
        let report = try #require(task.stimulusBleed)
        guard case .rejected(let reason) = report.status else {
            Issue.record("the removal was kept: \(report.message)")
            return
        }
        #expect(reason.hasPrefix("stimulus \(stimulus): "), "\(reason)")
        #expect(reason.contains("left 0 of \(task.touches.count) touches matched") && reason.contains("fixed delay"), "\(reason)")
        #expect(report.message.hasSuffix("; the metronome click grid was used instead"))
        #expect(!report.removed && report.reductionDB == nil && report.delay != nil)
        #expect(task.stimulusPath == stimulus)
        // In the JSON row: a fallback, with the reason.
        let row = try #require(LatencyRow(task).stimulusBleed)
        #expect(row.status == "fallback" && row.reason == reason && row.file == stimulus)
    }

    /// A human's taps, ±20 ms around jittered clicks that leak into the microphone: the removal
    /// matches every touch and is kept (with no touch unmatched, the click grid is never run).
    @Test func humanTapsAroundTheClicksKeepTheRemoval() throws {
        let experiment = ClickTapExperiment(fixedDelay: false)
        let (task, _) = try analysed(experiment)
        let report = try #require(task.stimulusBleed)
        #expect(report.removed, "\(report.message)")
        #expect(task.touches.count == experiment.touches.count && task.touches.count >= 25)
        #expect(task.match.pairs.count == task.touches.count, "\(task.match.pairs.count) of \(task.touches.count) matched")
        #expect(abs((task.latency?.median ?? 0) - ClickTapExperiment.touchLatency) < 0.001, "\(String(describing: task.latency))")
    }

    /// The rule's numbers on 30 touches: the click grid is run when more than 3 are left
    /// unmatched, and kept when it matches more than 3 more.
    @Test func theRuleNeedsClearlyFewerMatches() {
        func task(matched: Int, of touches: Int = 30) -> TaskLatency {
            let times = (0..<touches).map { 1 + 0.5 * Double($0) }
            let pairs = (0..<matched).map { MatchedPair(touchIndex: $0, onsetIndex: $0, touchTime: times[$0] + 0.02, onsetTime: times[$0]) }
            return TaskLatency(id: TaskID(user: 1, track: 1), touches: times.map { $0 + 0.02 }, onsets: [],
                               match: MatchResult(pairs: pairs, unmatchedTouchIndices: Array(matched..<touches), unmatchedOnsetIndices: [],
                                                  latencyEstimate: 0.02, tolerance: 0.015, drift: nil))
        }
        #expect(!StimulusBleedGuard.isSuspicious(task(matched: 27)))
        #expect(StimulusBleedGuard.isSuspicious(task(matched: 26)))
        #expect(!StimulusBleedGuard.isSuspicious(task(matched: 0, of: 0)))
        #expect(!StimulusBleedGuard.prefersGrid(removal: task(matched: 20), grid: task(matched: 23)))
        #expect(StimulusBleedGuard.prefersGrid(removal: task(matched: 20), grid: task(matched: 24)))
        #expect(!StimulusBleedGuard.prefersGrid(removal: task(matched: 20), grid: task(matched: 20)))
        #expect(!StimulusBleedGuard.prefersGrid(removal: task(matched: 0, of: 0), grid: task(matched: 0, of: 0)))
    }
}
