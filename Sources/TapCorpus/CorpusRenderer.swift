import Foundation
import TapAudio
import TapSim
import TapStatistics

/// The stages of the `gated` condition's chain that run (``CorpusRenderer/gatedStages``).
public enum GatedStages: String, CaseIterable, Sendable {
    /// FFT noise suppression, then the gate: the corpus.
    case both
    /// The 120 Hz high-pass and the suppressor (`afftdn`), levelled as in the corpus; no gate.
    case suppressor
    /// The 120 Hz high-pass, levelled, then the gate (`agate`), set from the unsuppressed
    /// background; no suppressor.
    case gate
}

/// Renders corpus items: a TapSim task, then the condition's sounds or processing.
///
/// Deterministic: an item depends only on its seed, the base configuration, ``gatedStages``
/// (for `gated` items) and the versions of the external programs (ffmpeg, sox, fluidsynth,
/// espeak-ng), which run single-threaded.
public struct CorpusRenderer: Sendable {
    /// The TapSim configuration the conditions start from (`SimulationConfiguration.corpus`).
    public var base: SimulationConfiguration
    /// Where the external programs are found.
    public var tools: ExternalTools
    /// The General MIDI soundfont of the `music` condition.
    public var soundfont: String
    /// Rate of the foreign stimulus files (a different rate from the recording's, as a
    /// stimulus file usually has).
    public var stimulusRate: Double = 44_100
    /// Which stages of the `gated` condition's chain run: the corpus runs both; one alone shows
    /// what it does to the taps (Docs/robustness.md, "What makes `gated` taps early").
    public var gatedStages: GatedStages = .both

    /// Where Debian's fluid-soundfont-gm puts the General MIDI soundfont.
    public static let defaultSoundfont = "/usr/share/sounds/sf2/FluidR3_GM.sf2"

    /// A renderer starting from `base`, finding programs with `tools`.
    public init(base: SimulationConfiguration = .corpus, tools: ExternalTools = ExternalTools(),
                soundfont: String = CorpusRenderer.defaultSoundfont) {
        self.base = base
        self.tools = tools
        self.soundfont = soundfont
    }

    /// Checks that every program and file the conditions need is there, before any work.
    public func checkTools(for conditions: [CorpusCondition]) throws(CorpusError) {
        for condition in conditions {
            for tool in condition.tools { _ = try tools.locate(tool, for: condition) }
            if condition == .music && !FileManager.default.fileExists(atPath: soundfont) {
                throw .missingFile(path: soundfont, package: "fluid-soundfont-gm", condition: condition.name)
            }
        }
    }

    /// The versions of the external programs, one per line (for `versions.txt`).
    public func toolVersions() -> String {
        ExternalTool.allCases.map { tools.version(of: $0) }.joined(separator: "\n") + "\n"
    }

    /// Renders one item.
    public func render(_ item: CorpusItem) throws -> RenderedItem {
        let condition = item.condition
        try checkTools(for: [condition])
        let configuration = condition.simulation(base: base)
        let fs = configuration.sampleRate
        let stems = condition == .keyboardTaps
            ? simulateTaskStems(user: item.split.user, track: item.index, configuration: configuration, seed: item.seed)
            : nil
        let task = stems?.task
            ?? simulateTask(user: item.split.user, track: item.index, configuration: configuration, seed: item.seed)
        let truth = task.truth
        let audible = truth.taps.filter(\.audible)
        var work = ItemWork(samples: task.samples, sampleRate: fs, tapFrames: audible.map(\.startFrame),
                            noiseRMS: task.referenceNoiseRMS, duration: configuration.taskDuration)
        work.events = truth.distractors.map {
            CorpusEvent(time: $0.startTime, kind: $0.kind.rawValue, duration: Double($0.endFrame - $0.startFrame) / fs)
        // TapSim's bleed decays with τ ≈ 30 ms from 0–15 dB over the noise: gone in about 60 ms.
        } + truth.bleedOnsetTimes.map { CorpusEvent(time: $0, kind: "click", duration: 0.06) }
        var g = SeededGenerator(seed: item.seed, labels: 0xC0_2B05)
        let scratch = NSTemporaryDirectory() + "tapcorpus-\(getpid())-\(item.name)-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let run = ToolRun(tools: tools, condition: condition, scratch: scratch)

        switch condition {
        case .baseline:
            break
        case .gated:
            try work.gate(run: run, stages: gatedStages)
        case .agc:
            try work.process(run: run, filter: "dynaudnorm=f=100:g=7:p=0.9:m=20")
            work.notes.append("filter=dynaudnorm(f=100;g=7;p=0.9;m=20)")
        case .aac, .opus, .mp3:
            try work.codec(condition, bitrate: [48, 56, 64][g.nextInt(below: 3)], run: run)
        case .rate16k, .rate8k:
            try work.resample(to: condition == .rate16k ? 16_000 : 8_000, run: run)
        case .reverb:
            let reverberance = Int(g.nextUniform(in: 30...70).rounded())
            let damping = Int(g.nextUniform(in: 20...80).rounded())
            let room = Int(g.nextUniform(in: 40...100).rounded())
            try work.process(run: run, soxEffect: ["reverb", "\(reverberance)", "\(damping)", "\(room)"])
            work.notes.append("reverberance=\(reverberance);hf_damping=\(damping);room_scale=\(room)")
        case .clipping:
            work.clip(overdriveDB: g.nextUniform(in: 6...14))
        case .dcOffset:
            work.addDCOffset(generator: &g)
        case .handlingNoise:
            work.addHandlingNoise(generator: &g)
        case .sineBurst, .woodblock, .noiseClick, .beep:
            addMetronome(condition, levels: AcousticPath.headphoneLevels, clickTimes: truth.clickTimes, to: &work, generator: &g)
        case .loudspeaker, .loudspeakerAAC:
            let sound = CorpusCondition.metronomeSounds[g.nextInt(below: CorpusCondition.metronomeSounds.count)]
            addMetronome(sound, levels: AcousticPath.loudspeakerLevels, clickTimes: truth.clickTimes, to: &work, generator: &g)
            if condition == .loudspeakerAAC { try work.codec(.aac, bitrate: [48, 56, 64][g.nextInt(below: 3)], run: run) }
        case .music:
            let song = MidiSong(beatInterval: truth.interOnsetInterval, firstBeat: truth.clickTimes.first ?? 1,
                                beats: truth.clickTimes.count, generator: &g)
            let stimulus = try renderMusic(song, duration: work.duration, run: run)
            let path = AcousticPath(generator: &g)
            work.addStimulus(stimulus, rate: stimulusRate, path: path,
                             events: song.noteOnsets, kind: "music-note")
            work.notes.append("music=piano+bass+drums;tempo_bpm=\(format(60 / truth.interOnsetInterval, decimals: 1))")
        case .speech:
            try work.addSpeech(run: run, generator: &g)
        case .keyboard:
            work.addKeyboardDistractors(generator: &g)
        case .keyboardTaps:
            work.replaceTapsWithKeys(stems: stems!, taps: audible, generator: &g)
        }
        work.limitPeak()
        return RenderedItem(item: item, audio: Signal(samples: work.samples, sampleRate: work.sampleRate),
                            tapTimes: audible.map(\.startTime), events: work.events.sorted { $0.time < $1.time },
                            touches: Self.touches(truth),
                            stimulus: work.stimulus, processingDelay: work.processingDelay,
                            notes: work.notes.joined(separator: ";"))
    }

