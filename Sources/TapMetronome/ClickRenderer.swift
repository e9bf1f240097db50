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
    /// The sounds each click kind plays.
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
