import Foundation
import Testing
@testable import tapkit

/// `SignalTrap` switches a signal's default action off while a trap holds it and back on when
/// the last trap of it is cancelled, so a command that goes on after its trap can still be
/// stopped. SIGUSR2, which nothing else in the tests uses, stands in for SIGINT.
@Suite(.serialized) struct SignalTrapTests {
    /// The action the signal has now.
    func action(_ number: Int32) -> sighandler_t? {
        var current = sigaction()
        sigaction(number, nil, &current)
        return current.__sigaction_handler.sa_handler
    }

    func isDefault(_ number: Int32) -> Bool { action(number).map { unsafeBitCast($0, to: Int.self) == 0 } ?? true }
    func isIgnored(_ number: Int32) -> Bool { action(number).map { unsafeBitCast($0, to: Int.self) == 1 } ?? false }

    @Test func theLastTrapCancelledGivesTheSignalItsActionBack() throws {
        let number = SIGUSR2
        try #require(isDefault(number))
        let received = DispatchSemaphore(value: 0)
        let first = SignalTrap([number]) { _ in }
        let second = SignalTrap([number]) { _ in received.signal() }
        #expect(isIgnored(number))
        first.cancel()
        #expect(isIgnored(number), "another trap still holds the signal")
        // The trap left still receives it (its source is registered a moment after resume()).
        var delivered = false
        for _ in 0..<20 where !delivered {
            kill(getpid(), number)
            delivered = received.wait(timeout: .now() + 0.1) == .success
        }
        #expect(delivered)
        second.cancel()
        #expect(isDefault(number), "the default action is back")
        second.cancel()
        first.cancel()
        #expect(isDefault(number), "cancelling again changes nothing")
    }
}
