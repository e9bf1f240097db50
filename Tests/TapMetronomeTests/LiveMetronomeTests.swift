import Foundation
import Testing
import TapMetronome
import TapTestSupport

/// Renders `frames` frames of `metronome` in blocks of `blockSize` (or random sizes 1…2048 with
/// `random`), returning the samples and every click event.
func renderLive(_ metronome: LiveMetronome, frames: Int, blockSize: Int? = nil,
                random: inout SplitMix64) -> (samples: [Float], events: [LiveClickEvent]) {
    var samples = [Float](repeating: .nan, count: frames)
    var events: [LiveClickEvent] = []
    var position = 0
    while position < frames {
        let count = min(frames - position, blockSize ?? Int(random.next() % 2_048) + 1)
        samples.withUnsafeMutableBufferPointer { all in
            metronome.render(into: UnsafeMutableBufferPointer(rebasing: all[position..<(position + count)]))
        }
        position += count
        metronome.pollEvents(into: &events)
    }
    return (samples, events)
}

/// A decaying sine that ends on a non-zero sample, so a clip cut short would show.
func ping(_ frequency: Double, seconds: Double, rate: Int, amplitude: Float = 0.5) -> [Float] {
    (0..<Int(seconds * Double(rate))).map { index in
        let t = Double(index) / Double(rate)
        let envelope: Double = exp(-t / max(seconds / 3, 0.001))
        let value: Double = envelope * sin(2 * Double.pi * frequency * t) + 0.1
        return amplitude * Float(value)
    }
}

/// Click sounds from three clips (ClickSounds has no public memberwise initializer).
func clickSounds(accent: [Float], beat: [Float], subdivision: [Float]) -> ClickSounds {
    var sounds = ClickSounds.builtIn(sampleRate: 1_000)
    sounds.accent = accent
    sounds.beat = beat
    sounds.subdivision = subdivision
    return sounds
}

@Suite struct LiveMetronomeTests {
    /// Without changes, ten minutes rendered live in random block sizes equal the offline render
    /// sample for sample, and the click events are the offline schedule's.
    @Test func unchangedEqualsOfflineRender() throws {
        let rate = 48_000
        var settings = MetronomeSettings(tempo: Rational("100.3")!, meter: Meter(7, 8)!)
        settings.subdivisions = [2: 0.7, 3: 0.45]
        let sounds = ClickSounds.builtIn(sampleRate: rate)
        let schedule = try ClickSchedule(settings, sampleRate: rate)
        var bars = 1
        while schedule.frame(ofBar: bars) < 600 * rate { bars += 1 }
        let offline = renderMetronome(schedule, bars: bars, sounds: sounds)
        let frames = schedule.frame(ofBar: bars)

        let live = try LiveMetronome(settings: settings, sounds: sounds, sampleRate: rate)
        var random = SplitMix64(seed: 0x11FE)
        let (samples, events) = renderLive(live, frames: frames, random: &random)

        var largest: Float = 0, differing = 0
        for index in 0..<frames {
            let difference = abs(samples[index] - offline.samples[index])
            largest = max(largest, difference)
            if difference != 0 { differing += 1 }
        }
        // Voices mix in click order, as the offline renderer adds clicks: the same sums, bit for bit.
        #expect(differing == 0, "\(differing) of \(frames) samples differ, by up to \(largest)")
        #expect(events.count == offline.clicks.count)
        #expect(events.map(\.frame) == offline.clicks.map(\.frame))
        let expected = offline.clicks.map { LiveClickEvent(frame: $0.frame, bar: $0.bar, beat: $0.beat, step: $0.step, of: $0.of,
                                                            kind: $0.kind, volume: $0.volume, settingsVersion: 0, played: true) }
        #expect(events == expected)
        #expect(live.renderedFrames == frames && live.droppedClicks == 0 && live.droppedEvents == 0)
    }

