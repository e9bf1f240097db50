import Foundation
import Testing
import TapAudio
import TapData
import TapTestSupport

/// An experiment folder as `tapkit run` lays it out, built from synthetic signals: a music
/// stimulus (decaying harmonic notes and short inharmonic bursts), and one recording of taps
/// with that music leaking into the microphone — 3 ms later, coloured by a reflection and a
/// low-pass, at −35 dBFS — and white noise at −50 dBFS; the touches 25 ms after the taps.
struct MusicExperiment {
    static let rate = 22_050.0
    static let stimulusDuration = 12.0
    /// The recording runs a second past the stimulus, as `tapkit run` records.
    static let recordingDuration = 13.0

    let stimulus: [Float]
    let recording: [Float]
    let taps: [Double]
    let touches: [Double]

    init(seed: UInt64 = 21) {
        let rate = Self.rate
        var random = SplitMix64(seed: seed)
        func uniform() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        func gaussian() -> Double { (-2 * log(max(uniform(), 1e-300))).squareRoot() * cos(2 * Double.pi * uniform()) }

        // The music: a note every 0.2–0.5 s, five partials decaying in 0.15–0.5 s; with a third
        // of them a 20 ms burst of eight inharmonic partials over 1–8 kHz (a hi-hat).
        struct Partial { var time, frequency, amplitude, phase, decay: Double }
        var partials: [Partial] = []
        var time = 0.1
        while time < Self.stimulusDuration - 0.5 {
            let f0 = 196 * pow(2, Double(Int(uniform() * 24)) / 12)
            let decay = 0.15 + 0.35 * uniform()
            for h in 1...5 { partials.append(Partial(time: time, frequency: f0 * Double(h), amplitude: 1 / Double(h), phase: 2 * Double.pi * uniform(), decay: decay)) }
            if uniform() < 0.35 {
                for _ in 0..<8 { partials.append(Partial(time: time, frequency: 1_000 + 7_000 * uniform(), amplitude: 0.6, phase: 2 * Double.pi * uniform(), decay: 0.02)) }
            }
            time += 0.2 + 0.3 * uniform()
        }
        /// The music sampled at `origin + n / rate`, n = 0 ..< count (rotating phasors: quick in debug builds).
        func render(origin: Double, count: Int) -> [Double] {
            var output = [Double](repeating: 0, count: count)
            for partial in partials {
                let first = max(0, Int(((partial.time - origin) * rate).rounded(.up)))
                let last = min(count, Int(((partial.time + 6 * partial.decay - origin) * rate).rounded(.up)))
                guard first < last else { continue }
                let u0 = origin + Double(first) / rate - partial.time
                let delta = 2 * Double.pi * partial.frequency / rate
                var re = cos(2 * Double.pi * partial.frequency * u0 + partial.phase)
                var im = sin(2 * Double.pi * partial.frequency * u0 + partial.phase)
                var envelope = partial.amplitude * exp(-u0 / partial.decay)
                let step = exp(-1 / (rate * partial.decay))
                let attack = Int(0.002 * rate)
                for n in first..<last {
                    output[n] += envelope * im * (n - first < attack ? Double(n - first) / Double(attack) : 1)
                    (re, im) = (re * cos(delta) - im * sin(delta), im * cos(delta) + re * sin(delta))
                    envelope *= step
                }
            }
            return output
        }
        let stimulusFrames = Int(Self.stimulusDuration * rate), frames = Int(Self.recordingDuration * rate)
        let music = render(origin: 0, count: stimulusFrames)
        let peak = music.map(abs).max() ?? 1
        stimulus = music.map { Float(0.5 * $0 / peak) }

        // The path: 3 ms, a reflection 0.5 ms later, a one-pole low-pass at about 4 kHz.
        var heard = render(origin: -0.003, count: frames).map { 0.5 * $0 / peak }
        for n in heard.indices where n >= stimulusFrames + Int(0.003 * rate) { heard[n] = 0 }
        let reflection = Int(0.0005 * rate)
        var bleed = [Double](repeating: 0, count: frames)
        var low = 0.0
        let a = exp(-2 * Double.pi * 4_000 / rate)
        for n in 0..<frames {
            let x = heard[n] - 0.4 * (n >= reflection ? heard[n - reflection] : 0)
            low = (1 - a) * x + a * low
            bleed[n] = low
        }
        let bleedRMS = (bleed.reduce(0) { $0 + $1 * $1 } / Double(frames)).squareRoot()
        let gain = pow(10, -35.0 / 20) / bleedRMS

        // Taps: decaying noise bursts (8 ms) peaking near −20 dBFS, every 0.5–0.7 s.
        var samples = (0..<frames).map { gain * bleed[$0] + 0.003 * gaussian() }
        var taps: [Double] = [], touches: [Double] = []
        var tap = 0.6
        while tap < Self.recordingDuration - 0.5 {
            let start = Int((tap * rate).rounded())
            for offset in 0..<Int(0.08 * rate) { samples[start + offset] += 0.1 * exp(-Double(offset) / (0.008 * rate)) * gaussian() }
            taps.append(Double(start) / rate)
            touches.append(Double(start) / rate + 0.025 + 0.002 * (uniform() - 0.5))
            tap += 0.5 + 0.2 * uniform()
        }
        recording = samples.map { Float($0) }
        self.taps = taps
        self.touches = touches
    }

