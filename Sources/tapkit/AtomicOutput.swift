import Foundation

/// Files a command writes under temporary names and renames only when all of them are
/// complete, so a failure never leaves half a file (or a new audio file beside an old list).
struct AtomicOutput {
    private var pending: [(temporary: String, final: String)] = []

    /// The temporary path to write `path` to.
    mutating func temporaryPath(for path: String) -> String {
        let temporary = path + ".partial-\(getpid())"
        pending.append((temporary, path))
        // For the signal handler (removes them when interrupted) and for messages.
        PendingTemporaries.shared.add(temporary: temporary, final: path)
        return temporary
    }

    /// Renames every temporary file to its final name, replacing what was there.
    func commit() throws {
        for (temporary, final) in pending {
            if FileManager.default.fileExists(atPath: final) { try FileManager.default.removeItem(atPath: final) }
            try FileManager.default.moveItem(atPath: temporary, toPath: final)
        }
    }

    /// Removes the temporary files (after a failure).
    func discard() {
        for (temporary, _) in pending { try? FileManager.default.removeItem(atPath: temporary) }
    }
}
