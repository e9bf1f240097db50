import Foundation
import TapAudio

/// The three sounds a metronome plays: accent, beat and subdivision, at one sample rate.
public struct ClickSounds: Sendable, Equatable {
    public var accent: [Float]
    public var beat: [Float]
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

/// A metronome rendered offline: the audio and every click, the ground truth for analysing
/// taps against it.
public struct RenderedMetronome: Sendable {
    /// Mono samples.
    public var samples: [Float]
    /// Frames per second.
    public var sampleRate: Int
    /// Every scheduled click, in order.
    public var clicks: [ClickEvent]
}

/// Renders a list of clicks block by block, so an hour-long click track needs no more memory
/// than one block: each played click's sound, times its volume, is added from its frame on,
/// and the track runs until the last sound has ended.
public struct ClickRenderer: Sendable {
    /// The clicks, in frame order.
    public let clicks: [ClickEvent]
    public let sounds: ClickSounds
    /// Frames in the whole track.
    public let frameCount: Int
    /// The first click whose sound may still reach the next block.
    private var first = 0

    /// A renderer for `clicks` (in frame order) lasting `frameCount` frames.
    public init(clicks: [ClickEvent], sounds: ClickSounds, frameCount: Int) {
        self.clicks = clicks
        self.sounds = sounds
        self.frameCount = frameCount
    }

    /// Writes frames `start ..< start + output.count` of the track into `output`; blocks must
    /// come in order.
    public mutating func render(into output: UnsafeMutableBufferPointer<Float>, from start: Int) {
        output.update(repeating: 0)
        let end = start + output.count
        while first < clicks.count && clicks[first].frame + sounds.longest <= start { first += 1 }
        var index = first
        while index < clicks.count && clicks[index].frame < end {
            let click = clicks[index]
            index += 1
            guard click.played && click.volume > 0 else { continue }
            sounds.sound(for: click.kind).withUnsafeBufferPointer { clip in
                let from = max(start, click.frame), to = min(end, click.frame + clip.count)
                guard from < to else { return }
                for frame in from..<to { output[frame - start] += click.volume * clip[frame - click.frame] }
            }
        }
    }
}

/// Renders `bars` bars of `schedule` with `sounds` into memory (``ClickRenderer`` streams).
public func renderMetronome(_ schedule: ClickSchedule, bars: Int, sounds: ClickSounds) -> RenderedMetronome {
    let clicks = schedule.clicks(inBars: 0..<bars)
    var renderer = ClickRenderer(clicks: clicks, sounds: sounds, frameCount: schedule.frame(ofBar: bars) + sounds.longest)
    var samples = [Float](repeating: 0, count: renderer.frameCount)
    samples.withUnsafeMutableBufferPointer { renderer.render(into: $0, from: 0) }
    return RenderedMetronome(samples: samples, sampleRate: schedule.sampleRate, clicks: clicks)
}
