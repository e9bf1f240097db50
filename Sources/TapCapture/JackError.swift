/// Why the JACK client could not do what was asked.
public enum JackError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No JACK server runs under that name (nil: the default server).
    case serverNotRunning(server: String?)
    /// The server refused the client, with libjack's status bits.
    case clientRejected(server: String?, status: UInt32)
    /// A port of that name does not exist.
    case noSuchPort(name: String)

    /// The message, naming the server or port.
    public var description: String {
        switch self {
        case .serverNotRunning(let server):
            let name = server.map { "'\($0)'" } ?? "(default)"
            let flag = server.map { " -n \($0)" } ?? ""
            return "no JACK server \(name) is running; start one, e.g. `jackd\(flag) -d alsa` for a sound card "
                + "or `jackd\(flag) -d dummy -r 48000 -p 128` for none (PipeWire users: `pw-jack tapkit …`)"
        case .clientRejected(let server, let status):
            return "the JACK server \(server.map { "'\($0)'" } ?? "(default)") refused the client (status 0x\(String(status, radix: 16)))"
        case .noSuchPort(let name):
            return "no JACK port named '\(name)' (see `tapkit devices`)"
        }
    }
}
