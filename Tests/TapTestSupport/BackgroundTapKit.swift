import Foundation

/// A `tapkit` process started in the background, its stderr collected.
public final class BackgroundTapKit {
    public let process = Process()
    private let errors = Pipe()

    /// Starts `tapkit` with `arguments`; with a `launcher` (`["/usr/bin/prlimit", "--fsize=…"]`),
    /// through that command.
    public init(_ arguments: [String], launcher: [String] = []) throws {
        process.executableURL = URL(fileURLWithPath: launcher.first ?? tapkitBinary)
        process.arguments = launcher.isEmpty ? arguments : launcher.dropFirst() + [tapkitBinary] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
    }

    /// Waits until `path` exists and holds at least `bytes` bytes; false when the process ended
    /// first or a minute passed.
    public func waitFor(_ path: String, bytes: Int = 1) -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline && process.isRunning {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
            if let size, size >= bytes { return true }
            usleep(10_000)
        }
        return false
    }

    /// Waits for the exit and returns the exit status (nil when a signal ended the process)
    /// and what it printed on stderr.
    public func finish() -> (status: Int32?, stderr: String) {
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationReason == .exit ? process.terminationStatus : nil, text)
    }
}
