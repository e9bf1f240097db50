import TapInput
import Atomics
import CJack
import Foundation
import TapAudio

/// What one playback-capture run did.
public struct CaptureReport: Sendable, Equatable {
    /// True when the run reached its end; false when it was stopped (``PlaybackCapture/stop(reason:)``),
    /// a file could not be written, or the JACK server went away. The files hold everything
    /// captured until then either way.
    public var completed: Bool
    /// Frames written to the recording (every cycle from the first to the end of the run).
    public var recordedFrames: Int
    /// Process cycles the run took.
    public var cycles: Int
    /// Server-reported xruns during the run.
    public var xruns: Int
    /// Frames the writer thread could not keep up with (lost); 0 in a healthy run.
    public var droppedFrames: Int
    /// Stimulus frames that reached the output late and were replaced by silence (the disk
    /// could not keep up); 0 in a healthy run. The stimulus stays on the recording's clock.
    public var stimulusUnderrunFrames: Int
    /// Tap times, seconds since playback start: MIDI note-ons exact to the frame, keyboard and
    /// input-device taps as mapped onto the audio clock (``PlaybackCapture/tapNow()``).
    public var tapTimes: [Double]
    /// CPU time of each process callback, nanoseconds (monotonic clock), in cycle order.
    public var callbackNanoseconds: [Int]
    /// The server's sample rate during the run.
    public var sampleRate: Double
    /// Frames per process cycle.
    public var periodFrames: Int
    /// Why the stimulus stopped playing part-way (a read error), which also ends the run.
    public var stimulusError: AudioError?
    /// Why the recording or the tap list could not be written any further (a full disk), which
    /// also ends the run. The files keep what was written before, the recording with a valid
    /// header.
    public var writeError: AudioError? = nil
    /// The reason given to ``PlaybackCapture/stop(reason:)``, when the run was stopped.
    public var stopReason: String? = nil
}

/// Errors of a capture run.
public enum CaptureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A JACK call failed.
    case jack(String)
    /// A file the run writes could not be created.
    case cannotCreate(path: String, reason: String)

    /// The message, naming the file or the JACK call.
    public var description: String {
        switch self {
        case .jack(let message): return "JACK: \(message)"
        case .cannotCreate(let path, let reason): return "\(path): cannot create: \(reason)"
        }
    }
}

/// Where a run is, for a status display.
public struct CaptureProgress: Sendable, Equatable {
    /// Seconds recorded so far.
    public var elapsed: Double
    /// Seconds the run lasts when it is not stopped (stimulus plus tail).
    public var duration: Double
    /// Taps received so far.
    public var taps: Int
    /// Frames at the start of the recording, as written so far, in which every sample is
    /// exactly 0 (digital silence: nothing connected, a muted or dead input). It stops growing
    /// at the first sample that is not 0.
    public var leadingSilentFrames: Int = 0
}

/// Plays a stimulus and records the microphone in the same JACK process callback, so frame 0
/// of the recording is the cycle in which frame 0 of the stimulus went out: the two share one
/// clock, sample for sample.
///
/// The process callback touches only memory prepared before activation (port handles,
/// lock-free rings): no allocation, lock, I/O or reference counting. The calling thread feeds
/// the stimulus into one ring (decoding a file and converting its sample rate on the way) and
/// drains the recording from another into the audio file, whose header is rewritten as it
/// grows, so the file is valid at every moment.
///
/// Taps come from a JACK MIDI port (stamped in the callback, exact to the frame) or from any
/// thread through ``tapNow()`` (a key read from the terminal) and
/// ``tap(atMonotonicTime:)`` (an input device's kernel event time), both mapped onto the
/// audio clock with JACK's frame-time estimate.
public final class PlaybackCapture: @unchecked Sendable {  // shared state below is locked
    private let client: JackClient
    private let lock = NSLock()
    private var activeState: UnsafeMutablePointer<CaptureState>?
    /// Taps from `tapNow` / `tap(atMonotonicTime:)`, as recording frames, until the writer takes them.
    private var externalTaps: [Int] = []
    private var tapCount = 0
    private var stopped = false
    private var stopReason: String?
    /// See ``CaptureProgress/leadingSilentFrames``; written by the writer loop.
    private var leadingSilentFrames = 0
    /// The recording's frame clock against JACK's system clock, for those taps.
    private var clock = FrameClock(sampleRate: 48_000)
    private var stampBuffer = [CycleStamp](repeating: CycleStamp(frame: 0, microseconds: 0, xruns: 0), count: 1_024)

