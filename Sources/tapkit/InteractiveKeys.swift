import Foundation
import TapInput
#if canImport(Glibc)
import Glibc
#endif

/// Keys for an interactive command: each key press with a stamp taken the moment it is read
/// (a frame, a clock reading), handed to the main loop. Ctrl-C, SIGTERM, SIGHUP and SIGQUIT
/// arrive as a `q`, so the main loop always ends normally and the terminal is restored.
final class InteractiveKeys: @unchecked Sendable {  // `pending` is guarded by `lock`
    private let lock = NSLock()
    private var pending: [(key: UInt8, stamp: Double?)] = []
    private var reader: KeyReader?
    /// Kept for the object's life: a released trap stops delivering (see SignalTrap).
    private var signals: SignalTrap?

    /// Reads standard input once started, stamping each key with `stamp()`.
    init(stamp: @escaping @Sendable () -> Double?) {
        reader = KeyReader { [weak self] key in self?.append(key, stamp: stamp()) }
    }

    func start() {
        signals = SignalTrap([SIGINT, SIGTERM, SIGHUP, SIGQUIT]) { [weak self] _ in
            self?.append(UInt8(ascii: "q"), stamp: nil)
        }
        reader?.start()
    }

    /// Restores the terminal.
    func stop() { reader?.stop() }

    /// True once standard input has ended.
    var hasEnded: Bool { reader?.hasEnded ?? true }

    /// The keys since the last call, oldest first.
    func take() -> [(key: UInt8, stamp: Double?)] {
        lock.lock()
        defer { lock.unlock() }
        let taken = pending
        pending.removeAll()
        return taken
    }

    private func append(_ key: UInt8, stamp: Double?) {
        lock.lock()
        pending.append((key, stamp))
        lock.unlock()
    }
}
