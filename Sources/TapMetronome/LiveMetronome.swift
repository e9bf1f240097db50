import Atomics
import TapAudio

/// A metronome rendered in real time, whose settings and sounds can change while it plays.
///
/// Two threads use it: the **audio thread** calls ``render(into:)`` (or the ``renderer``
/// handle) once per block; one **control thread** (or calls serialised between threads) calls
/// ``apply(_:sounds:)``, ``pollEvents(into:)``, ``pollChanges(into:)`` and
/// ``collectGarbage()``.
///
/// - **Real time.** Rendering allocates nothing, takes no lock, does no I/O and touches no
///   class reference: settings are compiled on the control thread into plain memory and
///   handed over through a lock-free single-producer/single-consumer ring; clicks and changes
///   come back through two more.
/// - **Exact.** Click positions are exact fractions of a frame, rounded to a frame once.
///   Until the first change, click *k* starts at exactly the frame ``ClickSchedule`` gives
///   (`round(k × 60 / BPM × rate)` for beats).
/// - **Live changes keep the phase.** A change takes effect at the first frame `f` of the next
///   ``render(into:)`` (later only while 8 replaced settings still sound: then at the first
///   call after one falls silent; ``pollChanges(into:)`` tells when). The fraction of the bar elapsed at `f` stays the same (to within 1/1024
///   frame): the new bar starts at `f − fraction × new bar length`, snapped to a multiple of
///   1/1024 frame, and the bar in progress keeps its number. The old settings own every click
///   whose frame is before `f`, the new ones every click at or after `f`, so none is lost or
///   doubled.
/// - **No artifacts.** A click's sound starts at its first sample at its own frame and always
///   plays to its last sample, with the sound and volume it started with, whatever changes
///   later. Sounds of replaced settings are freed (on the control thread) only after their
///   last voice has ended.
/// - **Bounded.** At most `voiceCapacity` clips sound on from one block into the next (clips
///   ending within a block free their voice for that block's clicks); a click whose clip would
///   need one more is not played and is counted in ``droppedClicks``. No sounding clip is cut
///   short.
///
/// Destroy it only after the audio thread has stopped calling ``render(into:)``.
public final class LiveMetronome: @unchecked Sendable {
    /// Frames per second.
    public let sampleRate: Int
    /// The most clips that can sound on from one block into the next.
    public let voiceCapacity: Int
    private let engine: UnsafeMutablePointer<LiveEngine>
    // The control thread's copies of the rings and counters (they share the engine's memory),
    // so it never touches the engine itself while the audio thread renders.
    private let changes: SPSCRing<UnsafeMutablePointer<LiveSettings>?>
    private let garbage: SPSCRing<UnsafeMutablePointer<LiveSettings>?>
    private let events: SPSCRing<LiveClickEvent>
    private let applied: SPSCRing<LiveSettingsChange>
    private let dropped: (clicks: UnsafeAtomic<Int>, events: UnsafeAtomic<Int>, changes: UnsafeAtomic<Int>)
    private let rendered: UnsafeAtomic<Int>
    /// Control thread only.
    private var version = 0
    private var compiled = 1