    /// Writes `trackList.xml` naming `tracks`, the stimulus as `music.wav`, and in `data`
    /// (relative to `experiment`) the tasks `001_TT` for `tasks`, all with this recording, and
    /// `001_play_order.txt` with `playOrder` as its text.
    func write(experiment: String, data: String = "data", tracks: [String] = ["music.wav"], tasks: [Int] = [1],
               playOrder: String = "0 ") throws {
        let manager = FileManager.default
        let dataFolder = data.hasPrefix("/") ? data : experiment + "/" + data
        try manager.createDirectory(atPath: experiment, withIntermediateDirectories: true)
        try manager.createDirectory(atPath: dataFolder, withIntermediateDirectories: true)
        try Signal(samples: stimulus, sampleRate: Self.rate).write(to: experiment + "/music.wav")
        let list = tracks.map { "    <track><filename>\($0)</filename></track>\n" }.joined()
        try ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<trackList>\n" + list + "</trackList>\n")
            .write(toFile: experiment + "/trackList.xml", atomically: true, encoding: .utf8)
        let recordingPath = dataFolder + "/001_01.wav"
        try Signal(samples: recording, sampleRate: Self.rate).write(to: recordingPath)
        let touchText = touches.map { String(format: "%f\n", $0) }.joined()
        for track in tasks {
            let stem = dataFolder + String(format: "/001_%02d", track)
            if track != 1 { try manager.copyItem(atPath: recordingPath, toPath: stem + ".wav") }
            try touchText.write(toFile: stem + ".txt", atomically: true, encoding: .utf8)
        }
        try playOrder.write(toFile: dataFolder + "/001_play_order.txt", atomically: true, encoding: .utf8)
    }
}

/// `tapkit latency` and `tapkit onsets` remove a music stimulus's bleed through its file, and
/// say when they cannot.
@Suite struct StimulusBleedCommandTests {
    static let experiment = MusicExperiment()

    func tasks(_ json: String) throws -> [[String: Any]] {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return try #require(document["tasks"] as? [[String: Any]])
    }

