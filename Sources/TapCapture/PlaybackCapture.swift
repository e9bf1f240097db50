import Atomics
import CJack
import Foundation
import TapAudio

/// What one playback-capture run did.
public struct CaptureReport: Sendable, Equatable {
    /// True when the run reached its end; false when it was stopped (``PlaybackCapture/stop()``)
    /// or the JACK server went away. The files hold everything captured until then either way.
    public var completed: Bool
    /// Frames written to the recording (every cycle from the first to the end of the run).
    public var recordedFrames: Int
    /// Process cycles the run took.
    public var cycles: Int
    /// Server-reported xruns during the run.
    public var xruns: Int
    /// Frames the writer thread could not keep up with (lost); 0 in a healthy run.
    public var droppedFrames: Int
    /// Note-on times from the MIDI input, seconds since playback start (exact to the frame).
    public var tapTimes: [Double]
    /// CPU time of each process callback, nanoseconds (monotonic clock), in cycle order.
    public var callbackNanoseconds: [Int]
    /// The server's sample rate during the run.
    public var sampleRate: Double
    /// Frames per process cycle.
    public var periodFrames: Int
}

/// Errors of a capture run.
public enum CaptureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A JACK call failed.
    case jack(String)
    /// The stimulus's sample rate differs from the server's.
    case sampleRateMismatch(stimulus: Double, server: Double)

    public var description: String {
        switch self {
        case .jack(let message): return "JACK: \(message)"
        case .sampleRateMismatch(let stimulus, let server):
            return "the stimulus is at \(Int(stimulus)) Hz but the JACK server runs at \(Int(server)) Hz; resample it or restart the server at \(Int(stimulus)) Hz"
        }
    }
}

/// Plays a stimulus and records the microphone in the same JACK process callback, so frame 0
/// of the recording is the cycle in which frame 0 of the stimulus went out: the two share one
/// clock, sample for sample.
///
/// The process callback touches only memory prepared before activation (the stimulus, the
/// port handles, a lock-free ring): no allocation, lock, I/O or reference counting. A writer
/// on the calling thread drains the ring into the audio file, whose header is rewritten as it
/// grows, so the file is valid at every moment.
public final class PlaybackCapture: @unchecked Sendable {  // `stop()` may come from any thread; `active` is locked
    private let client: JackClient
    private let active = NSLock()
    private var activeState: UnsafeMutablePointer<CaptureState>?

    /// Prepares a run on `client`'s server.
    public init(client: JackClient) {
        self.client = client
    }

    /// Ends the current run at the next process cycle, from any thread (a signal handler's
    /// dispatch source, a user's key). `run` then finishes writing and returns with
    /// `completed == false`.
    public func stop() {
        active.lock()
        defer { active.unlock() }
        activeState?.pointee.stopRequested.store(true, ordering: .releasing)
    }

