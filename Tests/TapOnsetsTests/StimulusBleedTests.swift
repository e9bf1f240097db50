import Foundation
import Testing
@testable import TapOnsets
import TapAudio

/// A music-like stimulus, defined in continuous time so that it can be rendered on any clock:
/// harmonic notes (five partials, 5 ms attack, 0.15–0.5 s decay) and percussive bursts (sixteen
/// inharmonic partials over 0.8–9 kHz, 0.5 ms attack, 25 ms decay).
struct SyntheticMusic {
    struct Event {
        var time: Double
        var partials: [(frequency: Double, amplitude: Double, phase: Double)]
        var attack: Double
        var decay: Double
    }
    var events: [Event] = []

    init(duration: Double, seed: UInt64) {
        var random = TestRandom(state: seed)
        var time = 0.05
        while time < duration {
            let f0 = 196 * pow(2, Double(Int(random.uniform() * 24)) / 12)
            let partials = (1...5).map { h in (f0 * Double(h), 1 / Double(h), 2 * Double.pi * random.uniform()) }
            events.append(Event(time: time, partials: partials, attack: 0.005, decay: 0.15 + 0.35 * random.uniform()))
            if random.uniform() < 0.35 {
                let partials = (0..<16).map { _ in (800 + 8_200 * random.uniform(), 0.5 + random.uniform(), 2 * Double.pi * random.uniform()) }
                events.append(Event(time: time, partials: partials, attack: 0.0005, decay: 0.025))
            }
            time += 0.2 + 0.4 * random.uniform()
        }
    }

    /// Samples at times `origin + n × step` seconds, n = 0 ..< count (each partial a rotating
    /// phasor and each envelope a running product, so that this is quick in a debug build).
    func render(origin: Double, step: Double, count: Int) -> [Float] {
        var samples = [Double](repeating: 0, count: count)
        samples.withUnsafeMutableBufferPointer { output in
            for event in events {
                let end = event.time + 5 * event.decay
                let first = max(0, Int(((event.time - origin) / step).rounded(.up)))
                let last = min(count, Int(((end - origin) / step).rounded(.up)))
                guard first < last else { continue }
                let u0 = origin + Double(first) * step - event.time
                let attackFrames = Int((event.attack / step).rounded(.up))
                for partial in event.partials {
                    let delta = 2 * Double.pi * partial.frequency * step
                    let cosDelta = cos(delta), sinDelta = sin(delta)
                    var re = cos(2 * Double.pi * partial.frequency * u0 + partial.phase)
                    var im = sin(2 * Double.pi * partial.frequency * u0 + partial.phase)
                    var envelope = partial.amplitude * exp(-u0 / event.decay)
                    let decayStep = exp(-step / event.decay)
                    var u = u0
                    for n in first..<last {
                        let attack = n - first < attackFrames ? min(1, u / event.attack) : 1
                        output[n] += attack * envelope * im
                        let nextRe = re * cosDelta - im * sinDelta
                        im = im * cosDelta + re * sinDelta
                        re = nextRe
                        envelope *= decayStep
                        u += step
                    }
                }
            }
        }
        return samples.map { Float($0) }
    }
}

func rms(_ samples: ArraySlice<Float>) -> Double {
    (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))).squareRoot()
}

func highPassed(_ samples: [Float], rate: Double) -> [Float] {
    var filter = HighPassFilter(cutoff: 400, sampleRate: rate)
    return samples.map { filter.process($0) }
}

/// A recording with music bleeding from headphones: the stimulus through a 3 ms delay and a
/// coloured path, its clock 40 ppm fast, at −35 dBFS; white noise at −50 dBFS (TapSim's
/// background level); taps (decaying noise bursts peaking near −20 dBFS) about every 0.55 s.
struct BleedScenario {
    var rate: Double { 44_100 }
    var recording: Signal
    var stimulus: Signal
    var bleed: [Float]
    var tapStarts: [Int]

