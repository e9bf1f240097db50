import Foundation
import Synchronization

/// A one-line progress display on stderr, shown only when stderr is a terminal so that
/// piped and logged runs stay quiet.
final class ProgressLine: Sendable {
    private let label: String
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let lastDrawn = Mutex(0.0)

    init(_ label: String) { self.label = label }

    /// Redraws at most ten times a second, and always for the last item.
    func update(done: Int, total: Int) {
        guard isTerminal else { return }
        let now = Date().timeIntervalSince1970
        let shouldDraw = lastDrawn.withLock { last -> Bool in
            guard done == total || now - last >= 0.1 else { return false }
            last = now
            return true
        }
        if shouldDraw {
            FileHandle.standardError.write(Data("\r\(label) \(done)/\(total)\u{1B}[K".utf8))
        }
    }

    /// Clears the line.
    func finish() {
        guard isTerminal else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