    /// Plays `stimulus` (one array per output channel, equal lengths) to new output ports,
    /// connected to `outputs`, while recording one new input port, connected from `inputs`, to
    /// `recordingPath` (format from its extension). Recording goes on `tailFrames` past the
    /// stimulus's end. With `midiInputs`, a MIDI input port records note-ons as taps, stamped
    /// with their frame (cycle start + event offset); with `timestampsPath`, each tap is
    /// appended to that file (`%f` seconds, one per line) the moment the writer sees it.
    /// Returns when the run is over and the files are closed.
    public func run(stimulus: [[Float]], sampleRate: Double, recordingTo recordingPath: String,
                    outputs: [String], inputs: [String], midiInputs: [String] = [],
                    timestampsPath: String? = nil, tailFrames: Int = 0) throws -> CaptureReport {
        let handle = client.handle
        guard sampleRate == client.sampleRate else {
            throw CaptureError.sampleRateMismatch(stimulus: sampleRate, server: client.sampleRate)
        }
        let state = CaptureState.make(stimulus: stimulus, totalFrames: (stimulus.first?.count ?? 0) + tailFrames,
                                      ringCapacity: Int(sampleRate) * 4)
        active.lock()
        activeState = state
        active.unlock()
        defer {
            active.lock()
            activeState = nil
            active.unlock()
            state.destroy()
        }

        for channel in 0..<stimulus.count {
            guard let port = jack_port_register(handle, "out_\(channel + 1)", "32 bit float mono audio",
                                                UInt(JackPortIsOutput.rawValue), 0) else {
                throw CaptureError.jack("cannot register output port out_\(channel + 1)")
            }
            state.pointee.outputs[channel] = port
        }
        guard let input = jack_port_register(handle, "in_1", "32 bit float mono audio", UInt(JackPortIsInput.rawValue), 0) else {
            throw CaptureError.jack("cannot register input port in_1")
        }
        state.pointee.input = input
        if !midiInputs.isEmpty || timestampsPath != nil {
            guard let midi = jack_port_register(handle, "midi_in", "8 bit raw midi", UInt(JackPortIsInput.rawValue), 0) else {
                throw CaptureError.jack("cannot register MIDI input port midi_in")
            }
            state.pointee.midiInput = midi
        }
        defer {
            for channel in 0..<stimulus.count { if let port = state.pointee.outputs[channel] { jack_port_unregister(handle, port) } }
            jack_port_unregister(handle, input)
            if let midi = state.pointee.midiInput { jack_port_unregister(handle, midi) }
        }

        jack_set_process_callback(handle, captureProcess, UnsafeMutableRawPointer(state))
        jack_set_xrun_callback(handle, captureXrun, UnsafeMutableRawPointer(state))
        jack_on_shutdown(handle, captureShutdown, UnsafeMutableRawPointer(state))
        guard jack_activate(handle) == 0 else { throw CaptureError.jack("cannot activate the client") }
        defer { jack_deactivate(handle) }

        let ownName = String(cString: jack_get_client_name(handle))
        for (channel, destination) in outputs.enumerated() where channel < stimulus.count {
            guard jack_connect(handle, "\(ownName):out_\(channel + 1)", destination) == 0 else {
                throw CaptureError.jack("cannot connect \(ownName):out_\(channel + 1) to \(destination)")
            }
        }
        for source in inputs {
            guard jack_connect(handle, source, "\(ownName):in_1") == 0 else {
                throw CaptureError.jack("cannot connect \(source) to \(ownName):in_1")
            }
        }
        for source in midiInputs {
            guard jack_connect(handle, source, "\(ownName):midi_in") == 0 else {
                throw CaptureError.jack("cannot connect \(source) to \(ownName):midi_in")
            }
        }
        let timestamps: FileHandle? = try timestampsPath.map { path in
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw CaptureError.jack("cannot create \(path)")
            }
            return try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        }
        defer { try? timestamps?.close() }
        // Playback starts at the next cycle after everything is connected.
        state.pointee.started.store(true, ordering: .releasing)

        let writer = try AudioFileWriter(path: recordingPath, format: AudioFileFormat(pathExtension: recordingPath) ?? .wav16,
                                         sampleRate: sampleRate, channelCount: 1)
        var buffer = [Float](repeating: 0, count: 8_192)
        var tapFrames = [Int](repeating: 0, count: 256)
        var tapTimes: [Double] = []
        var written = 0
        while true {
            let finished = state.pointee.finished.load(ordering: .acquiring)
            let taps = tapFrames.withUnsafeMutableBufferPointer { state.pointee.taps.pop(into: $0.baseAddress!, maximum: $0.count) }
            for frame in tapFrames.prefix(taps) {
                let time = Double(frame) / sampleRate
                tapTimes.append(time)
                // Written and flushed as it happens (FileHandle does not buffer): a crash
                // loses no tap that was already seen.
                try timestamps?.write(contentsOf: Data((String(format: "%f", time) + "\n").utf8))
            }
            let count = buffer.withUnsafeMutableBufferPointer { state.pointee.ring.pop(into: $0.baseAddress!, maximum: $0.count) }
            if count > 0 {
                try buffer.withUnsafeBufferPointer { try writer.write(interleaved: UnsafeBufferPointer(rebasing: $0[0..<count])) }
                written += count
            } else if finished && taps == 0 {
                break
            } else {
                usleep(2_000)
            }
        }
        try writer.close()
        return CaptureReport(completed: state.pointee.position >= state.pointee.totalFrames, recordedFrames: written, cycles: state.pointee.cycles.load(ordering: .relaxed),
                             xruns: state.pointee.xruns.load(ordering: .relaxed),
                             droppedFrames: state.pointee.dropped.load(ordering: .relaxed), tapTimes: tapTimes,
                             callbackNanoseconds: Array(UnsafeBufferPointer(start: state.pointee.timings,
                                                                            count: min(state.pointee.timingCount, state.pointee.timingCapacity))),
                             sampleRate: client.sampleRate, periodFrames: client.periodFrames)
    }
}