    /// The server's sample rate, at which every run plays and records.
    public var sampleRate: Double { client.sampleRate }

    /// The server's frames per process cycle.
    public var periodFrames: Int { client.periodFrames }

    /// Prepares a run on `client`'s server.
    public init(client: JackClient) {
        self.client = client
    }

    /// Ends the current run at the next process cycle, from any thread (a signal handler's
    /// dispatch source, a user's key). `run` then finishes writing and returns with
    /// `completed == false` and `reason` (the first one given) as its report's `stopReason`.
    /// The stop holds for later runs too, which return at once, so a Ctrl-C that arrives
    /// between two tasks is never lost.
    public func stop(reason: String = "stopped") {
        lock.lock()
        defer { lock.unlock() }
        stopped = true
        if stopReason == nil { stopReason = reason }
        activeState?.pointee.stopRequested.store(true, ordering: .releasing)
    }

    /// True once `stop()` was called.
    public var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    /// Records a tap now: the audio clock is read at the call, like a touch screen that stamps
    /// a touch when the app sees it. Returns the tap's time in seconds since playback start, or
    /// nil when no run is playing.
    @discardableResult
    public func tapNow() -> Double? {
        recordTap(atMicroseconds: Int64(jack_get_time()))
    }

    /// Records a tap that happened at `time` on `CLOCK_MONOTONIC` (as an input device's kernel
    /// event time is). Returns its time in seconds since playback start, or nil when no run is
    /// playing.
    @discardableResult
    public func tap(atMonotonicTime time: timespec) -> Double? {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let jackNow = Int64(jack_get_time())
        // JACK's clock need not be CLOCK_MONOTONIC (jackd2 uses CLOCK_MONOTONIC_RAW), so carry
        // the event's age across rather than its absolute time; the clocks' rates differ by
        // parts per million at most.
        let age = Int64(now.tv_sec - time.tv_sec) * 1_000_000 + Int64(now.tv_nsec - time.tv_nsec) / 1_000
        return recordTap(atMicroseconds: jackNow - age)
    }

    /// Places an instant of JACK's clock on the recording (`FrameClock`) and queues the tap.
    private func recordTap(atMicroseconds microseconds: Int64) -> Double? {
        lock.lock()
        defer { lock.unlock() }
        guard let state = activeState, !state.pointee.finished.load(ordering: .acquiring) else { return nil }
        updateClock(state)
        guard let frame = clock.frame(atMicroseconds: microseconds), frame >= 0 else { return nil }
        externalTaps.append(Int(frame.rounded()))
        return frame.rounded() / client.sampleRate
    }

    /// Takes the cycle starts the callback logged into the frame clock (call with `lock` held).
    private func updateClock(_ state: UnsafeMutablePointer<CaptureState>) {
        clock.add(from: state.pointee.cycleStamps, scratch: &stampBuffer)
    }

    /// The current run's position and taps, or nil between runs.
    public var progress: CaptureProgress? {
        lock.lock()
        defer { lock.unlock() }
        guard let state = activeState else { return nil }
        let rate = client.sampleRate
        return CaptureProgress(elapsed: Double(state.pointee.recorded.load(ordering: .relaxed)) / rate,
                               duration: Double(state.pointee.totalFrames) / rate, taps: tapCount,
                               leadingSilentFrames: leadingSilentFrames)
    }