    /// 120 → 90 BPM in 4/4 at 48 kHz, at frame f of the first bar (96 000 frames long): f/96 000
    /// of the bar has elapsed, so the new 128 000-frame bar started at f − (f/96 000) × 128 000
    /// = −f/3, and beat k (from that start) falls at round(32 000 k − f/3).
    @Test(arguments: [60_000, 60_500, 61_001, 95_999])
    func tempoChangeKeepsThePhase(at change: Int) throws {
        let rate = 48_000
        let live = try LiveMetronome(settings: MetronomeSettings(tempo: Rational(120), meter: Meter(4, 4)!),
                                     sounds: .builtIn(sampleRate: rate), sampleRate: rate)
        var random = SplitMix64(seed: 1)
        var events = renderLive(live, frames: change, blockSize: 1_000, random: &random).events
        #expect(try live.apply(MetronomeSettings(tempo: Rational(90), meter: Meter(4, 4)!), sounds: .builtIn(sampleRate: rate)))
        events += renderLive(live, frames: 300_000, blockSize: 1_000, random: &random).events

        var expected = [0, 24_000, 48_000, 72_000].filter { $0 < change }.map { ($0, 1, $0 / 24_000 + 1, 0) }
        for k in 0..<16 {
            let frame = Int((Rational(Int64(32_000 * k)) - Rational(Int64(change), 3)).roundedToNearest)
            if frame >= change && frame < change + 300_000 { expected.append((frame, 1 + k / 4, k % 4 + 1, 1)) }
        }
        #expect(events.map(\.frame) == expected.map(\.0))
        #expect(events.map(\.bar) == expected.map(\.1))
        #expect(events.map(\.beat) == expected.map(\.2))
        #expect(events.map(\.settingsVersion) == expected.map(\.3))
        var changes: [LiveSettingsChange] = []
        live.pollChanges(into: &changes)
        #expect(changes == [LiveSettingsChange(frame: change, settingsVersion: 1)])
    }

    /// 4/4 → 3/4 at 120 BPM halfway through a bar: half of the new 72 000-frame bar has
    /// elapsed, so it started at 12 000; its third beat is at 60 000 and the next bar at 84 000.
    @Test func meterChangeKeepsThePhase() throws {
        let rate = 48_000
        let live = try LiveMetronome(settings: MetronomeSettings(tempo: Rational(120), meter: Meter(4, 4)!),
                                     sounds: .builtIn(sampleRate: rate), sampleRate: rate)
        var random = SplitMix64(seed: 2)
        var events = renderLive(live, frames: 48_000, blockSize: 480, random: &random).events
        #expect(try live.apply(MetronomeSettings(tempo: Rational(120), meter: Meter(3, 4)!), sounds: .builtIn(sampleRate: rate)))
        events += renderLive(live, frames: 150_000, blockSize: 480, random: &random).events
        #expect(events.map(\.frame) == [0, 24_000, 60_000, 84_000, 108_000, 132_000, 156_000, 180_000])
        #expect(events.map(\.beat) == [1, 2, 3, 1, 2, 3, 1, 2])
        #expect(events.map(\.bar) == [1, 1, 1, 2, 2, 2, 3, 3])
    }

    /// A full handoff queue refuses a change; replaced settings are freed only once the last
    /// clip playing their sounds has ended.
    @Test func fullHandoffAndGarbage() throws {
        let rate = 48_000
        let long = clickSounds(accent: ping(800, seconds: 1, rate: rate), beat: ping(600, seconds: 0.01, rate: rate),
                               subdivision: [])
        let settings = MetronomeSettings(tempo: Rational(120), meter: Meter(4, 4)!)
        let live = try LiveMetronome(settings: settings, sounds: long, sampleRate: rate, changeCapacity: 4)
        var random = SplitMix64(seed: 3)
        var events = renderLive(live, frames: 256, blockSize: 256, random: &random).events  // the 1 s accent starts
        for tempo in [100, 101, 102, 103] {
            #expect(try live.apply(MetronomeSettings(tempo: Rational(tempo), meter: Meter(4, 4)!), sounds: .builtIn(sampleRate: rate)))
        }
        #expect(try live.apply(settings, sounds: long) == false)
        #expect(live.settingsVersion == 4 && live.compiledSettingsCount == 5)
        events += renderLive(live, frames: 256, blockSize: 256, random: &random).events
        live.collectGarbage()
        // Versions 1–3 never sounded and are freed; version 0 still plays its accent.
        #expect(live.compiledSettingsCount == 2)
        events += renderLive(live, frames: 47_872 - 512, blockSize: 256, random: &random).events
        live.collectGarbage()
        #expect(live.renderedFrames == 47_872 && live.compiledSettingsCount == 2)
        events += renderLive(live, frames: 256, blockSize: 256, random: &random).events  // the accent's last sample: 47 999
        live.collectGarbage()
        #expect(live.compiledSettingsCount == 1)
        #expect(try live.apply(settings, sounds: long))
        #expect(events.map(\.settingsVersion) == [0, 4])
    }

