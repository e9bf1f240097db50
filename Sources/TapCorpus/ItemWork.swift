import Foundation
import TapAudio
import TapSim
import TapStatistics

/// An item while it is being rendered: the signal, what has been added, and the notes.
struct ItemWork {
    var samples: [Float]
    var sampleRate: Double
    /// Start frames of the audible taps at the original rate (48 kHz by default).
    var tapFrames: [Int]
    let originalRate: Double
    /// The RMS TapSim's levels refer to (its noise level), in the output's scale.
    var noiseRMS: Double
    var duration: Double
    var events: [CorpusEvent] = []
    var stimulus: Signal?
    var processingDelay: Double?
    var notes: [String] = []

    init(samples: [Float], sampleRate: Double, tapFrames: [Int], noiseRMS: Double, duration: Double) {
        self.samples = samples
        self.sampleRate = sampleRate
        self.tapFrames = tapFrames
        originalRate = sampleRate
        self.noiseRMS = noiseRMS
        self.duration = duration
    }

    var tapTimes: [Double] { tapFrames.map { Double($0) / originalRate } }

    /// Level in dBFS of `rms`, for the notes.
    static func dbfs(_ rms: Double) -> String { format(20 * PortableMath.log(max(rms, 1e-12)) / PortableMath.ln10, decimals: 1) }

    // MARK: external processing

    /// Writes the signal for a tool (32-bit float WAV, nothing lost).
    func writeInput(_ path: String) throws {
        try Signal(samples: samples, sampleRate: sampleRate).write(to: path, format: .wavFloat)
    }

    /// Reads a tool's output, mono, and measures the processing's delay against `reference`
    /// (the signal before it). With `removingDelay`, a delay of a whole frame or more is taken
    /// out (the output moved earlier) and noted; the residual is what is recorded. Then the
    /// output is cut or padded with zeros to the recording's length.
    mutating func adoptOutput(_ path: String, reference: Signal, removingDelay: Bool = false) throws {
        let output = try AudioFileReader(path: path).readAll()
        let count = Int((duration * output.sampleRate).rounded())
        var ref = reference
        if output.sampleRate != reference.sampleRate {
            ref = try reference.resampled(to: Int(output.sampleRate))
        }
        var out = output.samples
        var delay = DelayMeasurement.delay(reference: ref.samples, processed: out, sampleRate: output.sampleRate,
                                           tapTimes: tapTimes)
        if removingDelay, let measured = delay, measured * output.sampleRate >= 1 {
            let frames = Int((measured * output.sampleRate).rounded())
            out.removeFirst(min(frames, out.count))
            notes.append("latency_removed_ms=\(format(Double(frames) / output.sampleRate * 1000))")
            delay = DelayMeasurement.delay(reference: ref.samples, processed: out, sampleRate: output.sampleRate,
                                           tapTimes: tapTimes)
        }
        processingDelay = delay
        out = Array(out.prefix(count))
        out += [Float](repeating: 0, count: count - out.count)
        samples = out
        sampleRate = output.sampleRate
    }

    /// Runs an ffmpeg audio filter chain over the signal. With `removingDelay`, the input is
    /// padded with 100 ms of silence (so a filter's latency loses nothing) and the measured
    /// latency is taken out of the output (``adoptOutput(_:reference:removingDelay:)``).
    mutating func process(run: ToolRun, filter: String, removingDelay: Bool = false) throws {
        let input = run.scratch + "/in.wav", output = run.scratch + "/out.wav"
        let original = samples
        if removingDelay { samples += [Float](repeating: 0, count: Int((0.1 * sampleRate).rounded())) }
        try writeInput(input)
        samples = original
        try run(.ffmpeg, ToolRun.ffmpegPrefix + ["-i", input, "-af", filter, "-c:a", "pcm_f32le"]
                + ToolRun.ffmpegBitexact + [output])
        try adoptOutput(output, reference: Signal(samples: samples, sampleRate: sampleRate), removingDelay: removingDelay)
    }