    @Test func latencyRemovesTheStimulusOfEachTask() throws {
        let folder = TemporaryFolder()
        let experiment = Self.experiment
        let taps = experiment.taps.count
        try experiment.write(experiment: folder.path)

        let result = try runTapKit(["latency", folder.file("data"), "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let task = try #require(try tasks(result.stdout).first)
        #expect(task["n_touches"] as? Int == taps)
        #expect(task["n_onsets"] as? Int == taps, "the music's onsets taken for taps: \(task)")
        #expect(task["n_matched"] as? Int == taps)
        #expect(abs((task["median_ms"] as? Double ?? 0) - 25) < 1)
        let bleed = try #require(task["stimulus_bleed"] as? [String: Any], "\(task)")
        #expect(bleed["status"] as? String == "removed", "\(bleed)")
        #expect((bleed["file"] as? String)?.hasSuffix("/music.wav") == true)
        #expect(bleed["reason"] is NSNull)
        #expect(abs((bleed["delay_ms"] as? Double ?? 0) - 3) < 0.1, "\(bleed)")
        // Of everything where the bleed is loud, taps and noise included.
        #expect((bleed["reduction_db"] as? Double ?? 0) >= 3, "\(bleed)")
        #expect(!result.stderr.contains("stimulus"), "\(result.stderr)")

        // Switched off, the click grid alone: the music's bursts are heard, as onsets or, where
        // the tap score tells them from the taps, as other sounds.
        let off = try runTapKit(["latency", folder.file("data"), "--format", "json", "--stimulus-bleed", "off"])
        let plain = try #require(try tasks(off.stdout).first)
        func heard(_ task: [String: Any]) -> Int { (task["n_onsets"] as? Int ?? 0) + (task["n_other_onsets"] as? Int ?? 0) }
        #expect(heard(plain) > heard(task), "\(plain)")
        #expect(plain["stimulus_bleed"] is NSNull)
    }

    @Test func anExperimentFolderElsewhereAndOnsetsTakeTheStimulus() throws {
        let folder = TemporaryFolder()
        let experiment = Self.experiment
        try experiment.write(experiment: folder.file("experiment"), data: folder.file("copied-data"))

        let result = try runTapKit(["latency", folder.file("copied-data"), "--experiment", folder.file("experiment"),
                                    "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let task = try #require(try tasks(result.stdout).first)
        #expect(task["n_onsets"] as? Int == experiment.taps.count, "\(task)")
        #expect((task["stimulus_bleed"] as? [String: Any])?["status"] as? String == "removed", "\(task)")

        let recording = folder.file("copied-data/001_01.wav")
        let onsets = try runTapKit(["onsets", recording, "--stimulus", folder.file("experiment/music.wav"), "--format", "csv"])
        #expect(onsets.status == 0, "\(onsets.stderr)")
        let rows = onsets.stdout.split(separator: "\n").dropFirst()
        #expect(rows.count == experiment.taps.count, "\(onsets.stdout)")
        let times = rows.compactMap { Double($0.split(separator: ",")[1]) }
        #expect(times.count == rows.count, "\(onsets.stdout)")
        #expect(zip(times, experiment.taps).allSatisfy { abs($0 - $1) < 0.001 })
        // Asked to take the recording for a kit, it says why the flux did not run.
        let assumed = try runTapKit(["onsets", recording, "--stimulus", folder.file("experiment/music.wav"), "--format", "csv",
                                     "--dense-percussion", "always"])
        #expect(assumed.stdout == onsets.stdout)
        #expect(assumed.stderr.contains("\(recording): --dense-percussion always: not completed") && !onsets.stderr.contains("not completed"),
                "\(assumed.stderr)")

        // A stimulus that is not there: said, and the click grid is used, which leaves the
        // music's bursts in (every kind of onset counted: the tap score sets some aside).
        let missing = try runTapKit(["onsets", recording, "--stimulus", folder.file("nothing.wav"), "--format", "csv", "--all"])
        #expect(missing.status == 0)
        #expect(missing.stderr.contains("warning: \(recording): stimulus ") && missing.stderr.contains(folder.file("nothing.wav")),
                "\(missing.stderr)")
        let removed = try runTapKit(["onsets", recording, "--stimulus", folder.file("experiment/music.wav"), "--format", "csv", "--all"])
        #expect(missing.stdout.split(separator: "\n").count > removed.stdout.split(separator: "\n").count,
                "\(missing.stdout)\n\(removed.stdout)")
    }

    @Test func aMissingStimulusFallsBackAndABadPlayOrderIsNamed() throws {
        let folder = TemporaryFolder()
        // Task 001_02's stimulus is missing; the play order's second line names a track the
        // list does not have.
        try Self.experiment.write(experiment: folder.path, tracks: ["music.wav", "gone.wav"], tasks: [1, 2],
                                  playOrder: "0 1\n5 ")
        let result = try runTapKit(["latency", folder.file("data"), "--format", "json"])
        #expect(result.status == 1)
        let rows = try tasks(result.stdout)
        #expect(rows.compactMap { $0["task"] as? String } == ["001_01", "001_02"])
        let statuses = rows.map { ($0["stimulus_bleed"] as? [String: Any])?["status"] as? String }
        #expect(statuses == ["removed", "fallback"], "\(rows)")
        #expect(rows.last?["n_matched"] as? Int == Self.experiment.taps.count)
        let reason = (rows.last?["stimulus_bleed"] as? [String: Any])?["reason"] as? String ?? ""
        #expect(reason.contains("gone.wav"), "\(reason)")

        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("warning: \(folder.file("data/001_02.wav")): task 001_02: stimulus ") && $0.contains("gone.wav")
            && $0.contains("click grid") }, "\(result.stderr)")
        #expect(lines.contains { $0.hasPrefix("error: \(folder.file("data/001_play_order.txt")):2:") && $0.contains("track index 5") },
                "\(result.stderr)")
    }

    /// Writes task 001_01's capture sidecar, saying that `stimulus` was played.
    static func writeSidecar(playing stimulus: String, in folder: TemporaryFolder) throws {
        try TaskSidecar(task: "001_01", stimulus: stimulus, sampleRate: MusicExperiment.rate, periodFrames: 128,
                        outputPorts: ["system:playback_1"], inputPort: "system:capture_1", tapInput: "keyboard",
                        taps: experiment.touches.count, stimulusSampleRate: MusicExperiment.rate, stimulusUnderrunFrames: 0,
                        xruns: 0, droppedFrames: 0, startedAt: "2026-11-24T00:00:00Z", tapkitVersion: "0.0.0", completed: true)
            .write(to: folder.file("data/001_01.json"))
    }

    @Test func aTrackListChangedAfterTheSessionIsNamedAndThePlayedFileUsed() throws {
        let folder = TemporaryFolder()
        // The list's only entry (line 3) names another file than the sidecar says was played.
        try Self.experiment.write(experiment: folder.path, tracks: ["edited.wav"])
        try Self.writeSidecar(playing: "music.wav", in: folder)
        let result = try runTapKit(["latency", folder.file("data"), "--format", "json"])
        #expect(result.status == 1)
        let task = try #require(try tasks(result.stdout).first)
        let bleed = task["stimulus_bleed"] as? [String: Any]
        #expect(bleed?["status"] as? String == "removed" && (bleed?["file"] as? String)?.hasSuffix("/music.wav") == true, "\(task)")
        let trackList = URL(fileURLWithPath: folder.file("trackList.xml")).standardizedFileURL.path
        #expect(result.stderr.contains("error: \(trackList):3: track 1 is \"edited.wav\", but task 001_01 played \"music.wav\""),
                "\(result.stderr)")
    }

    @Test func aFilePlayedOutsideTheExperimentFolderIsNamedAndTheTaskUsesTheClickGrid() throws {
        let folder = TemporaryFolder()
        try Self.experiment.write(experiment: folder.path, tracks: ["edited.wav"])
        // The sidecar names the music by a path that leaves the experiment folder.
        try Self.writeSidecar(playing: "../music.wav", in: folder)
        let result = try runTapKit(["latency", folder.file("data"), "--format", "json"])
        #expect(result.status == 1)
        let task = try #require(try tasks(result.stdout).first, "\(result.stderr)")
        #expect(task["stimulus_bleed"] is NSNull, "\(task)")
        #expect(task["n_matched"] as? Int == Self.experiment.taps.count, "\(task)")
        let trackList = URL(fileURLWithPath: folder.file("trackList.xml")).standardizedFileURL.path
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("error: \(trackList):3: track 1 is \"edited.wav\", but task 001_01 played \"../music.wav\"")
            && $0.contains("task 001_01 falls back to the click-grid method, as the file played cannot be used: \"../music.wav\" leaves the experiment folder")
            && !$0.contains("is used") }, "\(result.stderr)")
    }
}
