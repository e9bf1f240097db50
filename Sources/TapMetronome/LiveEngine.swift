import Atomics
import TapAudio

/// Everything the audio thread touches, in plain memory: compiled settings by pointer, the
/// voices, the rings to and from the control thread, and counters. No class references, so
/// rendering does no reference counting; nothing here allocates, locks or does I/O.
struct LiveEngine {
    /// The settings clicks are scheduled with.
    var current: UnsafeMutablePointer<LiveSettings>
    /// The next click of ``current``.
    var cursor: BarCursor
    /// The first frame of the next block.
    var frame = 0
    var voices: VoicePool
    /// Replaced settings some voice still plays; nil slots are free. A change waits in its
    /// ring while every slot is taken.
    let retired: UnsafeMutablePointer<UnsafeMutablePointer<LiveSettings>?>
    static let retiredCapacity = 8
    /// Control → audio: compiled settings to switch to.
    let changes: SPSCRing<UnsafeMutablePointer<LiveSettings>?>
    /// Audio → control: settings no voice plays any more, to free.
    let garbage: SPSCRing<UnsafeMutablePointer<LiveSettings>?>
    /// Audio → control: every click.
    let events: SPSCRing<LiveClickEvent>
    /// Audio → control: when each change took effect.
    let applied: SPSCRing<LiveSettingsChange>
    let droppedClicks: UnsafeAtomic<Int>
    let droppedEvents: UnsafeAtomic<Int>
    let droppedChanges: UnsafeAtomic<Int>
    let renderedFrames: UnsafeAtomic<Int>

    /// Renders the next `buffer.count` frames (see ``LiveMetronome/render(into:)``).
    mutating func render(into buffer: UnsafeMutableBufferPointer<Float>) {
        let start = frame, frames = buffer.count
        releaseSilentRetired()
        takeChanges(at: start)
        guard let output = buffer.baseAddress, frames > 0 else { return }
        output.update(repeating: 0, count: frames)
        voices.mix(into: output, frames: frames)
        let end = start + frames
        while true {
            let at = cursor.nextFrame(in: current)
            guard at < end else { break }
            let click = current.pointee.clicks[cursor.click]
            var played = false
            if click.volume > 0 {
                played = voices.start(current.pointee.clip(for: click.kind), volume: click.volume, owner: current,
                                      at: at - start, into: output, frames: frames)
                if !played { droppedClicks.wrappingIncrement(ordering: .relaxed) }
            }
            let event = LiveClickEvent(frame: at, bar: cursor.bar, beat: click.beat, step: click.step, of: click.of,
                                       kind: click.kind, volume: click.volume,
                                       settingsVersion: current.pointee.version, played: played)
            if !events.push(event) { droppedEvents.wrappingIncrement(ordering: .relaxed) }
            cursor.advance(in: current)
        }
        frame = end
        releaseSilentRetired()
        renderedFrames.store(end, ordering: .releasing)
    }

    /// Switches to every waiting change while a retired slot is free, each keeping the phase
    /// at `frame`.
    private mutating func takeChanges(at frame: Int) {
        while let slot = freeRetiredSlot(), changes.readableCount > 0 {
            var popped: UnsafeMutablePointer<LiveSettings>?
            guard changes.pop(into: &popped, maximum: 1) == 1, let next = popped else { return }
            cursor = cursor.carried(at: frame, from: current, to: next)
            retired[slot] = current
            current = next
            if !applied.push(LiveSettingsChange(frame: frame, settingsVersion: next.pointee.version)) {
                droppedChanges.wrappingIncrement(ordering: .relaxed)
            }
            releaseSilentRetired()
        }
    }

    private func freeRetiredSlot() -> Int? {
        for slot in 0..<Self.retiredCapacity where retired[slot] == nil { return slot }
        return nil
    }

    /// Hands retired settings that no voice plays back to the control thread.
    private func releaseSilentRetired() {
        for slot in 0..<Self.retiredCapacity {
            guard let settings = retired[slot], settings.pointee.voices == 0 else { continue }
            guard garbage.push(settings) else { return }
            retired[slot] = nil
        }
    }
}