    /// The task's logged touches with the taps they stand for, ascending; times rounded to
    /// microseconds as TapSim logs them (`TaskTruth.touches`).
    static func touches(_ truth: TaskTruth) -> [CorpusTouch] {
        func logged(_ time: Double) -> Double { (time * 1e6).rounded() / 1e6 }
        let ofTaps = truth.taps.compactMap { tap in
            tap.touchTime.map { CorpusTouch(time: logged($0), tapStart: tap.startTime, latency: tap.latency, audible: tap.audible) }
        }
        let spurious = truth.spuriousTouchTimes.map { CorpusTouch(time: logged($0), tapStart: nil, latency: nil, audible: false) }
        return (ofTaps + spurious).sorted { $0.time < $1.time }
    }

    /// A foreign metronome of `sound`'s clicks at `clickTimes`, written as the stimulus file
    /// (peak −1 dBFS) and heard through an acoustic path at a level in `levels`.
    private func addMetronome(_ sound: CorpusCondition, levels: ClosedRange<Double>, clickTimes: [Double],
                              to work: inout ItemWork, generator g: inout SeededGenerator) {
        let click = MetronomeClick(sound, sampleRate: stimulusRate, generator: &g)
        var stimulus = [Double](repeating: 0, count: Int((work.duration * stimulusRate).rounded()))
        for time in clickTimes {
            let start = Int((time * stimulusRate).rounded())
            for n in click.samples.indices where start + n < stimulus.count { stimulus[start + n] += click.samples[n] }
        }
        // Like a stimulus file: peak −1 dBFS (a woodblock's modes add up to more than 1).
        let peak = stimulus.reduce(0) { max($0, abs($1)) }
        if peak > 0 { for n in stimulus.indices { stimulus[n] *= 0.891 / peak } }
        let path = AcousticPath(generator: &g, levels: levels)
        work.addStimulus(stimulus, rate: stimulusRate, path: path,
                         events: clickTimes.map { (time: $0, duration: Double(click.samples.count) / stimulusRate) },
                         kind: sound.name)
        work.notes.append(click.description)
    }

    /// The song rendered by fluidsynth at ``stimulusRate``, mono, `duration` long, peak −1 dBFS.
    private func renderMusic(_ song: MidiSong, duration: Double, run: ToolRun) throws -> [Double] {
        let midi = run.scratch + "/song.mid"
        let wav = run.scratch + "/song.wav"
        try Data(song.bytes).write(to: URL(fileURLWithPath: midi))
        try run(.fluidsynth, ["-n", "-i", "-q", "-g", "0.5", "-r", "\(Int(stimulusRate))", "-O", "float",
                              "-T", "wav", "-F", wav, soundfont, midi])
        let rendered = try AudioFileReader(path: wav).readAll()
        var samples = rendered.samples.map(Double.init)
        let count = Int((duration * stimulusRate).rounded())
        if samples.count > count { samples.removeLast(samples.count - count) }
        samples += [Double](repeating: 0, count: count - samples.count)
        let peak = samples.reduce(0) { max($0, abs($1)) }
        if peak > 0 { for n in samples.indices { samples[n] *= 0.891 / peak } }
        return samples
    }
}

/// Runs one condition's tools in its scratch directory.
struct ToolRun {
    var tools: ExternalTools
    var condition: CorpusCondition
    var scratch: String

    func callAsFunction(_ tool: ExternalTool, _ arguments: [String]) throws {
        try tools.run(tool, arguments, for: condition)
    }

    /// ffmpeg's common arguments: quiet, single-threaded, bit-exact.
    static let ffmpegPrefix = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-threads", "1"]
    static let ffmpegBitexact = ["-fflags", "+bitexact", "-flags:a", "+bitexact"]
}
