/// A port of the JACK graph, as `tapkit devices` lists it.
public struct JackPort: Sendable, Equatable, Codable {
    /// What flows through the port.
    public enum Kind: String, Sendable, Codable {
        /// 32-bit float audio.
        case audio
        /// Raw MIDI events.
        case midi
        /// Any other type a client registered.
        case other
    }

    /// Full name, `client:port`.
    public var name: String
    /// Audio or MIDI.
    public var kind: Kind
    /// True when the port delivers data into the graph (a microphone, a MIDI pad): something
    /// TapKit can record from. False for ports that take data (loudspeakers).
    public var isSource: Bool
    /// True for ports of real hardware (or of the server's driver).
    public var isPhysical: Bool

    enum CodingKeys: String, CodingKey {
        case name, kind, isSource = "is_source", isPhysical = "is_physical"
    }

    /// Creates a port description.
    public init(name: String, kind: Kind, isSource: Bool, isPhysical: Bool) {
        self.name = name
        self.kind = kind
        self.isSource = isSource
        self.isPhysical = isPhysical
    }
}
