import Dispatch
import Foundation

/// Hands signals to `handler`, on a dispatch queue, for as long as the trap is alive; the
/// signals' default actions (ending the process) are switched off meanwhile, and switched back
/// on (to what they were before the first trap) once the last trap of a signal is cancelled.
/// Traps alive at the same time for one signal all receive it.
///
/// Keep the trap for the whole time the handling must hold and `cancel()` it at the end of
/// that scope (a `defer`), which also keeps it alive until then: a released dispatch source
/// stops delivering. (Issue 11: `tapkit run` kept its sources in a local array that an
/// optimized build released right after `resume()`, so Ctrl-C did nothing in a release build.)
final class SignalTrap: @unchecked Sendable {  // `sources` is set once, in init; `cancelled` under `Dispositions.lock`
    private let signals: [Int32]
    private let sources: [any DispatchSourceSignal]
    private var cancelled = false

    init(_ signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        self.signals = signals
        Dispositions.take(signals)
        sources = signals.map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
    }

    /// Stops handing signals on; a signal no other trap holds gets its earlier action back.
    /// Cancelling again does nothing.
    func cancel() {
        let first = Dispositions.lock.withLock {
            defer { cancelled = true }
            return !cancelled
        }
        guard first else { return }
        for source in sources { source.cancel() }
        Dispositions.release(signals)
    }

    deinit { cancel() }

    /// How many traps hold each signal, and the action it had before the first of them.
    private enum Dispositions {
        static let lock = NSLock()
        nonisolated(unsafe) static var holders: [Int32: (count: Int, earlier: sighandler_t?)] = [:]

        /// Ignores the signals (their dispatch sources still see them), remembering what each
        /// did before.
        static func take(_ signals: [Int32]) {
            lock.withLock {
                for number in signals {
                    if let held = holders[number] {
                        holders[number] = (held.count + 1, held.earlier)
                    } else {
                        holders[number] = (1, signal(number, SIG_IGN))
                    }
                }
            }
        }

        /// Gives each signal no trap holds any more its earlier action back.
        static func release(_ signals: [Int32]) {
            lock.withLock {
                for number in signals {
                    guard let held = holders[number] else { continue }
                    if held.count > 1 {
                        holders[number] = (held.count - 1, held.earlier)
                    } else {
                        holders[number] = nil
                        signal(number, held.earlier)
                    }
                }
            }
        }
    }
}

/// `SIGINT`, `SIGTERM`, `SIGHUP`… for messages.
func signalName(_ number: Int32) -> String {
    switch number {
    case SIGINT: return "SIGINT"
    case SIGTERM: return "SIGTERM"
    case SIGHUP: return "SIGHUP"
    case SIGQUIT: return "SIGQUIT"
    default: return "signal \(number)"
    }
}