    init(duration: Double = 40, drift: Double = 40e-6, delay: Double = 0.003, bleedDBFS: Double = -35, seed: UInt64 = 5) {
        let rate = 44_100.0
        let frames = Int(duration * rate)
        let music = SyntheticMusic(duration: duration + 2, seed: seed)
        stimulus = Signal(samples: music.render(origin: 0, step: 1 / rate, count: frames + Int(2 * rate)), sampleRate: rate)
        // What enters the path: the stimulus on the recording's clock, delayed.
        let played = music.render(origin: -delay, step: (1 + drift) / rate, count: frames)
        // The path's colour: a direct arrival, two reflections (6 and 15 frames later) and a
        // 3 kHz resonance decaying in 40 frames (ρⁿ·sin nθ, recursively).
        var coloured = [Float](repeating: 0, count: frames)
        let rho = exp(-1.0 / 40), theta = 2 * Double.pi * 3_000 / rate
        played.withUnsafeBufferPointer { input in
            coloured.withUnsafeMutableBufferPointer { output in
                var r1 = 0.0, r2 = 0.0
                for n in 0..<frames {
                    let previous = n >= 1 ? Double(input[n - 1]) : 0
                    let resonance = 2 * rho * cos(theta) * r1 - rho * rho * r2 + rho * sin(theta) * previous
                    r2 = r1
                    r1 = resonance
                    var sum = Double(input[n]) + 0.3 * resonance
                    if n >= 6 { sum += 0.5 * Double(input[n - 6]) }
                    if n >= 15 { sum -= 0.3 * Double(input[n - 15]) }
                    output[n] = Float(sum)
                }
            }
        }
        let gain = Float(pow(10, bleedDBFS / 20) / rms(coloured[...]))
        let bleed = coloured.map { $0 * gain }
        self.bleed = bleed
        var random = TestRandom(state: seed &+ 100)
        var tapStarts: [Int] = []
        var time = 0.7
        while time < duration - 0.3 {
            tapStarts.append(Int((time * rate).rounded()))
            time += 0.5 + 0.1 * random.uniform()
        }
        self.tapStarts = tapStarts
        let taps = syntheticTaps(starts: tapStarts, amplitude: 30, noiseRMS: 0.003, frames: frames, seed: seed &+ 7)
        recording = Signal(samples: (0..<frames).map { taps.samples[$0] + bleed[$0] }, sampleRate: rate)
    }

    /// Onsets matched to taps within `tolerance` frames: (precision, recall, worst error in frames).
    func score(_ onsets: [Onset], tolerance: Int) -> (precision: Double, recall: Double, worst: Int) {
        var matched = 0, worst = 0
        for start in tapStarts {
            if let error = onsets.map({ $0.frame - start }).min(by: { abs($0) < abs($1) }), abs(error) <= tolerance {
                matched += 1
                worst = max(worst, abs(error))
            }
        }
        let hits = onsets.filter { onset in tapStarts.contains { abs($0 - onset.frame) <= tolerance } }.count
        return (Double(hits) / Double(max(onsets.count, 1)), Double(matched) / Double(tapStarts.count), worst)
    }
}

@Suite struct StimulusBleedTests {
    @Test func musicBleedIsRemovedAndTheTapsFound() throws {
        let scenario = BleedScenario()
        let rate = scenario.rate
        let stimulus = StimulusInput(signal: scenario.stimulus)
        var highPassedRecording: [Float] = [], predicted: [Float] = []
        let outcome = try StimulusBleedRemoval.detect(
            in: SignalSource(signal: scenario.recording), stimulus: SignalSource(signal: scenario.stimulus), offset: 0,
            name: stimulus.name, configuration: .standard, stimulusConfiguration: .standard) { x, y in
                highPassedRecording.append(contentsOf: x)
                predicted.append(contentsOf: y)
            }
        guard case .detected(let detection) = outcome else {
            Issue.record("not removed: \(outcome)")
            return
        }
        let report = try #require(detection.stimulusBleed)
        #expect(report.removed)
        #expect(abs(try #require(report.delay) - 0.003) < 0.0001, "delay \(report.delay ?? .nan)")
        #expect(abs(try #require(report.driftPPM) + 40) < 2, "drift \(report.driftPPM ?? .nan) ppm")

        // The bleed left in the detector's band, after the first second (the filters settle).
        let trueBleed = highPassed(scenario.bleed, rate: rate)
        let skip = Int(rate)
        var bleedPower = 0.0, leftPower = 0.0
        for n in skip..<trueBleed.count {
            bleedPower += Double(trueBleed[n]) * Double(trueBleed[n])
            let left = Double(trueBleed[n]) - Double(predicted[n])
            leftPower += left * left
        }
        let reduction = 10 * log10(bleedPower / leftPower)
        #expect(reduction >= 20, "bleed reduced by \(reduction) dB")
        #expect(highPassedRecording.count == scenario.recording.samples.count)

        let tolerance = Int(0.0005 * rate)
        let found = scenario.score(detection.onsets, tolerance: tolerance)
        #expect(found.precision == 1 && found.recall == 1, "P \(found.precision) R \(found.recall), \(detection.onsets.count) onsets for \(scenario.tapStarts.count) taps")
        #expect(found.worst <= tolerance)

        // Without the stimulus, the music's onsets are heard too: some reported as taps, the
        // rest set aside as other sounds by the tap score (its outsider rule takes most).
        let plain = detectTapOnsets(in: scenario.recording)
        let plainScore = scenario.score(plain.onsets, tolerance: tolerance)
        #expect(plainScore.precision < found.precision, "without removal P \(plainScore.precision)")
        #expect(plain.onsets.count + plain.otherOnsets.count > detection.onsets.count + detection.otherOnsets.count + 10,
                "heard without removal \(plain.onsets.count) + \(plain.otherOnsets.count), with \(detection.onsets.count) + \(detection.otherOnsets.count)")
    }
}

