import CJack

/// A connection to a JACK server: its sample rate and period, and its ports.
///
/// Opening never starts a server (TapKit should not surprise a lab with an audio server it did
/// not ask for); with no server running it throws ``JackError/serverNotRunning(server:)``, whose
/// message says how to start one. The connection closes when the client is released.
public final class JackClient {
    /// The server's name, or nil for the default server.
    public let serverName: String?
    let handle: OpaquePointer

    /// Connects to the server `serverName` (nil: the default, or `$JACK_DEFAULT_SERVER`).
    public init(name: String = "tapkit", serverName: String? = nil) throws(JackError) {
        tapkit_jack_silence()
        var status = jack_status_t(rawValue: 0)
        let client = serverName.map { server in
            server.withCString { tapkit_jack_client_open(name, $0, &status) }
        } ?? tapkit_jack_client_open(name, nil, &status)
        guard let client else {
            if status.rawValue & JackServerFailed.rawValue != 0 || status.rawValue & JackServerError.rawValue != 0 {
                throw .serverNotRunning(server: serverName)
            }
            throw .clientRejected(server: serverName, status: status.rawValue)
        }
        self.serverName = serverName
        handle = client
    }

    deinit { jack_client_close(handle) }

    /// Frames per second of the server.
    public var sampleRate: Double { Double(jack_get_sample_rate(handle)) }

    /// Frames per process cycle (the period).
    public var periodFrames: Int { Int(jack_get_buffer_size(handle)) }

    /// Every port of the graph, in the server's order.
    public func ports() -> [JackPort] {
        guard let names = jack_get_ports(handle, nil, nil, 0) else { return [] }
        defer { jack_free(UnsafeMutableRawPointer(mutating: names)) }
        var result: [JackPort] = []
        var index = 0
        while let cName = names[index] {
            index += 1
            let name = String(cString: cName)
            guard let port = jack_port_by_name(handle, cName) else { continue }
            let flags = UInt32(bitPattern: jack_port_flags(port))
            let type = String(cString: jack_port_type(port))
            let kind: JackPort.Kind = type == "32 bit float mono audio" ? .audio : type == "8 bit raw midi" ? .midi : .other
            result.append(JackPort(name: name, kind: kind,
                                   isSource: flags & JackPortIsOutput.rawValue != 0,
                                   isPhysical: flags & JackPortIsPhysical.rawValue != 0))
        }
        return result
    }

    /// The port called `name`, or ``JackError/noSuchPort(name:)``.
    public func port(named name: String) throws(JackError) -> JackPort {
        guard let port = ports().first(where: { $0.name == name }) else { throw .noSuchPort(name: name) }
        return port
    }
}
