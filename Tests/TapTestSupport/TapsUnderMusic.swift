import Foundation

/// A synthetic recording of taps under loud, low-pitched music, for the detector's choice of
/// band: broadband taps (decaying noise bursts, 6 ms, every 0.5 s from 1 s, their levels in
/// four steps over 12 dB) over piano-like notes of a bass line and chords (fundamentals
/// 110–440 Hz, six harmonics rolling off, 4 ms attacks, 0.35 s decays, every 0.19 s), 20 s at
/// 44.1 kHz. The music fills the band under 1.5 kHz and is faint above 3 kHz; the taps are not.
public enum TapsUnderMusic {
    public static let sampleRate = 44_100.0
    /// Where the taps start, seconds.
    public static let tapTimes = (0..<36).map { 1.0 + 0.5 * Double($0) }

    /// Taps, music at `musicLevel` (the peak amplitude of a note's fundamental) and a faint
    /// white noise.
    public static func recording(musicLevel: Double) -> [Float] {
        var samples = music(level: musicLevel)
        var random = SplitMix64(seed: 7)
        for index in samples.indices { samples[index] += Float(0.0005 * random.gaussian()) }
        for (index, time) in tapTimes.enumerated() {
            let start = Int(time * sampleRate)
            let amplitude = 0.02 * pow(10, -4 * Double(index % 4) / 20)
            for offset in 0..<Int(0.05 * sampleRate) where start + offset < samples.count {
                let t = Double(offset) / sampleRate
                samples[start + offset] += Float(amplitude * exp(-t / 0.006) * random.gaussian())
            }
        }
        return samples
    }

    /// The music alone.
    public static func music(level: Double) -> [Float] {
        let frames = Int(20 * sampleRate)
        var random = SplitMix64(seed: 11)
        var samples = [Float](repeating: 0, count: frames)
        let fundamentals = [110.0, 146.8, 196.0, 220.0, 261.6, 329.6, 440.0]
        var noteStart = 0.31
        while noteStart < 19.8 {
            let f0 = fundamentals[Int(random.uniform() * Double(fundamentals.count))]
            let start = Int(noteStart * sampleRate)
            for offset in 0..<Int(0.6 * sampleRate) where start + offset < frames {
                let t = Double(offset) / sampleRate
                let envelope = min(1, t / 0.004) * exp(-t / 0.35)
                var value = 0.0
                for harmonic in 1...6 { value += sin(2 * .pi * f0 * Double(harmonic) * t) / Double(harmonic * harmonic) }
                samples[start + offset] += Float(level * envelope * value)
            }
            noteStart += 0.19
        }
        return samples
    }
}
