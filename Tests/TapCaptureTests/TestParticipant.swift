import TapAudio
import CJack
import Foundation
@testable import TapCapture
@testable import TapInput

/// A JACK client standing in for a participant. It listens to an audio input and, in the same
/// cycle and at the same frame offset where a sample exceeds 0.25 (a click), it
/// - sends a MIDI note-on on `midi_out` (a drum pad), and
/// - starts a tap sound on `out` (what the microphone hears), over a faint noise floor.
///
/// With a ``Responder``, it also "presses a key" a known delay after each tap sound reaches the
/// recorder: through a pipe into `tapkit run --keyboard`, or as a Linux input event written to
/// a FIFO read by `tapkit run --input-device`.
final class TestParticipant: @unchecked Sendable {  // the responder thread reads `state` through the SPSC ring only
    private let handle: OpaquePointer
    private let state: UnsafeMutablePointer<ParticipantState>
    private var responder: Thread?
    private let stopping = NSLock()
    private var stopped = false
    private var delays: [Double] = []

    /// Seconds from each tap sound reaching the recorder to the responder's write returning:
    /// the delay really given, scheduling lateness included.
    var responseDelays: [Double] {
        stopping.lock()
        defer { stopping.unlock() }
        return delays
    }

    /// What the participant does after each tap sound: writes to `fileDescriptor` when the
    /// sound has been in the recorder's input for `delay` seconds. Its sense of time is the
    /// dummy server's ideal clock: the lower envelope of its own cycle starts.
    struct Responder {
        enum Kind { case keyPress, inputEvent }
        var kind: Kind
        var fileDescriptor: Int32
        var delay: Double
    }

    init(serverName: String, responder: Responder? = nil) throws {
        var status = jack_status_t(rawValue: 0)
        guard let client = tapkit_jack_client_open("participant", serverName, &status) else {
            throw JackError.serverNotRunning(server: serverName)
        }
        handle = client
        state = .allocate(capacity: 1)
        state.initialize(to: ParticipantState(client: client, clicks: SPSCRing(minimumCapacity: 1_024, filler: 0),
                                              xruns: SPSCRing(minimumCapacity: 64, filler: 0)))
        state.pointee.input = jack_port_register(client, "in", "32 bit float mono audio", UInt(JackPortIsInput.rawValue), 0)
        state.pointee.output = jack_port_register(client, "out", "32 bit float mono audio", UInt(JackPortIsOutput.rawValue), 0)
        state.pointee.midi = jack_port_register(client, "midi_out", "8 bit raw midi", UInt(JackPortIsOutput.rawValue), 0)
        jack_set_process_callback(client, participantProcess, UnsafeMutableRawPointer(state))
        jack_set_xrun_callback(client, participantXrun, UnsafeMutableRawPointer(state))
        jack_activate(client)
        if let responder { start(responder) }
    }

