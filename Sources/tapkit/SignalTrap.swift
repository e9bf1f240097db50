import Dispatch
import Foundation

/// Hands signals to `handler`, on a dispatch queue, for as long as the trap is alive; the
/// signals' default actions (ending the process) are switched off meanwhile.
///
/// Keep the trap for the whole time the handling must hold and `cancel()` it at the end of
/// that scope (a `defer`), which also keeps it alive until then: a released dispatch source
/// stops delivering, and the signal stays ignored. (Issue 11: `tapkit run` kept its sources in
/// a local array that an optimized build released right after `resume()`, so Ctrl-C did
/// nothing in a release build.)
///
/// The signals are not given their default action back on `cancel()`: libdispatch on Linux
/// installs its own handler for a signal with the first source and never again, so a trap
/// made after the default action was restored (and `SIG_IGN` set anew) would receive nothing
/// (measured with swift-corelibs-libdispatch, Swift 6.3). Every command ends soon after its
/// last trap is cancelled.
final class SignalTrap: @unchecked Sendable {  // `sources` is set once, in init
    private let sources: [any DispatchSourceSignal]

    init(_ signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        for number in signals { signal(number, SIG_IGN) }
        sources = signals.map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
    }

    /// Stops handing signals on (they stay ignored).
    func cancel() {
        for source in sources { source.cancel() }
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
