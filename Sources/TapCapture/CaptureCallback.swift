import TapInput
import TapAudio
import Atomics
import CJack
#if canImport(Glibc)
import Glibc
#endif

/// Everything the process callback touches, allocated before activation. Plain memory and
/// atomics only: no class references, so the callback does no reference counting.
struct CaptureState {
    var outputs: UnsafeMutablePointer<OpaquePointer?>
    /// This cycle's output buffers, one per output port.
    var outputBuffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    var outputCount: Int
    var input: OpaquePointer?
    var midiInput: OpaquePointer?
    /// Stimulus frames (interleaved, `outputCount` channels) from the feeder thread.
    var playback: SPSCRing<Float>
    /// Where the callback unpacks one chunk of interleaved playback.
    var playbackScratch: UnsafeMutablePointer<Float>
    static let scratchFrames = 4_096
    var stimulusFrames: Int
    var totalFrames: Int
    var position = 0
    /// Stimulus frames that should have played but had not arrived: they are skipped when they
    /// do arrive, so the stimulus stays on the recording's clock.
    var playbackDebt = 0
    var ring: SPSCRing<Float>
    var taps: SPSCRing<Int>
    /// Callback durations, written by the callback only while running; read after the run.
    var timings: UnsafeMutablePointer<Int>
    var timingCapacity: Int
    var timingCount = 0
    var started: UnsafeAtomic<Bool>
    var stopRequested: UnsafeAtomic<Bool>
    var finished: UnsafeAtomic<Bool>
    /// When each running cycle started, for placing keyboard and device taps (`FrameClock`).
    var cycleStamps: SPSCRing<CycleStamp>
    /// Frames recorded so far (for progress displays).
    var recorded: UnsafeAtomic<Int>
    var cycles: UnsafeAtomic<Int>
    var xruns: UnsafeAtomic<Int>
    var dropped: UnsafeAtomic<Int>
    var underrun: UnsafeAtomic<Int>

    static func make(channels: Int, stimulusFrames: Int, totalFrames: Int,
                     ringCapacity: Int, playbackCapacity: Int) -> UnsafeMutablePointer<CaptureState> {
        let outputs = UnsafeMutablePointer<OpaquePointer?>.allocate(capacity: max(channels, 1))
        outputs.initialize(repeating: nil, count: max(channels, 1))
        let outputBuffers = UnsafeMutablePointer<UnsafeMutablePointer<Float>?>.allocate(capacity: max(channels, 1))
        outputBuffers.initialize(repeating: nil, count: max(channels, 1))
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: scratchFrames * max(channels, 1))
        scratch.initialize(repeating: 0, count: scratchFrames * max(channels, 1))
        let timingCapacity = totalFrames / 16 + 1_024   // enough cycles down to a 16-frame period
        let timings = UnsafeMutablePointer<Int>.allocate(capacity: timingCapacity)
        timings.initialize(repeating: 0, count: timingCapacity)
        let state = UnsafeMutablePointer<CaptureState>.allocate(capacity: 1)
        state.initialize(to: CaptureState(
            outputs: outputs, outputBuffers: outputBuffers, outputCount: channels, input: nil, midiInput: nil,
            playback: SPSCRing(minimumCapacity: playbackCapacity * max(channels, 1), filler: 0),
            playbackScratch: scratch, stimulusFrames: stimulusFrames, totalFrames: totalFrames,
            ring: SPSCRing(minimumCapacity: ringCapacity, filler: 0), taps: SPSCRing(minimumCapacity: 4_096, filler: 0),
            timings: timings, timingCapacity: timingCapacity, started: .create(false), stopRequested: .create(false),
            finished: .create(false), cycleStamps: SPSCRing(minimumCapacity: 8_192, filler: CycleStamp(frame: 0, microseconds: 0, xruns: 0)), recorded: .create(0), cycles: .create(0),
            xruns: .create(0), dropped: .create(0), underrun: .create(0)))
        return state
    }
}

extension UnsafeMutablePointer where Pointee == CaptureState {
    func destroy() {
        pointee.playbackScratch.deallocate()
        pointee.timings.deallocate()
        pointee.outputs.deallocate()
        pointee.outputBuffers.deallocate()
        pointee.playback.destroy()
        pointee.ring.destroy()
        pointee.taps.destroy()
        pointee.cycleStamps.destroy()
        for atomic in [pointee.started, pointee.stopRequested, pointee.finished] { atomic.destroy() }
        for atomic in [pointee.recorded, pointee.cycles, pointee.xruns, pointee.dropped,
                       pointee.underrun] { atomic.destroy() }
        deinitialize(count: 1)
        deallocate()
    }
}

