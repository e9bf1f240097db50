import ArgumentParser
import Foundation
import TapAudio
import TapOnsets
import TapStatistics

/// Speed of tap detection with and without stimulus bleed removal on a synthetic recording:
/// music-like stimulus (harmonic notes and percussive bursts) leaking through a 3 ms path with
/// a 40 ppm clock drift at −35 dBFS, white noise at −50 dBFS, a tap every 0.55 s. Both files are
/// written as 44.1 kHz float WAV and analysed from disk, as `tapkit` would.
struct StimulusBleedBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stimulus-bleed",
        abstract: "Time tap detection with and without stimulus bleed removal (release build).")

    @Option(help: "Seconds of recording.")
    var seconds = 600.0

    @Option(help: "Timed runs of each kind (the median is reported).")
    var runs = 3

    func run() throws {
        let rate = 44_100.0
        let frames = Int(seconds * rate)
        let directory = NSTemporaryDirectory() + "tapkit-bleed-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let stimulus = Self.music(seconds: seconds + 2, origin: 0, step: 1 / rate, rate: rate)
        let played = Self.music(seconds: seconds + 2, origin: -0.003, step: (1 + 40e-6) / rate, rate: rate).prefix(frames)
        var recording = [Float](repeating: 0, count: frames)
        var power = 0.0
        for (n, value) in played.enumerated() {
            let echo = n >= 6 ? 0.5 * played[n - 6] : 0
            recording[n] = value + echo
            power += Double(recording[n]) * Double(recording[n])
        }
        let gain = Float(pow(10, -35.0 / 20) / (power / Double(frames)).squareRoot())
        var random = SeededGenerator(seed: 42)  // the same noise every run
        func gaussian() -> Float { Float(random.nextGaussian()) }
        for n in 0..<frames { recording[n] = recording[n] * gain + 0.003 * gaussian() }
        for start in stride(from: Int(0.7 * rate), to: frames - Int(0.1 * rate), by: Int(0.55 * rate)) {
            for offset in 0..<Int(0.05 * rate) { recording[start + offset] += Float(0.1 * exp(-Double(offset) / rate / 0.008)) * gaussian() }
        }
        try Signal(samples: recording, sampleRate: rate).write(to: directory + "/rec.wav", format: .wavFloat)
        try Signal(samples: stimulus, sampleRate: rate).write(to: directory + "/music.wav", format: .wavFloat)

        func time(_ body: () throws -> TapOnsetDetection) rethrows -> (Double, TapOnsetDetection) {
            var times: [Double] = []
            var last: TapOnsetDetection?
            for _ in 0..<runs {
                let start = DispatchTime.now().uptimeNanoseconds
                last = try body()
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
            return (times.sorted()[times.count / 2], last!)
        }
        let (plainSeconds, plain) = try time { try detectTapOnsets(inFile: directory + "/rec.wav") }
        let (removalSeconds, removal) = try time {
            try detectTapOnsets(inFile: directory + "/rec.wav", stimulus: StimulusInput(path: directory + "/music.wav"))
        }
        print("| what | audio | wall time (s) | × real time | onsets |")
        print("|---|---|---|---|---|")
        print(String(format: "| detection, click grid (no stimulus) | %.0f s | %.2f | %.0f | %d |", seconds, plainSeconds,
                     seconds / plainSeconds, plain.onsets.count))
        print(String(format: "| detection with stimulus bleed removal | %.0f s | %.2f | %.0f | %d |", seconds, removalSeconds,
                     seconds / removalSeconds, removal.onsets.count))
        print("stimulus: \(removal.stimulusBleed?.message ?? "none")")
        print("taps: \(Int((Double(frames) - 0.8 * rate) / (0.55 * rate)) + 1)")
    }

    /// Harmonic notes and inharmonic bursts at times `origin + n × step`, seeded.
    static func music(seconds: Double, origin: Double, step: Double, rate: Double) -> [Float] {
        let count = Int((seconds - origin) / step)
        var samples = [Double](repeating: 0, count: count)
        var random = SeededGenerator(seed: 7)
        func uniform() -> Double { random.nextUniform() }
        var time = 0.05
        while time < seconds {
            let f0 = 196 * pow(2, Double(Int(uniform() * 24)) / 12)
            var events = [(partials: (1...5).map { (f0 * Double($0), 1 / Double($0), 2 * Double.pi * uniform()) },
                           attack: 0.005, decay: 0.15 + 0.35 * uniform())]
            if uniform() < 0.35 {
                events.append(((0..<16).map { _ in (800 + 8_200 * uniform(), 0.5 + uniform(), 2 * Double.pi * uniform()) },
                               0.0005, 0.025))
            }
            for event in events {
                let first = max(0, Int(((time - origin) / step).rounded(.up)))
                let last = min(count, Int(((time + 5 * event.decay - origin) / step).rounded(.up)))
                guard first < last else { continue }
                for (frequency, amplitude, phase) in event.partials {
                    for n in first..<last {
                        let u = origin + Double(n) * step - time
                        samples[n] += amplitude * min(1, u / event.attack) * exp(-u / event.decay)
                            * sin(2 * Double.pi * frequency * u + phase)
                    }
                }
            }
            time += 0.2 + 0.4 * uniform()
        }
        return samples.map { Float($0) }
    }
}