    /// Runs sox effects over the signal.
    mutating func process(run: ToolRun, soxEffect: [String]) throws {
        let input = run.scratch + "/in.wav", output = run.scratch + "/out.wav"
        try writeInput(input)
        try run(.sox, ["-V1", "--no-dither", input, "-e", "floating-point", "-b", "32", output] + soxEffect)
        try adoptOutput(output, reference: Signal(samples: samples, sampleRate: sampleRate))
    }

    /// Resampled by sox (very high quality, linear phase); the file stays at the new rate.
    mutating func resample(to rate: Int, run: ToolRun) throws {
        try process(run: run, soxEffect: ["rate", "-v", "\(rate)"])
        notes.append("resampler=sox rate -v;rate_hz=\(rate)")
    }

    /// Encoded and decoded back by ffmpeg.
    mutating func codec(_ condition: CorpusCondition, bitrate: Int, run: ToolRun) throws {
        let (encoder, ext) = switch condition {
        case .aac: ("aac", "m4a")
        case .opus: ("libopus", "opus")
        default: ("libmp3lame", "mp3")
        }
        let input = run.scratch + "/in.wav", encoded = run.scratch + "/coded." + ext, output = run.scratch + "/out.wav"
        try writeInput(input)
        try run(.ffmpeg, ToolRun.ffmpegPrefix + ["-i", input, "-c:a", encoder, "-b:a", "\(bitrate)k"]
                + ToolRun.ffmpegBitexact + [encoded])
        try run(.ffmpeg, ToolRun.ffmpegPrefix + ["-i", encoded, "-ar", "\(Int(sampleRate))", "-ac", "1", "-c:a", "pcm_f32le"]
                + ToolRun.ffmpegBitexact + [output])
        try adoptOutput(output, reference: Signal(samples: samples, sampleRate: sampleRate))
        notes.append("codec=\(encoder);bitrate_kbps=\(bitrate)")
    }

    // MARK: gating

    /// The peak of each tap over its first 30 ms.
    func tapPeaks() -> [Double] {
        let ratio = sampleRate / originalRate
        let window = Int((0.030 * sampleRate).rounded())
        return tapFrames.map { frame in
            let start = Int((Double(frame) * ratio).rounded())
            var peak: Float = 0
            for n in max(0, start)..<min(samples.count, start + window) { peak = max(peak, abs(samples[n])) }
            return Double(peak)
        }
    }

    /// RMS of the background: the quietest half of the 50 ms windows that end 40 ms before a
    /// tap (so tap tails and the gate's release are not counted as background).
    func backgroundRMS() -> Double {
        let window = Int((0.050 * sampleRate).rounded())
        let ratio = sampleRate / originalRate
        var powers: [Double] = []
        for frame in tapFrames {
            let end = Int((Double(frame) * ratio).rounded()) - Int((0.040 * sampleRate).rounded())
            guard end - window >= 0 else { continue }
            var sum = 0.0
            for n in (end - window)..<end { sum += Double(samples[n]) * Double(samples[n]) }
            powers.append(sum / Double(window))
        }
        guard !powers.isEmpty else { return 0 }
        return powers.sorted()[(powers.count - 1) / 2].squareRoot()
    }

    mutating func scale(by gain: Double) {
        let g = Float(gain)
        for n in samples.indices { samples[n] *= g }
        noiseRMS *= gain
    }