    /// Plays `stimulus` (one array per output channel, equal lengths) at `sampleRate`; see
    /// ``run(_:recordingTo:outputs:inputs:midiInputs:timestampsPath:tailFrames:)``.
    public func run(stimulus: [[Float]], sampleRate: Double, recordingTo recordingPath: String,
                    outputs: [String], inputs: [String], midiInputs: [String] = [],
                    timestampsPath: String? = nil, tailFrames: Int = 0) throws -> CaptureReport {
        try run(.samples(stimulus, sampleRate: sampleRate), recordingTo: recordingPath, outputs: outputs,
                inputs: inputs, midiInputs: midiInputs, timestampsPath: timestampsPath, tailFrames: tailFrames)
    }

    /// Plays `stimulus` to new output ports, connected to `outputs`, while recording one new
    /// input port, connected from `inputs`, to `recordingPath` (format from its extension).
    /// A stimulus at another rate than the server's is converted on the way
    /// (`Resampler`). Recording goes on `tailFrames` past the stimulus's end. With
    /// `midiInputs`, a MIDI input port records note-ons as taps, stamped with their frame
    /// (cycle start + event offset); with `timestampsPath`, each tap (MIDI or from ``tapNow()``)
    /// is appended to that file (`%f` seconds, one per line) the moment the writer sees it.
    /// Returns when the run is over and the files are closed.
    public func run(_ stimulus: Stimulus, recordingTo recordingPath: String,
                    outputs: [String], inputs: [String], midiInputs: [String] = [],
                    timestampsPath: String? = nil, tailFrames: Int = 0) throws -> CaptureReport {
        let sampleRate = client.sampleRate
        let reader = try StimulusReader(stimulus, outputRate: sampleRate)
        let channels = reader.channelCount
        let state = CaptureState.make(channels: channels, stimulusFrames: reader.frameCount,
                                      totalFrames: reader.frameCount + tailFrames,
                                      ringCapacity: Int(sampleRate) * 4, playbackCapacity: Int(sampleRate) * 4)
        begin(state, sampleRate: sampleRate)
        defer { end(state) }
        // Whatever was registered is unregistered, also when a registration fails part-way.
        defer { unregisterPorts(state, channels: channels) }
        try registerPorts(state, channels: channels, midi: !midiInputs.isEmpty)
        try activate(state)
        defer { deactivate() }
        try connect(outputs: outputs, inputs: inputs, midiInputs: midiInputs, channels: channels)
        let timestamps = try timestampsPath.map { path in (handle: try Self.createTimestampFile(path), path: path) }
        defer { try? timestamps?.handle.close() }
        let writer = try AudioFileWriter(path: recordingPath, format: AudioFileFormat(pathExtension: recordingPath) ?? .wav16,
                                         sampleRate: sampleRate, channelCount: 1)
        var feeder = PlaybackFeeder(reader: reader, ring: state.pointee.playback)
        // The ring is full (or holds the whole stimulus) before the first frame plays.
        try feeder.fill()
        // Playback starts at the next cycle after everything is connected.
        state.pointee.started.store(true, ordering: .releasing)
        var drained = drain(state, feeder: &feeder, writer: writer, timestamps: timestamps, sampleRate: sampleRate)
        do { try writer.close() } catch {
            if drained.writeError == nil { drained.writeError = error }
        }
        return report(state, drained, sampleRate: sampleRate)
    }

    /// Makes `state` the run's, stopped at once if a stop came first, with fresh tap counts.
    private func begin(_ state: UnsafeMutablePointer<CaptureState>, sampleRate: Double) {
        lock.lock()
        activeState = state
        if stopped { state.pointee.stopRequested.store(true, ordering: .releasing) }
        externalTaps = []
        tapCount = 0
        leadingSilentFrames = 0
        clock = FrameClock(sampleRate: sampleRate)
        lock.unlock()
    }

    private func end(_ state: UnsafeMutablePointer<CaptureState>) {
        lock.lock()
        activeState = nil
        lock.unlock()
        state.destroy()
    }