@Suite struct StimulusInputTests {
    static let scenario = BleedScenario(duration: 20, seed: 11)

    func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "tapkit-stimulus-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func filesWorkAndAnOffsetIsHonoured() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let scenario = Self.scenario
        try scenario.recording.write(to: directory + "/rec.wav", format: .wavFloat)
        // The stimulus file has a second of other music before the scenario's: it started a
        // second before the recording.
        let before = BleedScenario(duration: 1, seed: 3).stimulus.samples.prefix(Int(scenario.rate))
        let file = Signal(samples: Array(before) + scenario.stimulus.samples, sampleRate: scenario.rate)
        try file.write(to: directory + "/music.wav", format: .wavFloat, channelCount: 2)
        let detection = try detectTapOnsets(inFile: directory + "/rec.wav",
                                            stimulus: StimulusInput(path: directory + "/music.wav", offset: -1))
        let report = try #require(detection.stimulusBleed)
        #expect(report.removed, "\(report.message)")
        #expect(abs((report.delay ?? 0) - 0.003) < 0.0001)
        let found = scenario.score(detection.onsets, tolerance: Int(0.0005 * scenario.rate))
        #expect(found.precision == 1 && found.recall == 1)
        #expect(abs(detection.duration - 20) < 0.001)
    }

    @Test func unusableStimuliAreNamedAndTheGridMethodIsUsed() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let scenario = Self.scenario
        let recording = directory + "/rec.wav"
        try scenario.recording.write(to: recording, format: .wavFloat)
        let plain = try detectTapOnsets(inFile: recording)
        try Signal(samples: Array(scenario.stimulus.samples.prefix(Int(3 * scenario.rate))), sampleRate: scenario.rate)
            .write(to: directory + "/short.wav", format: .wavFloat)
        try "not audio".write(toFile: directory + "/text.wav", atomically: true, encoding: .utf8)
        let cases: [(file: String, words: String)] = [
            ("missing.wav", "cannot open"), ("text.wav", "cannot open"),
            ("short.wav", "overlaps the recording for 3.0 s"),
        ]
        for (file, words) in cases {
            let detection = try detectTapOnsets(inFile: recording, stimulus: StimulusInput(path: directory + "/" + file))
            let report = try #require(detection.stimulusBleed)
            guard case .unusable(let reason) = report.status else {
                Issue.record("\(file): \(report.status)")
                continue
            }
            #expect(reason.contains(directory + "/" + file) && reason.contains(words), "\(reason)")
            #expect(report.message.contains("click grid"))
            #expect(detection.onsets == plain.onsets)
        }
    }

    @Test func aStimulusAtAnotherRateIsConverted() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Shorter than the suite's scenario: the conversion runs once per pass, slowly in debug builds.
        let scenario = BleedScenario(duration: 10, seed: 11)
        try scenario.recording.write(to: directory + "/rec.wav", format: .wavFloat)
        // The stimulus stored at 48 kHz, played (and recorded) at 44.1 kHz.
        try scenario.stimulus.resampled(to: 48_000).write(to: directory + "/music-48k.wav", format: .wavFloat)
        let detection = try detectTapOnsets(inFile: directory + "/rec.wav",
                                            stimulus: StimulusInput(path: directory + "/music-48k.wav"))
        let report = try #require(detection.stimulusBleed)
        #expect(report.removed, "\(report.message)")
        // As good as the stimulus at the recording's own rate (10 s is short for the estimate:
        // there, two quiet onsets remain either way).
        let native = detectTapOnsets(in: scenario.recording, stimulus: StimulusInput(signal: scenario.stimulus))
        let nativeReport = try #require(native.stimulusBleed)
        #expect(nativeReport.removed)
        #expect(abs((report.delay ?? 0) - (nativeReport.delay ?? 1)) < 0.00002, "\(report.message); \(nativeReport.message)")
        #expect(abs((report.reductionDB ?? 0) - (nativeReport.reductionDB ?? 0)) < 0.1)
        #expect(detection.onsets.count == native.onsets.count
                && zip(detection.onsets, native.onsets).allSatisfy { abs($0.frame - $1.frame) <= 1 })
        #expect(scenario.score(detection.onsets, tolerance: Int(0.0005 * scenario.rate)).recall == 1)

        // The same samples declared at 48 kHz are another (faster) piece of music: converted,
        // read, and found not to be in the recording.
        try Signal(samples: scenario.stimulus.samples, sampleRate: 48_000).write(to: directory + "/rate.wav", format: .wavFloat)
        let other = try detectTapOnsets(inFile: directory + "/rec.wav", stimulus: StimulusInput(path: directory + "/rate.wav"))
        guard case .notReduced(let reason) = other.stimulusBleed?.status else {
            Issue.record("status \(String(describing: other.stimulusBleed?.status))")
            return
        }
        #expect(reason.contains(directory + "/rate.wav"))
    }

    @Test func aStimulusThatCannotBeConvertedSaysWhyAndNamesIt() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let stimulus = Signal(samples: Array(Self.scenario.stimulus.samples.prefix(44_100)), sampleRate: 44_100)
        try stimulus.write(to: directory + "/music.wav", format: .wavFloat)
        // 44 100 Hz → 192 001 Hz reduces to 192 001/44 100: the resampler's filter table would
        // exceed its limit. A recording at 44 100.25 Hz (in memory) has no whole rate.
        let cases: [(rate: Double, words: String)] = [
            (192_001, "to the recording's 192001 Hz: 44100 Hz → 192001 Hz reduces to 192001/44100"),
            (44_100.25, "to the recording's 44100.25 Hz: the sample rate 44100.25 Hz is not a positive whole number"),
        ]
        for (rate, words) in cases {
            let recording = Signal(samples: [Float](repeating: 0, count: Int(rate)), sampleRate: rate)
            for input in [StimulusInput(path: directory + "/music.wav"), StimulusInput(signal: stimulus)] {
                let detection = detectTapOnsets(in: recording, stimulus: input)
                guard case .unusable(let reason) = detection.stimulusBleed?.status else {
                    Issue.record("\(input.name) at \(rate) Hz: \(String(describing: detection.stimulusBleed?.status))")
                    continue
                }
                #expect(reason.hasPrefix("stimulus \(input.name): cannot convert it from its 44100 Hz " + words), "\(reason)")
                #expect(detection.stimulusBleed?.message.hasSuffix("the metronome click grid was used instead") == true)
            }
        }
    }

    @Test func anUnrelatedStimulusIsNotSubtracted() {
        let scenario = Self.scenario
        let other = BleedScenario(duration: 20, seed: 12).stimulus
        let detection = detectTapOnsets(in: scenario.recording, stimulus: StimulusInput(signal: other))
        guard case .notReduced(let reason) = detection.stimulusBleed?.status else {
            Issue.record("status \(String(describing: detection.stimulusBleed?.status))")
            return
        }
        #expect(reason.contains("the stimulus signal"))
        #expect(detection.onsets == detectTapOnsets(in: scenario.recording).onsets)
    }

    @Test func keepIgnoresTheStimulus() {
        let scenario = Self.scenario
        let detection = detectTapOnsets(in: scenario.recording, bleed: .keep, stimulus: StimulusInput(signal: scenario.stimulus))
        #expect(detection.stimulusBleed == nil)
        #expect(detection.onsets.map(\.time) == detectTapOnsets(in: scenario.recording, bleed: .keep).onsets.map(\.time))
    }
}