    /// Phone-like noise suppression and gating: high-passed at 120 Hz (4th order: the hum
    /// goes) and FFT-denoised by `afftdn` (25 dB, its noise floor set to the recording's; its
    /// latency, 25 ms in ffmpeg 5.1, is measured and removed so the taps stay where the truth
    /// has them); levelled so that the median tap peaks at −12 dBFS; then gated by `agate`
    /// 12 dB above the remaining background, the gate's floor chosen so that the background
    /// ends near −75 dBFS. `stages` leaves out the suppressor or the gate, to tell what each
    /// does to the taps (``GatedStages``).
    mutating func gate(run: ToolRun, stages: GatedStages = .both) throws {
        let noiseDB = Int(max(-80, min(-20, 20 * PortableMath.log(max(noiseRMS, 1e-9)) / PortableMath.ln10)).rounded())
        var filters = ["highpass(120Hz;4th)"]
        if stages == .gate {
            try process(run: run, filter: "highpass=f=120,highpass=f=120")
        } else {
            try process(run: run, filter: "highpass=f=120,highpass=f=120,afftdn=nr=25:nf=\(noiseDB):tn=1", removingDelay: true)
            filters.append("afftdn(nr=25;nf=\(noiseDB))")
        }
        let firstDelay = processingDelay
        let peaks = tapPeaks().sorted()
        if let median = peaks.isEmpty ? nil : peaks[(peaks.count - 1) / 2], median > 0 {
            scale(by: PortableMath.amplitude(decibels: -12) / median)
        }
        let backgroundDB = 20 * PortableMath.log(max(backgroundRMS(), 1e-9)) / PortableMath.ln10
        if stages != .suppressor {
            let rangeDB = max(-60, min(0, -75 - backgroundDB))
            let threshold = PortableMath.amplitude(decibels: backgroundDB + 12)
            try process(run: run, filter: "agate=threshold=\(format(threshold, decimals: 7)):range="
                        + "\(format(PortableMath.amplitude(decibels: rangeDB), decimals: 7)):ratio=20:attack=0.5:release=80:knee=2")
            if let firstDelay, let second = processingDelay { processingDelay = firstDelay + second }
            filters.append("agate(+12dB;range=\(format(rangeDB, decimals: 1))dB)")
        }
        let after = tapPeaks().sorted()
        notes.append("filter=" + filters.joined(separator: "+"))
        if stages != .both { notes.append("gated_stages=\(stages.rawValue)") }
        if !after.isEmpty { notes.append("tap_peak_median_dbfs=\(Self.dbfs(after[(after.count - 1) / 2]))") }
        // Without the gate there is no background before it: only the one left is noted.
        notes.append((stages == .suppressor ? "" : "background_before_gate_dbfs=\(format(backgroundDB, decimals: 1));")
                     + "background_dbfs=\(Self.dbfs(backgroundRMS()))")
    }

    // MARK: synthesised damage

    /// Amplified so that the loudest tap peaks `overdriveDB` above full scale, then clipped at ±1.
    mutating func clip(overdriveDB: Double) {
        let peaks = tapPeaks()
        guard let loudest = peaks.max(), loudest > 0 else { return }
        let gain = PortableMath.amplitude(decibels: overdriveDB) / loudest
        scale(by: gain)
        let clipped = peaks.filter { $0 * gain > 1 }.count
        for n in samples.indices { samples[n] = max(-1, min(1, samples[n])) }
        notes.append("gain_db=\(format(20 * PortableMath.log(gain) / PortableMath.ln10, decimals: 1));clipped_taps=\(clipped)/\(peaks.count)")
    }

    /// A DC offset: a constant, a slow wander, and a settling transient at the start.
    mutating func addDCOffset(generator g: inout SeededGenerator) {
        let sign = g.nextBool(probability: 0.5) ? 1.0 : -1.0
        let offset = sign * g.nextUniform(in: 0.05...0.25)
        let wander = g.nextUniform(in: 0.005...0.02), wanderHz = g.nextUniform(in: 0.05...0.5)
        let settle = -sign * g.nextUniform(in: 0.1...0.3), settleTau = g.nextUniform(in: 0.05...0.2)
        let dc = (0..<samples.count).map { n -> Double in
            let t = Double(n) / sampleRate
            return offset + wander * PortableMath.sin(PortableMath.twoPi * wanderHz * t) + settle * PortableMath.exp(-t / settleTau)
        }
        let dcPeak = dc.reduce(0) { max($0, abs($1)) }
        let peak = Double(samples.reduce(0) { max($0, abs($1)) })
        let room = 0.99 - dcPeak
        if peak > room { scale(by: room / peak) }
        for n in samples.indices { samples[n] += Float(dc[n]) }
        notes.append("dc=\(format(offset));wander=\(format(wander));wander_hz=\(format(wanderHz));settle=\(format(settle));settle_ms=\(format(settleTau * 1000, decimals: 0))")
    }

