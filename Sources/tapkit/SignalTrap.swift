import Dispatch
import Foundation
import Synchronization

/// Hands signals to `handler`, on a dispatch queue, for as long as the trap is alive; the
/// signals' default actions (ending the process) are switched off meanwhile, and what they were
/// before is restored by `cancel()`.
///
/// Keep the trap for the whole time the handling must hold and `cancel()` it at the end of
/// that scope (a `defer`), which also keeps it alive until then: a released dispatch source
/// stops delivering. (Issue 11: `tapkit run` kept its sources in a local array that an
/// optimized build released right after `resume()`, so Ctrl-C did nothing in a release build.)
/// Traps may nest when each is cancelled before the one it was made inside.
final class SignalTrap: @unchecked Sendable {  // `sources` is set once, in init; the rest is behind a Mutex
    private let sources: [any DispatchSourceSignal]
    /// Each signal's action before the trap, and whether it has been put back.
    private let previous: Mutex<(actions: [(Int32, sigaction)], restored: Bool)>

    init(_ signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        var actions: [(Int32, sigaction)] = []
        for number in signals {
            var ignore = sigaction()
            ignore.__sigaction_handler.sa_handler = SIG_IGN
            sigemptyset(&ignore.sa_mask)
            var old = sigaction()
            sigaction(number, &ignore, &old)
            actions.append((number, old))
        }
        previous = Mutex((actions, false))
        sources = signals.map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
    }

    /// Stops handing signals on and gives them back the actions they had before the trap
    /// (ending the process, for a command that set none). Only the first call does anything.
    func cancel() {
        previous.withLock { state in
            guard !state.restored else { return }
            state.restored = true
            for source in sources { source.cancel() }
            for (number, action) in state.actions.reversed() {
                var action = action
                sigaction(number, &action, nil)
            }
        }
    }

    deinit { cancel() }
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