    /// A metronome that starts with `settings` and `sounds` at `sampleRate`.
    ///
    /// - Parameters:
    ///   - settings: what plays first.
    ///   - sounds: the click sounds, at `sampleRate`.
    ///   - sampleRate: frames per second of the output.
    ///   - voiceCapacity: the most clips that may sound on from one block into the next
    ///     (default 512).
    ///   - eventCapacity: click events held until ``pollEvents(into:)`` takes them (rounded up
    ///     to a power of two); more are counted in ``droppedEvents``.
    ///   - changeCapacity: changes that may wait to be taken by the audio thread (rounded up to
    ///     a power of two); ``apply(_:sounds:)`` returns false when they are all taken.
    /// - Throws: ``MetronomeError/outOfRange(_:_:_:)`` for invalid settings, a sample rate
    ///   outside 1000–768000, or a capacity below 1.
    public init(settings: MetronomeSettings, sounds: ClickSounds, sampleRate: Int, voiceCapacity: Int = 512,
                eventCapacity: Int = 8_192, changeCapacity: Int = 8) throws(MetronomeError) {
        guard (1_000...768_000).contains(sampleRate) else {
            throw .outOfRange("sample rate", "\(sampleRate)", "1000–768000")
        }
        for (name, value) in [("voice capacity", voiceCapacity), ("event capacity", eventCapacity),
                              ("change capacity", changeCapacity)] where !(1...(1 << 24)).contains(value) {
            throw .outOfRange(name, "\(value)", "1–16777216")
        }
        let first = try LiveSettings.make(settings, sounds: sounds, sampleRate: sampleRate, version: 0)
        self.sampleRate = sampleRate
        self.voiceCapacity = voiceCapacity
        changes = SPSCRing(minimumCapacity: changeCapacity, filler: nil)
        garbage = SPSCRing(minimumCapacity: 2 * LiveEngine.retiredCapacity, filler: nil)
        events = SPSCRing(minimumCapacity: eventCapacity, filler: Self.noClick)
        applied = SPSCRing(minimumCapacity: 256, filler: LiveSettingsChange(frame: 0, settingsVersion: 0))
        dropped = (.create(0), .create(0), .create(0))
        rendered = .create(0)
        let retired = UnsafeMutablePointer<UnsafeMutablePointer<LiveSettings>?>.allocate(capacity: LiveEngine.retiredCapacity)
        retired.initialize(repeating: nil, count: LiveEngine.retiredCapacity)
        let start = BarCursor(whole: 0, fraction: 0, bar: 1, click: 0)
        engine = .allocate(capacity: 1)
        engine.initialize(to: LiveEngine(
            current: first, cursor: start, voices: VoicePool(capacity: voiceCapacity), retired: retired,
            changes: changes, garbage: garbage, events: events, applied: applied,
            droppedClicks: dropped.clicks, droppedEvents: dropped.events, droppedChanges: dropped.changes,
            renderedFrames: rendered))
    }

    deinit {
        collectGarbage()
        var pending: UnsafeMutablePointer<LiveSettings>?
        while changes.pop(into: &pending, maximum: 1) == 1 { pending.map(LiveSettings.free) }
        for slot in 0..<LiveEngine.retiredCapacity { engine.pointee.retired[slot].map(LiveSettings.free) }
        LiveSettings.free(engine.pointee.current)
        engine.pointee.retired.deallocate()
        engine.pointee.voices.destroy()
        for ring in [changes, garbage] { ring.destroy() }
        events.destroy()
        applied.destroy()
        for counter in [dropped.clicks, dropped.events, dropped.changes, rendered] { counter.destroy() }
        engine.deinitialize(count: 1)
        engine.deallocate()
    }

    /// Audio thread: renders the next `buffer.count` frames (mono), overwriting `buffer`.
    ///
    /// Each call continues where the last one ended; the first renders from frame 0. Changes
    /// applied since the last call take effect at this call's first frame (unless they must
    /// wait for replaced settings to fall silent). Real-time safe: no allocation, lock, I/O or
    /// reference counting.
    public func render(into buffer: UnsafeMutableBufferPointer<Float>) { engine.pointee.render(into: buffer) }

    /// A handle for the audio thread to keep in its own callback state, instead of this
    /// object: rendering through it touches no class reference at all. Valid while this
    /// metronome lives.
    public var renderer: LiveRenderer { LiveRenderer(engine: engine) }