    /// A time at least `clearance` from every tap start, inside the recording (nil if none found).
    func timeBetweenTaps(clearance: Double, generator g: inout SeededGenerator) -> Double? {
        let taps = tapTimes
        for _ in 0..<1000 {
            let t = g.nextUniform(in: 0.3...(duration - 0.3))
            if !taps.contains(where: { abs($0 - t) < clearance }) { return t }
        }
        return nil
    }

    /// `dB` above TapSim's reference noise, as dBFS.
    func dbfs(reNoise dB: Double) -> Double { 20 * PortableMath.log(max(noiseRMS, 1e-9)) / PortableMath.ln10 + dB }

    /// Handling noise: 3–6 thumps (+10…+30 dB re noise) and 2–4 rubs (0…+15 dB), starting
    /// between taps.
    mutating func addHandlingNoise(generator g: inout SeededGenerator) {
        let thumps = 3 + g.nextInt(below: 4), rubs = 2 + g.nextInt(below: 3)
        for index in 0..<(thumps + rubs) {
            let isThump = index < thumps
            let sound = isThump ? HandlingSound.thump(sampleRate: sampleRate, generator: &g)
                                : HandlingSound.rub(sampleRate: sampleRate, generator: &g)
            let level = isThump ? g.nextUniform(in: 10...30) : g.nextUniform(in: 0...15)
            guard let time = timeBetweenTaps(clearance: 0.06, generator: &g) else { continue }
            let start = Int((time * sampleRate).rounded())
            Sound.add(sound, levelDBFS: dbfs(reNoise: level), at: start, sampleRate: sampleRate, into: &samples)
            events.append(CorpusEvent(time: Double(start) / sampleRate, kind: isThump ? "thump" : "rub",
                                      duration: Double(sound.count) / sampleRate))
        }
        notes.append("thumps=\(thumps);rubs=\(rubs)")
    }

    /// Key press/release pairs 60–90 ms apart between taps: 6–12 pairs, presses +5…+25 dB re
    /// noise, releases 0–8 dB softer.
    mutating func addKeyboardDistractors(generator g: inout SeededGenerator) {
        let key = KeyClick(sampleRate: sampleRate, generator: &g)
        let pairs = 6 + g.nextInt(below: 7)
        for _ in 0..<pairs {
            let gap = g.nextUniform(in: 0.060...0.090)
            let level = g.nextUniform(in: 5...25), releaseDrop = g.nextUniform(in: 0...8)
            guard let time = timeBetweenTaps(clearance: 0.04 + gap, generator: &g) else { continue }
            let press = Int((time * sampleRate).rounded()), release = press + Int((gap * sampleRate).rounded())
            Sound.add(key.press, levelDBFS: dbfs(reNoise: level), at: press, sampleRate: sampleRate, into: &samples)
            Sound.add(key.release, levelDBFS: dbfs(reNoise: level - releaseDrop), at: release, sampleRate: sampleRate,
                      into: &samples)
            events.append(CorpusEvent(time: Double(press) / sampleRate, kind: "key-press", duration: Double(key.press.count) / sampleRate))
            events.append(CorpusEvent(time: Double(release) / sampleRate, kind: "key-release", duration: Double(key.release.count) / sampleRate))
        }
        notes.append("key_pairs=\(pairs)")
    }