    /// `out_1`…`out_N`, `in_1`, and `midi_in` when taps come from MIDI.
    private func registerPorts(_ state: UnsafeMutablePointer<CaptureState>, channels: Int, midi: Bool) throws {
        let handle = client.handle
        for channel in 0..<channels {
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
        if midi {
            guard let port = jack_port_register(handle, "midi_in", "8 bit raw midi", UInt(JackPortIsInput.rawValue), 0) else {
                throw CaptureError.jack("cannot register MIDI input port midi_in")
            }
            state.pointee.midiInput = port
        }
    }

    /// Unregisters whichever ports were registered (also after a failed registration).
    private func unregisterPorts(_ state: UnsafeMutablePointer<CaptureState>, channels: Int) {
        let handle = client.handle
        for channel in 0..<channels { if let port = state.pointee.outputs[channel] { jack_port_unregister(handle, port) } }
        if let input = state.pointee.input { jack_port_unregister(handle, input) }
        if let midi = state.pointee.midiInput { jack_port_unregister(handle, midi) }
    }

    private func activate(_ state: UnsafeMutablePointer<CaptureState>) throws {
        let handle = client.handle
        jack_set_process_callback(handle, captureProcess, UnsafeMutableRawPointer(state))
        jack_set_xrun_callback(handle, captureXrun, UnsafeMutableRawPointer(state))
        jack_on_shutdown(handle, captureShutdown, UnsafeMutableRawPointer(state))
        guard jack_activate(handle) == 0 else { throw CaptureError.jack("cannot activate the client") }
    }

    private func deactivate() {
        let handle = client.handle
        jack_deactivate(handle)
        // The callbacks' argument is freed with this run; none may fire later (the server
        // going away between tasks).
        jack_on_shutdown(handle, nil, nil)
        jack_set_xrun_callback(handle, nil, nil)
    }

    private func connect(outputs: [String], inputs: [String], midiInputs: [String], channels: Int) throws {
        let handle = client.handle
        let ownName = String(cString: jack_get_client_name(handle))
        for (channel, destination) in outputs.enumerated() where channel < channels {
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
    }

    private static func createTimestampFile(_ path: String) throws -> FileHandle {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CaptureError.cannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
        return try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }

    /// What the writer loop leaves: frames written, taps seen, and why it ended early.
    private struct Drained {
        var written = 0
        var tapTimes: [Double] = []
        var feedError: AudioError?
        var writeError: AudioError?
    }

    /// The writer loop, until the callback has finished and every ring is empty: keeps the
    /// playback ring full, appends each tap to the timestamp file as it is seen, and writes
    /// the recording. A failed write (a full disk) ends the run like a stop: the callback
    /// finishes at its next cycle, the rest is drained and dropped, and the files keep what
    /// they hold.
    private func drain(_ state: UnsafeMutablePointer<CaptureState>, feeder: inout PlaybackFeeder, writer: AudioFileWriter,
                       timestamps: (handle: FileHandle, path: String)?, sampleRate: Double) -> Drained {
        var drained = Drained()
        var buffer = [Float](repeating: 0, count: 8_192)
        var tapFrames = [Int](repeating: 0, count: 256)
        var silentSoFar = true
        while true {
            let finished = state.pointee.finished.load(ordering: .acquiring)
            if !finished && drained.feedError == nil {
                do { try feeder.fill() } catch {
                    // A stimulus that cannot be read any further ends the run; the files keep
                    // what was captured, and the report carries the error.
                    drained.feedError = error
                    state.pointee.stopRequested.store(true, ordering: .releasing)
                }
            }
            let newTaps = takeTaps(state, into: &tapFrames)
            for frame in newTaps {
                let time = Double(frame) / sampleRate
                drained.tapTimes.append(time)
                // Written and flushed as it happens (FileHandle does not buffer): a crash
                // loses no tap that was already seen.
                guard drained.writeError == nil, let timestamps else { continue }
                do { try timestamps.handle.write(contentsOf: Data((String(format: "%f", time) + "\n").utf8)) } catch {
                    drained.writeError = .writeFailed(path: timestamps.path, reason: plainFileErrorReason(error))
                    state.pointee.stopRequested.store(true, ordering: .releasing)
                }
            }
            let count = buffer.withUnsafeMutableBufferPointer { state.pointee.ring.pop(into: $0.baseAddress!, maximum: $0.count) }
            if count > 0 {
                if silentSoFar { silentSoFar = countLeadingSilence(buffer[0..<count]) }
                guard drained.writeError == nil else { continue }
                do {
                    // libsndfile rewrites the WAV header after each of these writes.
                    try buffer.withUnsafeBufferPointer { buffer throws(AudioError) in
                        try writer.write(interleaved: UnsafeBufferPointer(rebasing: buffer[0..<count]))
                    }
                    drained.written += count
                } catch {
                    drained.writeError = error
                    state.pointee.stopRequested.store(true, ordering: .releasing)
                }
            } else if finished && newTaps.isEmpty {
                return drained
            } else {
                usleep(2_000)
            }
        }
    }

    /// The taps since the last call: MIDI taps from the callback and taps placed by
    /// ``tap(atMonotonicTime:)`` or ``tapNow()``, as frames.
    private func takeTaps(_ state: UnsafeMutablePointer<CaptureState>, into tapFrames: inout [Int]) -> [Int] {
        let midiTaps = tapFrames.withUnsafeMutableBufferPointer { state.pointee.taps.pop(into: $0.baseAddress!, maximum: $0.count) }
        lock.lock()
        defer { lock.unlock() }
        updateClock(state)
        let newTaps = midiTaps == 0 && externalTaps.isEmpty ? [] : Array(tapFrames.prefix(midiTaps)) + externalTaps
        externalTaps.removeAll(keepingCapacity: true)
        tapCount += newTaps.count
        return newTaps
    }

    /// Counts the frames of digital silence at the start of the recording; false once a
    /// sample is not zero.
    private func countLeadingSilence(_ samples: ArraySlice<Float>) -> Bool {
        let firstSound = samples.firstIndex { $0 != 0 }.map { $0 - samples.startIndex }
        lock.lock()
        leadingSilentFrames += firstSound ?? samples.count
        lock.unlock()
        return firstSound == nil
    }

    private func report(_ state: UnsafeMutablePointer<CaptureState>, _ drained: Drained, sampleRate: Double) -> CaptureReport {
        lock.lock()
        let reason = stopped ? stopReason : nil
        lock.unlock()
        return CaptureReport(completed: state.pointee.position >= state.pointee.totalFrames && drained.writeError == nil,
                             recordedFrames: drained.written,
                             cycles: state.pointee.cycles.load(ordering: .relaxed),
                             xruns: state.pointee.xruns.load(ordering: .relaxed),
                             droppedFrames: state.pointee.dropped.load(ordering: .relaxed),
                             stimulusUnderrunFrames: state.pointee.underrun.load(ordering: .relaxed), tapTimes: drained.tapTimes,
                             callbackNanoseconds: Array(UnsafeBufferPointer(start: state.pointee.timings,
                                                                            count: min(state.pointee.timingCount, state.pointee.timingCapacity))),
                             sampleRate: sampleRate, periodFrames: client.periodFrames, stimulusError: drained.feedError,
                             writeError: drained.writeError, stopReason: reason)
    }
}

/// Keeps the playback ring topped up from the stimulus reader, in whole frames.
struct PlaybackFeeder {
    let reader: StimulusReader
    let ring: SPSCRing<Float>
    private var block: [Float]
    private let blockFrames = 4_096
    private var exhausted = false

    init(reader: StimulusReader, ring: SPSCRing<Float>) {
        self.reader = reader
        self.ring = ring
        block = [Float](repeating: 0, count: blockFrames * max(reader.channelCount, 1))
    }

    /// Reads blocks while a whole block fits into the ring.
    mutating func fill() throws(AudioError) {
        let channels = reader.channelCount
        guard channels > 0 else { return }
        while !exhausted && ring.writableCount >= blockFrames * channels {
            let frames = try block.withUnsafeMutableBufferPointer { buffer throws(AudioError) in
                try reader.read(into: buffer.baseAddress!, maximumFrames: blockFrames)
            }
            if frames == 0 {
                exhausted = true
                break
            }
            let pushed = block.withUnsafeBufferPointer { ring.push($0.baseAddress!, count: frames * channels) }
            assert(pushed == frames * channels, "the ring had room for the block")
        }
    }
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
