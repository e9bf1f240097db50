import Foundation
import Synchronization
import TapAudio

/// Every temporary file an ``AtomicOutput`` hands out in this process, so that an interrupted
/// command (SIGINT, SIGTERM, SIGHUP) removes them all before it exits, and so that messages
/// name the final paths instead of the temporaries.
final class PendingTemporaries: Sendable {
    static let shared = PendingTemporaries()

    private struct State {
        var files: [(temporary: String, final: String)] = []
        var committed = false
        var interrupted = false
    }
    private let state = Mutex(State())

    /// Records that `temporary` is written for `final`.
    func add(temporary: String, final: String) {
        state.withLock { $0.files.append((temporary, final)) }
    }

    /// Runs `commit` (the renames) so that an interruption either comes first, removes the
    /// temporaries and ends the process before any rename, or waits until every rename is done
    /// and is then ignored, the outputs being complete.
    func committing(_ commit: () throws -> Void) throws {
        try state.withLock { (state: inout State) throws in
            if state.interrupted {
                // The signal handler has removed the temporaries and is ending the process.
                while true { pause() }
            }
            try commit()
            state.committed = true
        }
    }

    /// Removes every temporary; false when the outputs were committed already (nothing to undo).
    func removeAll() -> Bool {
        state.withLock { state in
            guard !state.committed else { return false }
            state.interrupted = true
            for (temporary, _) in state.files { unlink(temporary) }
            return true
        }
    }

    /// `text` with every temporary path replaced by its final path.
    func finalNames(in text: String) -> String {
        state.withLock { state in
            state.files.reduce(text) { $0.replacingOccurrences(of: $1.temporary, with: $1.final) }
        }
    }

    /// The final path `path` stands for (itself when it is not a temporary).
    func finalPath(of path: String) -> String {
        state.withLock { state in state.files.first { $0.temporary == path }?.final ?? path }
    }

    /// Until the returned trap is cancelled, SIGINT, SIGTERM and SIGHUP remove every temporary
    /// and end the process with status 1 and a message naming `outputs`.
    func removeOnInterruption(outputs: [String]) -> SignalTrap {
        SignalTrap([SIGINT, SIGTERM, SIGHUP]) { number in
            guard PendingTemporaries.shared.removeAll() else { return }
            let names = outputs.joined(separator: " and ")
            printError("error: interrupted by \(signalName(number)); \(names) \(outputs.count == 1 ? "was" : "were") not written")
            _exit(1)
        }
    }

    /// A plain message for an error writing the outputs: final paths only, and the reason in
    /// words instead of Foundation's error dump.
    func message(for error: any Error, outputs: [String]) -> String {
        if let audio = error as? AudioError { return finalNames(in: audio.description) }
        let nsError = error as NSError
        guard nsError.domain == NSCocoaErrorDomain || nsError.domain == NSPOSIXErrorDomain else {
            return finalNames(in: "\(error)")
        }
        let path = (nsError.userInfo[NSFilePathErrorKey] as? String).map(finalPath(of:))
            ?? outputs.joined(separator: ", ")
        return "\(path): cannot write: \(plainFileErrorReason(error))"
    }
}
