import Foundation
import Testing
import TapAudio
import TapSim
@testable import TapCorpus

/// Short tasks keep the debug-build tests fast.
func shortBase(seconds: Double = 6) -> SimulationConfiguration {
    var c = SimulationConfiguration.corpus
    c.taskDuration = seconds
    return c
}

/// Only the taps: no background noise (it stays the level reference), hum, bleed, distractors
/// or silent taps, so the truth can be checked against the audio.
func tapsOnlyBase(seconds: Double = 6) -> SimulationConfiguration {
    var c = shortBase(seconds: seconds).tapsOnly
    c.silentTapProbability = 0
    return c
}

func installed(_ tool: ExternalTool) -> Bool {
    (try? ExternalTools().locate(tool, for: .baseline)) != nil
}

func item(_ condition: CorpusCondition, _ split: CorpusSplit = .dev, index: Int = 1, seed: UInt64 = 7) -> CorpusItem {
    CorpusItem(condition: condition, split: split, index: index, corpusSeed: seed)
}

func power(_ x: [Float], _ range: Range<Int>) -> Double {
    let r = max(0, range.lowerBound)..<min(x.count, range.upperBound)
    guard !r.isEmpty else { return 0 }
    return r.reduce(0.0) { $0 + Double(x[$1]) * Double(x[$1]) } / Double(r.count)
}

@Suite struct CorpusRenderTests {
    @Test func renderIsDeterministicForASeed() throws {
        let renderer = CorpusRenderer(base: shortBase())
        for condition in [CorpusCondition.handlingNoise, .woodblock, .keyboardTaps] {
            let a = try renderer.render(item(condition)), b = try renderer.render(item(condition))
            #expect(a.audio == b.audio, "\(condition)")
            #expect(a.tapTimes == b.tapTimes && a.events == b.events && a.notes == b.notes && a.stimulus == b.stimulus)
        }
    }

    @Test(.enabled(if: installed(.sox))) func renderWithAToolIsDeterministic() throws {
        let renderer = CorpusRenderer(base: shortBase())
        let a = try renderer.render(item(.reverb)), b = try renderer.render(item(.reverb))
        #expect(a.audio == b.audio && a.notes == b.notes && a.processingDelay == b.processingDelay)
    }

    @Test func devAndHeldItemsDiffer() throws {
        let renderer = CorpusRenderer(base: shortBase())
        let dev = item(.baseline, .dev), held = item(.baseline, .held)
        #expect(dev.seed != held.seed)
        let a = try renderer.render(dev), b = try renderer.render(held)
        #expect(a.tapTimes != b.tapTimes)
        #expect(a.audio.samples != b.audio.samples)
        // Items are named and seeded by condition, split and number; a different corpus seed
        // changes every item.
        let all = CorpusItem.all(corpusSeed: 7)
        #expect(Set(all.map(\.seed)).count == all.count)
        #expect(Set(all.map(\.name)).count == all.count)
        #expect(all.count == CorpusCondition.allCases.count * 4)
        #expect(CorpusItem.all(corpusSeed: 8).map(\.seed) != all.map(\.seed))
    }

    /// The truth lists where the taps are: with nothing but taps, the energy jumps at every
    /// truth time and the first sample above a tenth of the tap's peak is at the truth.
    @Test func truthTimesAreWhereTheTapsAre() throws {
        let rendered = try CorpusRenderer(base: tapsOnlyBase()).render(item(.baseline))
        #expect(rendered.tapTimes.count >= 5)
        try expectTaps(at: rendered, tolerance: 0.0002, riseDB: 30)
    }

    @Test(.enabled(if: installed(.sox))) func reverbAndResamplingKeepTheTaps() throws {
        let renderer = CorpusRenderer(base: tapsOnlyBase())
        for condition in [CorpusCondition.reverb, .rate16k] {
            let rendered = try renderer.render(item(condition))
            #expect(abs(rendered.processingDelay ?? 1) < 0.0001, "\(condition)")
            try expectTaps(at: rendered, tolerance: 0.0005, riseDB: 10)
        }
    }

    /// Taps and TapSim's noise alone: the gate is set from the background, so it keeps the noise.
    func gatedBase() -> SimulationConfiguration {
        var base = shortBase()
        base.humLevelDB = nil
        base.bleedLevelRange = nil
        base.distractorRate = 0
        base.silentTapProbability = 0
        return base
    }

    @Test(.enabled(if: installed(.ffmpeg))) func gatingKeepsTheTaps() throws {
        let rendered = try CorpusRenderer(base: gatedBase()).render(item(.gated))
        #expect(abs(rendered.processingDelay ?? 1) < 0.0001)
        #expect(rendered.notes.contains("latency_removed_ms="))
        try expectTaps(at: rendered, tolerance: 0.001, riseDB: 15)
    }

    /// A number the notes give under `key` (`key=value`, notes separated by `;`).
    func noted(_ key: String, in notes: String) throws -> Double {
        let note = try #require(notes.split(separator: ";").first { $0.hasPrefix(key + "=") })
        return try #require(Double(note.dropFirst(key.count + 1)))
    }

