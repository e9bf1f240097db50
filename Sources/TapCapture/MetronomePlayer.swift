import TapInput
import Atomics
import CJack
import Foundation
import TapAudio
import TapMetronome
#if canImport(Glibc)
import Glibc
#endif

/// Plays a `LiveMetronome` through JACK: each process cycle renders the next period straight
/// into the output ports, so live changes (`LiveMetronome/apply(_:sounds:)`) are heard from
/// the next cycle on. Key presses are placed on the metronome's frame clock with
/// ``frameNow()`` (the lower envelope of cycle starts, `FrameClock`), so a tap-along display
/// can show each tap's asynchrony to the nearest click.
public final class MetronomePlayer: @unchecked Sendable {  // `clock` and `stamps` are guarded by `lock`
    /// The live metronome it plays; change its settings from any thread but the audio one.
    public let metronome: LiveMetronome
    private let client: JackClient
    private let state: UnsafeMutablePointer<PlayerState>
    private let lock = NSLock()
    private var clock: FrameClock
    private var stamps = [CycleStamp](repeating: CycleStamp(frame: 0, microseconds: 0, xruns: 0), count: 256)
    private var active = false

    /// A player of `metronome` on `client`; their sample rates must agree.
    public init(client: JackClient, metronome: LiveMetronome) throws(CaptureError) {
        guard Int(client.sampleRate) == metronome.sampleRate else {
            throw .jack("the server runs at \(Int(client.sampleRate)) Hz, the metronome at \(metronome.sampleRate) Hz")
        }
        self.client = client
        self.metronome = metronome
        clock = FrameClock(sampleRate: client.sampleRate)
        state = .allocate(capacity: 1)
        state.initialize(to: PlayerState(renderer: metronome.renderer, cycleStamps: SPSCRing(minimumCapacity: 8_192, filler: CycleStamp(frame: 0, microseconds: 0, xruns: 0)),
                                         xruns: .create(0)))
    }

    deinit {
        stop()
        state.pointee.cycleStamps.destroy()
        state.pointee.xruns.destroy()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Registers `out_1` and `out_2` (the same signal), starts playing and connects them to
    /// `destinations` (one or two playback ports).
    public func start(connectingTo destinations: [String]) throws(CaptureError) {
        guard !active else { return }
        let handle = client.handle
        var ports: [OpaquePointer] = []
        for channel in 0..<2 {
            guard let port = jack_port_register(handle, "out_\(channel + 1)", "32 bit float mono audio", UInt(JackPortIsOutput.rawValue), 0) else {
                for port in ports { jack_port_unregister(handle, port) }
                throw .jack("cannot register output port out_\(channel + 1)")
            }
            ports.append(port)
        }
        state.pointee.outputs = (ports[0], ports[1])
        jack_set_process_callback(handle, metronomeProcess, UnsafeMutableRawPointer(state))
        jack_set_xrun_callback(handle, metronomeXrun, UnsafeMutableRawPointer(state))
        active = true
        guard jack_activate(handle) == 0 else {
            stop()
            throw .jack("cannot activate the client")
        }
        guard destinations.count <= 2 else {
            stop()
            throw .jack("the metronome has two outputs; \(destinations.count) ports given")
        }
        let ownName = String(cString: jack_get_client_name(handle))
        for (channel, destination) in destinations.enumerated() {
            guard jack_connect(handle, "\(ownName):out_\(channel + 1)", destination) == 0 else {
                stop()
                throw .jack("cannot connect \(ownName):out_\(channel + 1) to \(destination)")
            }
        }
    }

    /// Stops playing and unregisters the ports (the metronome may then be destroyed).
    public func stop() {
        guard active else { return }
        active = false
        jack_deactivate(client.handle)
        jack_set_process_callback(client.handle, nil, nil)
        jack_set_xrun_callback(client.handle, nil, nil)
        for port in [state.pointee.outputs.0, state.pointee.outputs.1] { if let port { jack_port_unregister(client.handle, port) } }
        state.pointee.outputs = (nil, nil)
    }

    /// The metronome frame (fractional) being heard now, or nil before the first cycle: where
    /// a key press read now falls among the clicks. It is the frame due at the outputs now,
    /// less the playback latency JACK reports for `out_1` (the periods and the sound card's
    /// own delay between rendering a frame and hearing it).
    public func frameNow() -> Double? {
        let now = Int64(jack_get_time())
        lock.lock()
        defer { lock.unlock() }
        drainStamps()
        return clock.frame(atMicroseconds: now).map { $0 - Double(playbackLatencyFrames) }
    }

    /// Takes the callback's cycle starts into the frame clock; call it often (the main loop
    /// does, every 20 ms), so that the clock never rests on stale cycles and the ring
    /// (8192 cycles, 22 s at period 128) never fills.
    public func updateClock() {
        lock.lock()
        drainStamps()
        lock.unlock()
    }

    private func drainStamps() {
        clock.add(from: state.pointee.cycleStamps, scratch: &stamps)
    }

    /// Frames between rendering and hearing: the largest playback latency JACK reports for
    /// `out_1` (0 before `start`, or when nothing is connected).
    public var playbackLatencyFrames: Int {
        guard active, let port = state.pointee.outputs.0 else { return 0 }
        var range = jack_latency_range_t()
        jack_port_get_latency_range(port, JackPlaybackLatency, &range)
        return Int(range.max)
    }

    /// Xruns since the start.
    public var xruns: Int { state.pointee.xruns.load(ordering: .relaxed) }
}

/// What the metronome's process callback touches: plain memory and atomics only.
struct PlayerState {
    var renderer: LiveRenderer
    var outputs: (OpaquePointer?, OpaquePointer?) = (nil, nil)
    var cycleStamps: SPSCRing<CycleStamp>
    var xruns: UnsafeAtomic<Int>
    var frame = 0

    init(renderer: LiveRenderer, cycleStamps: SPSCRing<CycleStamp>, xruns: UnsafeAtomic<Int>) {
        self.renderer = renderer
        self.cycleStamps = cycleStamps
        self.xruns = xruns
    }
}

/// One cycle: the next `frames` of the metronome into `out_1`, copied to `out_2`.
private let metronomeProcess: JackProcessCallback = { frames, argument in
    guard let argument else { return 0 }
    let state = argument.assumingMemoryBound(to: PlayerState.self)
    let wakeup = jack_get_time()
    let count = Int(frames)
    guard let first = state.pointee.outputs.0.flatMap({ jack_port_get_buffer($0, frames) })?.assumingMemoryBound(to: Float.self) else {
        return 0
    }
    _ = state.pointee.cycleStamps.push(CycleStamp(frame: state.pointee.frame, microseconds: Int64(wakeup),
                                                  xruns: state.pointee.xruns.load(ordering: .relaxed)))
    state.pointee.renderer.render(into: UnsafeMutableBufferPointer(start: first, count: count))
    if let second = state.pointee.outputs.1.flatMap({ jack_port_get_buffer($0, frames) })?.assumingMemoryBound(to: Float.self) {
        second.update(from: first, count: count)
    }
    state.pointee.frame += count
    return 0
}

private let metronomeXrun: JackXRunCallback = { argument in
    argument?.assumingMemoryBound(to: PlayerState.self).pointee.xruns.wrappingIncrement(ordering: .relaxed)
    return 0
}