    /// The taps' own sound replaced by a key press with the same power over its first 10 ms,
    /// and its release 60–90 ms later (0–8 dB softer). The truth is the press.
    mutating func replaceTapsWithKeys(stems: SimulatedStems, taps: [TapTruth], generator g: inout SeededGenerator) {
        for n in samples.indices { samples[n] -= stems.taps[n] }
        let key = KeyClick(sampleRate: sampleRate, generator: &g)
        let window = Int((0.010 * sampleRate).rounded())
        func power(_ s: [Double]) -> Double { s.prefix(window).reduce(0) { $0 + $1 * $1 } / Double(window) }
        let pressPower = power(key.press), releasePower = power(key.release)
        for tap in taps {
            var tapPower = 0.0
            for n in tap.startFrame..<min(samples.count, tap.startFrame + window) { tapPower += Double(stems.taps[n]) * Double(stems.taps[n]) }
            tapPower /= Double(window)
            let gain = (tapPower / pressPower).squareRoot()
            let gap = g.nextUniform(in: 0.060...0.090), drop = g.nextUniform(in: 0...8)
            let release = tap.startFrame + Int((gap * sampleRate).rounded())
            Sound.add(key.press, gain: gain, at: tap.startFrame, into: &samples)
            Sound.add(key.release, gain: gain * (pressPower / releasePower).squareRoot() * PortableMath.amplitude(decibels: -drop),
                      at: release, into: &samples)
            events.append(CorpusEvent(time: Double(release) / sampleRate, kind: "key-release", duration: Double(key.release.count) / sampleRate))
        }
        notes.append("taps=key-press;release_after_ms=60-90")
    }

    // MARK: foreign stimuli

    /// Mixes the stimulus (at `rate`, from time 0) in through the acoustic path and keeps the
    /// clean stimulus; `events` are stimulus times, moved into the recording's time.
    mutating func addStimulus(_ stimulus: [Double], rate: Double, path: AcousticPath,
                              events stimulusEvents: [(time: Double, duration: Double)], kind: String) {
        let floats = stimulus.map { Float($0) }
        let leaked = path.apply(to: floats, stimulusRate: rate, outputRate: sampleRate, frameCount: samples.count)
        for n in samples.indices { samples[n] += leaked[n] }
        self.stimulus = Signal(samples: floats, sampleRate: rate)
        for event in stimulusEvents {
            let time = path.recordingTime(ofStimulusTime: event.time)
            if time < duration { events.append(CorpusEvent(time: time, kind: kind, duration: event.duration)) }
        }
        notes.append(path.notes)
    }

    /// 2–4 sentences spoken by espeak-ng (voices, speeds and pitches drawn), starting between
    /// taps, +10…+30 dB re noise over their loudest 10 ms.
    mutating func addSpeech(run: ToolRun, generator g: inout SeededGenerator) throws {
        let count = 2 + g.nextInt(below: 3)
        var voices: [String] = []
        for index in 0..<count {
            let voice = SpeechText.voices[g.nextInt(below: SpeechText.voices.count)]
            let text = SpeechText.sentences[g.nextInt(below: SpeechText.sentences.count)]
            let speed = 130 + g.nextInt(below: 61), pitch = 25 + g.nextInt(below: 51)
            let level = g.nextUniform(in: 10...30)
            let path = run.scratch + "/speech\(index).wav"
            // `-w` rather than `--stdout`: the same WAV, but with its real length in the header.
            try run(.espeakNG, ["-w", path, "-v", voice, "-s", "\(speed)", "-p", "\(pitch)", text])
            var speech = try AudioFileReader(path: path).readAll()
            if speech.sampleRate != sampleRate { speech = try speech.resampled(to: Int(sampleRate)) }
            let sound = speech.samples.map(Double.init)
            // Skip the leading silence espeak-ng writes, so the event starts with the voice.
            let firstSound = sound.firstIndex { abs($0) > 1e-3 } ?? 0
            let trimmed = Array(sound[firstSound...])
            guard let time = timeBetweenTaps(clearance: 0.06, generator: &g) else { continue }
            let start = Int((time * sampleRate).rounded())
            Sound.add(trimmed, levelDBFS: dbfs(reNoise: level), at: start, sampleRate: sampleRate, into: &samples)
            events.append(CorpusEvent(time: Double(start) / sampleRate, kind: "speech", duration: Double(trimmed.count) / sampleRate))
            voices.append(voice)
        }
        notes.append("utterances=\(voices.count);voices=\(voices.joined(separator: "+"))")
    }