    /// Each stage of the `gated` chain can run alone: the notes say which ran; the gate alone
    /// has no suppressor's delay to remove, a background before it louder than the
    /// suppressor leaves, the background at −75 dBFS after it and the taps where they were;
    /// the suppressor alone leaves the background ungated.
    @Test(.enabled(if: installed(.ffmpeg))) func eachStageOfTheGatedChainRunsAlone() throws {
        var renderer = CorpusRenderer(base: gatedBase())
        let both = try renderer.render(item(.gated))
        #expect(!both.notes.contains("gated_stages"))
        renderer.gatedStages = .gate
        let gate = try renderer.render(item(.gated))
        #expect(gate.notes.contains("filter=highpass(120Hz;4th)+agate("))
        #expect(gate.notes.contains("gated_stages=gate"))
        #expect(!gate.notes.contains("afftdn") && !gate.notes.contains("latency_removed_ms"))
        #expect(abs(gate.processingDelay ?? 1) < 0.0001)
        let unsuppressed = try noted("background_before_gate_dbfs", in: gate.notes)
        let suppressed = try noted("background_before_gate_dbfs", in: both.notes)
        #expect(unsuppressed >= suppressed + 3, "\(unsuppressed) against \(suppressed)")
        #expect(try abs(noted("background_dbfs", in: gate.notes) + 75) < 1)
        try expectTaps(at: gate, tolerance: 0.001, riseDB: 15)
        renderer.gatedStages = .suppressor
        let suppressor = try renderer.render(item(.gated))
        #expect(suppressor.notes.contains("latency_removed_ms="))
        #expect(suppressor.notes.contains("gated_stages=suppressor"))
        #expect(!suppressor.notes.contains("agate") && !suppressor.notes.contains("background_before_gate_dbfs"))
        #expect(abs(suppressor.processingDelay ?? 1) < 0.0001)
        #expect(try noted("background_dbfs", in: suppressor.notes) > -70)
    }

    @Test func foreignStimulusIsWrittenAndTapSimBleedIsOff() throws {
        let rendered = try CorpusRenderer(base: shortBase()).render(item(.sineBurst))
        let stimulus = try #require(rendered.stimulus)
        #expect(stimulus.sampleRate == 44_100)
        #expect(abs(stimulus.duration - 6) < 1e-3)
        let clicks = rendered.events.filter { $0.kind == "sine-burst" }
        #expect(clicks.count >= 5)
        #expect(!rendered.events.contains { $0.kind == "click" })
        // In the recording each click comes 1–10 ms (plus ≤ 50 ppm of its time) after it
        // starts in the stimulus file.
        for click in clicks {
            let searchStart = Int(((click.time - 0.012) * stimulus.sampleRate).rounded())
            let start = try #require((searchStart..<(searchStart + 1000)).first { abs(stimulus.samples[$0]) > 0 })
            let delay = click.time - Double(start - 1) / stimulus.sampleRate
            #expect(delay > 0.001 - 0.0003 && delay < 0.010 + 0.0003, "click at \(click.time): \(delay)")
        }
        #expect(rendered.notes.contains("path_delay_ms="))
    }

    @Test func aMissingToolGivesAClearError() throws {
        let renderer = CorpusRenderer(base: shortBase(), tools: ExternalTools(path: "/nonexistent"))
        #expect(throws: CorpusError.missingTool(.ffmpeg, condition: "gated")) { try renderer.render(item(.gated)) }
        #expect(throws: CorpusError.missingTool(.espeakNG, condition: "speech")) { try renderer.render(item(.speech)) }
        let message = "\(CorpusError.missingTool(.fluidsynth, condition: "music"))"
        #expect(message.contains("'fluidsynth'") && message.contains("'music'") && message.contains("install-deps"))
        // Conditions without tools still render.
        _ = try renderer.render(item(.clipping))
        // A missing soundfont is named too.
        let noFont = CorpusRenderer(base: shortBase(), soundfont: "/nonexistent/GM.sf2")
        if installed(.fluidsynth) {
            #expect(throws: CorpusError.missingFile(path: "/nonexistent/GM.sf2", package: "fluid-soundfont-gm",
                                                    condition: "music")) { try noFont.render(item(.music)) }
        }
    }

    /// Checks every truth time of `rendered` against its audio.
    func expectTaps(at rendered: RenderedItem, tolerance: Double, riseDB: Double) throws {
        let x = rendered.audio.samples, fs = rendered.audio.sampleRate
        for t in rendered.tapTimes {
            let frame = Int((t * fs).rounded())
            let ms = { (m: Double) in Int((m / 1000 * fs).rounded()) }
            let before = power(x, (frame - ms(12))..<(frame - ms(2))), after = power(x, frame..<(frame + ms(5)))
            #expect(10 * log10(after / max(before, 1e-20)) > riseDB, "tap at \(t) in \(rendered.item.name)")
            let window = (frame - ms(5))..<(frame + ms(30))
            let peak = window.reduce(Float(0)) { max($0, abs(x[$1])) }
            let first = try #require(window.first { abs(x[$0]) > 0.1 * peak })
            #expect(abs(Double(first) / fs - t) <= tolerance + 1.5 / fs, "tap at \(t) starts at \(Double(first) / fs)")
        }
    }
}