/// The process callback: one cycle of playback and capture, in the same cycle.
let captureProcess: JackProcessCallback = { frames, argument in
    guard let argument else { return 0 }
    let state = argument.assumingMemoryBound(to: CaptureState.self)
    let wakeup = jack_get_time()
    var begin = timespec()
    clock_gettime(CLOCK_MONOTONIC, &begin)
    let n = Int(frames)
    if state.pointee.stopRequested.load(ordering: .acquiring) { state.pointee.finished.store(true, ordering: .releasing) }
    let running = state.pointee.started.load(ordering: .acquiring) && !state.pointee.finished.load(ordering: .relaxed)
    let position = state.pointee.position
    if running {
        _ = state.pointee.cycleStamps.push(CycleStamp(frame: position, microseconds: Int64(wakeup),
                                                      xruns: state.pointee.xruns.load(ordering: .relaxed)))
    }
    play(state, frames: frames, count: running ? max(0, min(n, state.pointee.stimulusFrames - position)) : 0)
    guard running, let port = state.pointee.input, let raw = jack_port_get_buffer(port, frames) else { return 0 }
    let input = UnsafePointer(raw.assumingMemoryBound(to: Float.self))
    let wanted = min(n, state.pointee.totalFrames - position)
    // Taps from MIDI: a note-on's frame is the cycle's first frame plus the event's offset.
    if let midi = state.pointee.midiInput, let events = jack_port_get_buffer(midi, frames) {
        var event = jack_midi_event_t()
        for index in 0..<jack_midi_get_event_count(events) where jack_midi_event_get(&event, events, index) == 0 {
            guard event.size >= 3, let bytes = event.buffer,
                  bytes[0] & 0xF0 == 0x90, bytes[2] > 0, Int(event.time) < wanted else { continue }
            _ = state.pointee.taps.push(position + Int(event.time))
        }
    }
    let accepted = state.pointee.ring.push(input, count: wanted)
    if accepted < wanted { state.pointee.dropped.wrappingIncrement(by: wanted - accepted, ordering: .relaxed) }
    state.pointee.position = position + wanted
    state.pointee.recorded.store(position + wanted, ordering: .relaxed)
    state.pointee.cycles.wrappingIncrement(ordering: .relaxed)
    var end = timespec()
    clock_gettime(CLOCK_MONOTONIC, &end)
    if state.pointee.timingCount < state.pointee.timingCapacity {
        state.pointee.timings[state.pointee.timingCount] = (end.tv_sec - begin.tv_sec) * 1_000_000_000 + (end.tv_nsec - begin.tv_nsec)
        state.pointee.timingCount += 1
    }
    if state.pointee.position >= state.pointee.totalFrames { state.pointee.finished.store(true, ordering: .releasing) }
    return 0
}

/// Fills the output ports: `count` stimulus frames from the playback ring, silence after them.
private func play(_ state: UnsafeMutablePointer<CaptureState>, frames: jack_nframes_t, count: Int) {
    let channels = state.pointee.outputCount
    guard channels > 0 else { return }
    for channel in 0..<channels {
        state.pointee.outputBuffers[channel] = state.pointee.outputs[channel]
            .flatMap { jack_port_get_buffer($0, frames) }?.assumingMemoryBound(to: Float.self)
    }
    var playback = PlaybackBuffer(ring: state.pointee.playback, scratch: state.pointee.playbackScratch,
                                  scratchFrames: CaptureState.scratchFrames, channels: channels, debt: state.pointee.playbackDebt)
    let late = playback.fill(state.pointee.outputBuffers, frames: Int(frames), stimulusFrames: count)
    state.pointee.playbackDebt = playback.debt
    if late > 0 { state.pointee.underrun.wrappingIncrement(by: late, ordering: .relaxed) }
}

/// Moves stimulus frames from the playback ring (interleaved) into per-channel output buffers.
///
/// Frames the feeder has not delivered in time are played as silence and become a debt: the
/// same number is skipped once they arrive, so later stimulus frames still play at their own
/// frame and the stimulus never slides against the recording.
struct PlaybackBuffer {
    let ring: SPSCRing<Float>
    let scratch: UnsafeMutablePointer<Float>
    let scratchFrames: Int
    let channels: Int
    /// Stimulus frames owed from earlier cycles.
    var debt: Int

    /// Fills `frames` frames of every output (nil outputs are skipped): the first
    /// `stimulusFrames` from the ring, the rest silent. Returns the frames that were due but
    /// had not arrived.
    mutating func fill(_ outputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>, frames: Int,
                       stimulusFrames count: Int) -> Int {
        if count > 0 && debt > 0 {
            debt -= ring.skip(min(debt, ring.readableCount / channels) * channels) / channels
        }
        var done = 0
        var played = 0
        var starved = debt > 0
        while done < frames {
            let chunk = min(frames - done, scratchFrames)
            let wanted = starved ? 0 : max(0, min(chunk, count - done))
            let got = wanted > 0 ? ring.pop(into: scratch, maximum: wanted * channels) / channels : 0
            // After a short chunk, later frames of this cycle stay silent: playing them now
            // would put them early.
            if got < wanted { starved = true }
            for channel in 0..<channels {
                guard let out = outputs[channel].map({ $0 + done }) else { continue }
                for frame in 0..<got { out[frame] = scratch[frame * channels + channel] }
                if got < chunk { (out + got).update(repeating: 0, count: chunk - got) }
            }
            played += got
            done += chunk
        }
        let late = max(0, count - played)
        debt += late
        return late
    }
}