/// Everything the process callback touches, allocated before activation. Plain memory and
/// atomics only: no class references, so the callback does no reference counting.
struct CaptureState {
    var outputs: UnsafeMutablePointer<OpaquePointer?>
    var outputCount: Int
    var input: OpaquePointer?
    var midiInput: OpaquePointer?
    var stimulus: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    var stimulusFrames: Int
    var totalFrames: Int
    var position = 0
    var ring: SPSCRing<Float>
    var taps: SPSCRing<Int>
    /// Callback durations, written by the callback only while running; read after the run.
    var timings: UnsafeMutablePointer<Int>
    var timingCapacity: Int
    var timingCount = 0
    var started: UnsafeAtomic<Bool>
    var stopRequested: UnsafeAtomic<Bool>
    var finished: UnsafeAtomic<Bool>
    var cycles: UnsafeAtomic<Int>
    var xruns: UnsafeAtomic<Int>
    var dropped: UnsafeAtomic<Int>

    static func make(stimulus: [[Float]], totalFrames: Int, ringCapacity: Int) -> UnsafeMutablePointer<CaptureState> {
        let channels = stimulus.count
        let outputs = UnsafeMutablePointer<OpaquePointer?>.allocate(capacity: max(channels, 1))
        outputs.initialize(repeating: nil, count: max(channels, 1))
        let frames = stimulus.first?.count ?? 0
        let pointers = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: max(channels, 1))
        for (channel, samples) in stimulus.enumerated() {
            let copy = UnsafeMutablePointer<Float>.allocate(capacity: max(frames, 1))
            samples.withUnsafeBufferPointer { copy.initialize(from: $0.baseAddress!, count: frames) }
            (pointers + channel).initialize(to: copy)
        }
        let timingCapacity = totalFrames / 16 + 1_024   // enough cycles down to a 16-frame period
        let timings = UnsafeMutablePointer<Int>.allocate(capacity: timingCapacity)
        timings.initialize(repeating: 0, count: timingCapacity)
        let state = UnsafeMutablePointer<CaptureState>.allocate(capacity: 1)
        state.initialize(to: CaptureState(outputs: outputs, outputCount: channels, input: nil, midiInput: nil,
                                          stimulus: pointers, stimulusFrames: frames, totalFrames: totalFrames,
                                          ring: SPSCRing(minimumCapacity: ringCapacity, filler: 0),
                                          taps: SPSCRing(minimumCapacity: 4_096, filler: 0),
                                          timings: timings, timingCapacity: timingCapacity, started: .create(false),
                                          stopRequested: .create(false),
                                          finished: .create(false), cycles: .create(0), xruns: .create(0), dropped: .create(0)))
        return state
    }
}

extension UnsafeMutablePointer where Pointee == CaptureState {
    func destroy() {
        for channel in 0..<pointee.outputCount { pointee.stimulus[channel].deallocate() }
        pointee.stimulus.deallocate()
        pointee.timings.deallocate()
        pointee.outputs.deallocate()
        pointee.ring.destroy()
        pointee.taps.destroy()
        pointee.started.destroy()
        pointee.stopRequested.destroy()
        pointee.finished.destroy()
        pointee.cycles.destroy()
        pointee.xruns.destroy()
        pointee.dropped.destroy()
        deinitialize(count: 1)
        deallocate()
    }
}

/// The process callback: one cycle of playback and capture, in the same cycle.
private let captureProcess: JackProcessCallback = { frames, argument in
    guard let argument else { return 0 }
    let state = argument.assumingMemoryBound(to: CaptureState.self)
    var begin = timespec()
    clock_gettime(CLOCK_MONOTONIC, &begin)
    let n = Int(frames)
    if state.pointee.stopRequested.load(ordering: .acquiring) && !state.pointee.finished.load(ordering: .relaxed) {
        state.pointee.finished.store(true, ordering: .releasing)
    }
    let running = state.pointee.started.load(ordering: .acquiring) && !state.pointee.finished.load(ordering: .relaxed)
    let position = state.pointee.position
    // Frames of stimulus left for this cycle; the rest of the buffer is silence.
    let playing = running ? max(0, min(n, state.pointee.stimulusFrames - position)) : 0
    for channel in 0..<state.pointee.outputCount {
        guard let port = state.pointee.outputs[channel],
              let raw = jack_port_get_buffer(port, frames) else { continue }
        let out = raw.assumingMemoryBound(to: Float.self)
        if playing > 0 { out.update(from: state.pointee.stimulus[channel] + position, count: playing) }
        if playing < n { (out + playing).update(repeating: 0, count: n - playing) }
    }
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

/// The server went away: end the run; the writer closes the files with what it has.
private let captureShutdown: JackShutdownCallback = { argument in
    argument?.assumingMemoryBound(to: CaptureState.self).pointee.finished.store(true, ordering: .releasing)
}

private let captureXrun: JackXRunCallback = { argument in
    guard let argument else { return 0 }
    argument.assumingMemoryBound(to: CaptureState.self).pointee.xruns.wrappingIncrement(ordering: .relaxed)
    return 0
}
