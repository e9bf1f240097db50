import CJack
import TapCapture

/// A JACK client standing in for a participant with a MIDI drum pad: it listens to an audio
/// input and, in the same cycle and at the same frame offset where a sample exceeds 0.25,
/// sends a MIDI note-on.
final class TestParticipant {
    private let handle: OpaquePointer
    private let ports: UnsafeMutablePointer<OpaquePointer?>

    init(serverName: String) throws {
        var status = jack_status_t(rawValue: 0)
        guard let client = tapkit_jack_client_open("participant", serverName, &status) else {
            throw JackError.serverNotRunning(server: serverName)
        }
        handle = client
        ports = .allocate(capacity: 2)
        ports[0] = jack_port_register(client, "in", "32 bit float mono audio", UInt(JackPortIsInput.rawValue), 0)
        ports[1] = jack_port_register(client, "midi_out", "8 bit raw midi", UInt(JackPortIsOutput.rawValue), 0)
        jack_set_process_callback(client, participantProcess, UnsafeMutableRawPointer(ports))
        jack_activate(client)
    }

    deinit {
        jack_deactivate(handle)
        jack_client_close(handle)
        ports.deallocate()
    }
}

private let participantProcess: JackProcessCallback = { frames, argument in
    guard let ports = argument?.assumingMemoryBound(to: OpaquePointer?.self),
          let input = ports[0], let output = ports[1],
          let audio = jack_port_get_buffer(input, frames)?.assumingMemoryBound(to: Float.self),
          let midi = jack_port_get_buffer(output, frames) else { return 0 }
    jack_midi_clear_buffer(midi)
    var noteOn: (UInt8, UInt8, UInt8) = (0x90, 60, 100)
    for frame in 0..<Int(frames) where audio[frame] > 0.25 {
        withUnsafeBytes(of: &noteOn) { bytes in
            _ = jack_midi_event_write(midi, jack_nframes_t(frame), bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), 3)
        }
    }
    return 0
}