    /// With every retired slot taken by settings whose clips still sound, a further change
    /// waits in its queue until the oldest clip ends.
    @Test func changesWaitWhileRetiredSettingsSound() throws {
        let rate = 48_000
        let long = clickSounds(accent: ping(500, seconds: 10, rate: rate), beat: [], subdivision: [])
        // One bar of one beat per 24 000-frame block: each block starts with an accent.
        let live = try LiveMetronome(settings: MetronomeSettings(tempo: Rational(120), meter: Meter(1, 4)!), sounds: long,
                                     sampleRate: rate)
        var random = SplitMix64(seed: 4)
        var events = renderLive(live, frames: 24_000, blockSize: 24_000, random: &random).events
        for version in 1...9 {
            #expect(try live.apply(MetronomeSettings(tempo: Rational(120), meter: Meter(1, 4)!), sounds: long))
            events += renderLive(live, frames: 24_000, blockSize: 24_000, random: &random).events
            #expect(live.settingsVersion == version)
        }
        events += renderLive(live, frames: 24_000 * 12, blockSize: 24_000, random: &random).events
        var changes: [LiveSettingsChange] = []
        live.pollChanges(into: &changes)
        // Eight replaced settings each keep a 10 s accent sounding; the ninth change waits for
        // the first accent (frames 0 ..< 480 000) to end.
        #expect(changes == (1...8).map { LiveSettingsChange(frame: 24_000 * $0, settingsVersion: $0) }
                + [LiveSettingsChange(frame: 480_000, settingsVersion: 9)])
        #expect(events.map(\.frame) == (0..<22).map { 24_000 * $0 })
        #expect(events.map(\.settingsVersion) == Array(0...8) + Array(repeating: 8, count: 11) + [9, 9])
    }

    /// With two voices, a third overlapping clip is not played (and counted); the two sounding
    /// ones play on to their last sample.
    @Test func busyVoicesDropClicksWithoutCuttingOthers() throws {
        let rate = 8_000
        let sounds = clickSounds(accent: ping(300, seconds: 2.5, rate: rate), beat: ping(200, seconds: 2.5, rate: rate), subdivision: [])
        let live = try LiveMetronome(settings: MetronomeSettings(tempo: Rational(60), meter: Meter(4, 4)!), sounds: sounds,
                                     sampleRate: rate, voiceCapacity: 2)
        var random = SplitMix64(seed: 5)
        let (samples, events) = renderLive(live, frames: 8 * rate, random: &random)
        // A beat each second, clips 2.5 s long: beats 0 and 1 sound; 2 is dropped (0 and 1
        // still sound); 3 sounds (0 ended at 2.5 s), 4 too (1 ended at 3.5 s); 5 is dropped; 6
        // and 7 sound.
        #expect(events.map(\.played) == [true, true, false, true, true, false, true, true])
        #expect(live.droppedClicks == 2)
        var model = [Float](repeating: 0, count: samples.count)
        for event in events where event.played {
            let clip = event.kind == .accent ? sounds.accent : sounds.beat
            for (index, sample) in clip.enumerated() where event.frame + index < model.count {
                model[event.frame + index] += event.volume * sample
            }
        }
        #expect(zip(samples, model).map { abs($0 - $1) }.max()! <= 1e-6)
    }

    @Test func invalidInputsAreRefused() throws {
        let settings = MetronomeSettings(tempo: Rational(120), meter: Meter(4, 4)!)
        #expect(throws: MetronomeError.outOfRange("sample rate", "500", "1000–768000")) {
            try LiveMetronome(settings: settings, sounds: .builtIn(sampleRate: 500), sampleRate: 500)
        }
        let live = try LiveMetronome(settings: settings, sounds: .builtIn(sampleRate: 48_000), sampleRate: 48_000)
        var bad = settings
        bad.tempo = Rational(0)
        #expect(throws: MetronomeError.self) { try live.apply(bad, sounds: .builtIn(sampleRate: 48_000)) }
        #expect(live.settingsVersion == 0 && live.compiledSettingsCount == 1)
    }
}