    /// Control thread: validates and compiles `settings` with `sounds` (samples at
    /// ``sampleRate``) and hands them to the audio thread, which switches at the start of its
    /// next ``render(into:)`` (see the type's notes on phase). Also frees settings the audio
    /// thread has finished with.
    ///
    /// - Returns: false, changing nothing, when ``changeCapacity`` changes already wait; true
    ///   when accepted, as version ``settingsVersion``.
    /// - Throws: ``MetronomeError/outOfRange(_:_:_:)`` for an invalid setting or a tempo whose
    ///   exact frame positions would not fit 128-bit arithmetic.
    @discardableResult
    public func apply(_ settings: MetronomeSettings, sounds: ClickSounds) throws(MetronomeError) -> Bool {
        collectGarbage()
        guard changes.writableCount > 0 else { return false }
        let next = try LiveSettings.make(settings, sounds: sounds, sampleRate: sampleRate, version: version + 1)
        guard changes.push(next) else {
            LiveSettings.free(next)
            return false
        }
        version += 1
        compiled += 1
        return true
    }

    /// Control thread: appends the click events rendered since the last call, in frame order;
    /// returns how many. Also frees settings the audio thread has finished with.
    @discardableResult
    public func pollEvents(into list: inout [LiveClickEvent]) -> Int {
        collectGarbage()
        return Self.drain(events, filler: Self.noClick, into: &list)
    }

    /// Control thread: appends the changes that took effect since the last call, in order;
    /// returns how many. (Up to 256 wait; more are counted in ``droppedChanges``.)
    @discardableResult
    public func pollChanges(into list: inout [LiveSettingsChange]) -> Int {
        Self.drain(applied, filler: LiveSettingsChange(frame: 0, settingsVersion: 0), into: &list)
    }

    /// Control thread: frees compiled settings (and their sounds) that the audio thread has
    /// replaced and no voice plays any more.
    public func collectGarbage() {
        var settings: UnsafeMutablePointer<LiveSettings>?
        while garbage.pop(into: &settings, maximum: 1) == 1 {
            guard let settings else { continue }
            LiveSettings.free(settings)
            compiled -= 1
        }
    }

    /// The version of the settings last accepted by ``apply(_:sounds:)`` (0: the initial ones).
    public var settingsVersion: Int { version }
    /// How many changes may wait for the audio thread at once.
    public var changeCapacity: Int { changes.capacity }
    /// Compiled settings not yet freed: the current ones, waiting changes, and replaced ones
    /// that still sound or wait for ``collectGarbage()``. Control thread.
    public var compiledSettingsCount: Int { compiled }
    /// Frames rendered so far.
    public var renderedFrames: Int { rendered.load(ordering: .acquiring) }
    /// Clicks not played because every voice was busy.
    public var droppedClicks: Int { dropped.clicks.load(ordering: .relaxed) }
    /// Click events lost because ``pollEvents(into:)`` did not take them in time.
    public var droppedEvents: Int { dropped.events.load(ordering: .relaxed) }
    /// Change records lost because ``pollChanges(into:)`` did not take them in time (the
    /// changes themselves took effect).
    public var droppedChanges: Int { dropped.changes.load(ordering: .relaxed) }

    private static let noClick = LiveClickEvent(frame: 0, bar: 0, beat: 0, step: 0, of: 0, kind: .beat, volume: 0,
                                                settingsVersion: 0, played: false)

    private static func drain<Element>(_ ring: SPSCRing<Element>, filler: Element, into list: inout [Element]) -> Int {
        let available = ring.readableCount
        guard available > 0 else { return 0 }
        let start = list.count
        var element = filler
        while list.count - start < available, ring.pop(into: &element, maximum: 1) == 1 { list.append(element) }
        return list.count - start
    }
}

/// What the audio thread keeps to render a ``LiveMetronome``: a plain pointer to its
/// real-time state, no class reference. Valid while the metronome lives.
public struct LiveRenderer: @unchecked Sendable {
    let engine: UnsafeMutablePointer<LiveEngine>

    /// Audio thread: renders the next `buffer.count` frames, as ``LiveMetronome/render(into:)``.
    public func render(into buffer: UnsafeMutableBufferPointer<Float>) { engine.pointee.render(into: buffer) }
}
