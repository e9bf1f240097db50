import Foundation
import TapAudio

/// The three sounds a metronome plays: accent, beat and subdivision, at one sample rate.
public struct ClickSounds: Sendable, Equatable {
    /// The sound of a bar's first beat (mono samples at the render rate).
    public var accent: [Float]
    /// The sound of the other beats.
    public var beat: [Float]
    /// The sound of subdivisions between beats.
    public var subdivision: [Float]

    /// The sound of a kind of click.
    public func sound(for kind: ClickKind) -> [Float] {
        switch kind {
        case .accent: return accent
        case .beat: return beat
        case .subdivision: return subdivision
        }
    }

    /// The longest of the three, in frames.
    public var longest: Int { max(accent.count, beat.count, subdivision.count) }

    /// TapKit's synthesized clicks: 25 ms sine pings at 2000 (accent), 1500 (beat) and
    /// 1000 Hz (subdivision). Each starts with a 0.5 ms raised-cosine rise (no click from a
    /// step at the onset, which still sits within a millisecond of the scheduled frame),
    /// decays with a 5 ms time constant and fades to exactly 0 over its last 2 ms, so no clip
    /// ends on a step either.
    public static func builtIn(sampleRate: Int) -> ClickSounds {
        func ping(_ frequency: Double) -> [Float] {
            let rate = Double(sampleRate)
            let count = Int(0.025 * rate)
            let rise = max(1, Int(0.0005 * rate)), fall = max(1, Int(0.002 * rate))
            return (0..<count).map { index in
                let t = Double(index) / rate
                var envelope = exp(-t / 0.005)
                if index < rise { envelope *= 0.5 - 0.5 * cos(Double.pi * Double(index) / Double(rise)) }
                let fromEnd = count - 1 - index
                if fromEnd < fall { envelope *= 0.5 - 0.5 * cos(Double.pi * Double(fromEnd) / Double(fall)) }
                return Float(0.9 * envelope * sin(2 * Double.pi * frequency * t))
            }
        }
        return ClickSounds(accent: ping(2_000), beat: ping(1_500), subdivision: ping(1_000))
    }

    /// A sound from any file TapAudio reads (the mix of its channels), converted to
    /// `sampleRate`; at most 10 s.
    public static func load(_ path: String, sampleRate: Int) throws(MetronomeError) -> [Float] {
        do {
            let signal = try Signal(contentsOf: path)
            guard signal.duration <= 10 else { throw MetronomeError.sound(path: path, reason: "longer than 10 s") }
            return Int(signal.sampleRate) == sampleRate ? signal.samples : try signal.resampled(to: sampleRate).samples
        } catch let error as MetronomeError {
            throw error
        } catch {
            throw .sound(path: path, reason: "\(error)")
        }
    }
}