/// A stimulus file at another rate than the recording, read through `ConvertedFileSource`.
@Suite struct ConvertedFileSourceTests {
    /// Frames `start ..< start + count` of `source`.
    func frames(_ source: some FrameReadable, from start: Int, count: Int) throws -> [Float] {
        var buffer = [Float](repeating: 0, count: count)
        let got = try buffer.withUnsafeMutableBufferPointer { try source.read(from: start, into: $0) }
        return Array(buffer[0..<got])
    }

    @Test(arguments: [(44_100, 48_000), (48_000, 44_100), (22_050, 37_800)])
    func readsBackwardsWithoutOpeningTheFileAgain(fileRate: Int, rate: Int) throws {
        let directory = NSTemporaryDirectory() + "tapkit-converted-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/stimulus.wav"
        let stimulus = SyntheticMusic(duration: 2, seed: 4)
        try Signal(samples: stimulus.render(origin: 0, step: 1 / Double(fileRate), count: 2 * fileRate), sampleRate: Double(fileRate))
            .write(to: path, format: .wavFloat, channelCount: 2)
        let whole = try frames(ConvertedFileSource(path: path, rate: rate), from: 0, count: 3 * rate)

        let source = try ConvertedFileSource(path: path, rate: rate)
        #expect(whole.count == source.frameCount)
        // Once opened, the file is not needed again: a pass back to the start rewinds the
        // reader it has (which a new reader, opening the file, could not do now).
        try FileManager.default.removeItem(atPath: path)
        let late = rate + 123
        #expect(try frames(source, from: late, count: 5_000) == Array(whole[late..<(late + 5_000)]))
        #expect(try frames(source, from: 0, count: whole.count) == whole)
        #expect(try frames(source, from: 7, count: 10_000) == Array(whole[7..<10_007]))
        #expect(try frames(source, from: 3, count: 1_000) == Array(whole[3..<1_003]))
    }
}