    deinit {
        stopping.lock()
        stopped = true
        stopping.unlock()
        while responder?.isFinished == false { usleep(1_000) }
        jack_deactivate(handle)
        jack_client_close(handle)
        state.pointee.clicks.destroy()
        state.pointee.xruns.destroy()
        state.pointee.sound.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// The responder thread: sleeps until each key's moment on the JACK clock, then acts.
    private func start(_ responder: Responder) {
        let period = Int(jack_get_buffer_size(handle))
        let delayFrames = Int((responder.delay * Double(jack_get_sample_rate(handle))).rounded())
        let thread = Thread { [self] in
            raiseToRealTimePriority(20)
            while true {
                stopping.lock()
                let done = stopped
                stopping.unlock()
                if done { return }
                // Each click comes as two numbers: its absolute frame, and the participant's
                // estimate of when frame 0 was due (µs, JACK's clock).
                var pair = [0, 0]
                guard pair.withUnsafeMutableBufferPointer({ self.state.pointee.clicks.pop(into: $0.baseAddress!, maximum: 2) }) == 2 else {
                    usleep(500)
                    continue
                }
                let (frame, origin) = (pair[0], pair[1])
                // The sound reaches the recorder one period after it was played (the two
                // clients form a loop); the key follows it by `delay`.
                let microsecondsPerFrame = 1e6 / Double(jack_get_sample_rate(self.handle))
                let arrivalTime = Int64(Double(origin) + Double(frame + period) * microsecondsPerFrame)
                let targetTime = arrivalTime + Int64(Double(delayFrames) * microsecondsPerFrame)
                while Int64(jack_get_time()) + 300 < targetTime { usleep(UInt32(min(targetTime - Int64(jack_get_time()) - 300, 10_000))) }
                while Int64(jack_get_time()) < targetTime {}
                switch responder.kind {
                case .keyPress:
                    var key: UInt8 = 0x20
                    _ = write(responder.fileDescriptor, &key, 1)
                case .inputEvent:
                    // The kernel would stamp the touch at its moment; express that moment on
                    // CLOCK_MONOTONIC.
                    let stampTime = targetTime
                    var now = timespec()
                    clock_gettime(CLOCK_MONOTONIC, &now)
                    let microseconds = now.tv_sec * 1_000_000 + now.tv_nsec / 1_000 - (Int(jack_get_time()) - Int(stampTime))
                    let bytes = InputEventDecoder.encode(seconds: microseconds / 1_000_000, microseconds: microseconds % 1_000_000,
                                                         type: 3, code: 0x39, value: 1)
                        + InputEventDecoder.encode(seconds: microseconds / 1_000_000, microseconds: microseconds % 1_000_000,
                                                   type: 0, code: 0, value: 0)
                    _ = bytes.withUnsafeBytes { write(responder.fileDescriptor, $0.baseAddress, $0.count) }
                }
                let given = Double(Int64(jack_get_time()) - arrivalTime) / 1e6
                stopping.lock()
                delays.append(given)
                stopping.unlock()
            }
        }
        self.responder = thread
        thread.start()
    }
}


struct ParticipantState {
    var client: OpaquePointer
    var input: OpaquePointer?
    var output: OpaquePointer?
    var midi: OpaquePointer?
    /// Absolute JACK frame of each click heard, for the responder.
    var clicks: SPSCRing<Int>
    /// One entry per xrun (from JACK's notification thread to the process callback).
    var xruns: SPSCRing<Int>
    /// The tap sound: a 5 ms decaying burst, the same every time.
    var sound: UnsafeMutablePointer<Float> = {
        let sound = UnsafeMutablePointer<Float>.allocate(capacity: soundLength)
        for index in 0..<soundLength {
            let decay = exp(-Double(index) / 40)
            sound[index] = Float(0.6 * decay * (sin(Double(index) * 0.9) + 0.5 * sin(Double(index) * 2.3)))
        }
        return sound
    }()
    static let soundLength = 240
    var soundPosition = Int.max
    /// The earliest "frame 0 was due" seen over all cycles since the last xrun (µs): the dummy
    /// driver's clock is the system clock and a callback is only ever late, so this converges on
    /// the true one. After an xrun the dummy driver starts its schedule afresh.
    var origin = Int64.max
    var noise: UInt32 = 12_345
}

private let participantProcess: JackProcessCallback = { frames, argument in
    guard let state = argument?.assumingMemoryBound(to: ParticipantState.self),
          let input = state.pointee.input, let output = state.pointee.output, let midiPort = state.pointee.midi,
          let audio = jack_port_get_buffer(input, frames)?.assumingMemoryBound(to: Float.self),
          let sound = jack_port_get_buffer(output, frames)?.assumingMemoryBound(to: Float.self),
          let midi = jack_port_get_buffer(midiPort, frames) else { return 0 }
    jack_midi_clear_buffer(midi)
    let wakeup = Int64(jack_get_time())
    let cycleStart = Int(jack_last_frame_time(state.pointee.client))
    let microsecondsPerFrame = 1e6 / Double(jack_get_sample_rate(state.pointee.client))
    if state.pointee.xruns.readableCount > 0 {
        _ = state.pointee.xruns.skip(.max)
        state.pointee.origin = .max
    }
    state.pointee.origin = min(state.pointee.origin, wakeup - Int64(Double(cycleStart) * microsecondsPerFrame))
    var noteOn: (UInt8, UInt8, UInt8) = (0x90, 60, 100)
    for frame in 0..<Int(frames) {
        if audio[frame] > 0.25 {
            withUnsafeBytes(of: &noteOn) { bytes in
                _ = jack_midi_event_write(midi, jack_nframes_t(frame), bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), 3)
            }
            state.pointee.soundPosition = 0
            // Both numbers in one push, so the responder never sees half a pair.
            var pair = (cycleStart + frame, Int(state.pointee.origin))
            withUnsafePointer(to: &pair) { pointer in
                pointer.withMemoryRebound(to: Int.self, capacity: 2) { _ = state.pointee.clicks.push($0, count: 2) }
            }
        }
        // A faint noise floor (about −70 dBFS), as a real microphone has.
        state.pointee.noise = state.pointee.noise &* 1_664_525 &+ 1_013_904_223
        var sample = (Float(state.pointee.noise >> 8) / Float(1 << 24) - 0.5) * 0.001
        if state.pointee.soundPosition < ParticipantState.soundLength {
            sample += state.pointee.sound[state.pointee.soundPosition]
            state.pointee.soundPosition += 1
        }
        sound[frame] = sample
    }
    return 0
}

private let participantXrun: JackXRunCallback = { argument in
    _ = argument?.assumingMemoryBound(to: ParticipantState.self).pointee.xruns.push(1)
    return 0
}