    /// Scales everything down to a peak of 0.999 if it passed full scale (16-bit output would clip).
    mutating func limitPeak() {
        let peak = Double(samples.reduce(0) { max($0, abs($1)) })
        guard peak > 1 else { return }
        scale(by: 0.999 / peak)
        notes.append("scaled_db=\(format(20 * PortableMath.log(0.999 / peak) / PortableMath.ln10, decimals: 1))")
    }
}

/// What the speech distractors say, and in which voices.
enum SpeechText {
    static let voices = ["en", "en-us", "de", "fr", "es", "nl", "it"]
    static let sentences = [
        "Could you pass me the other cable please",
        "I think the meeting moved to Thursday afternoon",
        "Wait, did you hear that noise from the kitchen",
        "Let us try that again from the beginning",
        "The results should be ready in about ten minutes",
        "No, the blue folder, on the shelf next to the window",
        "Okay, one more time and then we take a break",
        "Somebody left the door open again",
        "Are you recording already or not yet",
        "Seven, eight, nine, ten, and stop",
    ]
}

/// The delay of a processed signal against its input, by cross-correlation around taps.
enum DelayMeasurement {
    /// Seconds (positive: the processed signal is later), from windows of −5…+40 ms around the
    /// eight loudest taps, lags up to ±50 ms, refined by a parabola through the peak.
    static func delay(reference: [Float], processed: [Float], sampleRate fs: Double, tapTimes: [Double]) -> Double? {
        let before = Int((0.005 * fs).rounded()), after = Int((0.040 * fs).rounded()), maxLag = Int((0.050 * fs).rounded())
        let starts = tapTimes.map { Int(($0 * fs).rounded()) }
            .filter { $0 - before - maxLag >= 0 && $0 + after + maxLag < min(reference.count, processed.count) }
        let loudest = starts.sorted { energy(reference, $0, after) > energy(reference, $1, after) }.prefix(8)
        guard !loudest.isEmpty else { return nil }
        var correlation = [Double](repeating: 0, count: 2 * maxLag + 1)
        reference.withUnsafeBufferPointer { r in
            processed.withUnsafeBufferPointer { p in
                for start in loudest {
                    for lagIndex in 0...(2 * maxLag) {
                        let lag = lagIndex - maxLag
                        var sum = 0.0
                        for n in (start - before)..<(start + after) { sum += Double(r[n]) * Double(p[n + lag]) }
                        correlation[lagIndex] += sum
                    }
                }
            }
        }
        guard let best = correlation.indices.max(by: { correlation[$0] < correlation[$1] }), correlation[best] > 0 else { return nil }
        var refined = Double(best)
        if best > 0 && best < correlation.count - 1 {
            let a = correlation[best - 1], b = correlation[best], c = correlation[best + 1]
            let denominator = a - 2 * b + c
            if denominator < 0 { refined += 0.5 * (a - c) / denominator }
        }
        return (refined - Double(maxLag)) / fs
    }

    private static func energy(_ x: [Float], _ start: Int, _ length: Int) -> Double {
        var sum = 0.0
        for n in start..<(start + length) { sum += Double(x[n]) * Double(x[n]) }
        return sum
    }
}
