#if canImport(Glibc)
import Glibc
#endif

/// Command-line arguments that are not UTF-8, such as a folder named in Latin-1 by an old
/// system. A Swift `String` cannot hold those bytes, so such a path could not be opened: each
/// one that names an existing file or folder is opened once (`O_PATH`) and replaced by
/// `/proc/self/fd/N`, which reaches it on Linux; messages show the name as the terminal would
/// (invalid bytes as U+FFFD) instead of the descriptor path.
enum RawPathArguments {
    nonisolated(unsafe) private static var displayNames: [(descriptorPath: String, shown: String)] = []

    /// The arguments after the program name, with every non-UTF-8 path made reachable.
    static func usable() -> [String] {
        (1..<Int(CommandLine.argc)).map { index in
            guard let pointer = CommandLine.unsafeArgv[index] else { return "" }
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer))
            if let text = String(validating: bytes, as: UTF8.self) { return text }
            let shown = String(decoding: bytes, as: UTF8.self)
            let descriptor = open(pointer, 0o10000000 | O_CLOEXEC)  // O_PATH (Linux), which Glibc does not export to Swift
            guard descriptor >= 0 else { return shown }
            let descriptorPath = "/proc/self/fd/\(descriptor)"
            displayNames.append((descriptorPath, shown))
            return descriptorPath
        }
    }

    /// `text` with every descriptor path shown as its argument's name.
    static func shown(_ text: String) -> String {
        displayNames.reduce(text) { $0.replacingOccurrences(of: $1.descriptorPath, with: $1.shown) }
    }
}
