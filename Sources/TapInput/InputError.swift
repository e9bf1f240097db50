/// Why a tap input could not be used; it names the device.
public enum InputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An input device (`/dev/input/eventN`) could not be opened.
    case cannotOpenInputDevice(path: String, reason: String)

    /// The message, naming the device and what usually fixes it.
    public var description: String {
        switch self {
        case .cannotOpenInputDevice(let path, let reason):
            return "\(path): cannot open the input device: \(reason) (reading /dev/input usually needs the 'input' group)"
        }
    }
}
