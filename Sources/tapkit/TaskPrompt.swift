import Dispatch
import Foundation
import Synchronization
import TapCapture
import TapInput

/// Waits for the participant's Enter before each task and, with `--keyboard`, turns every key
/// pressed during a task into a tap. One reader owns the terminal for the whole session, so a
/// key is never split between the prompt and the tap input, and a prompt can be cancelled
/// (Ctrl-C between tasks).
final class TaskPrompt: Sendable {
    private let keys: KeyReader?
    private let gate = EnterGate()

    init(capture: PlaybackCapture, keyboard: Bool, prompting: Bool) {
        guard keyboard || prompting else {
            keys = nil
            return
        }
        let gate = gate
        let keys = KeyReader { key in
            // Stamp first: a key during a task is a tap, and every microsecond counts.
            if keyboard && capture.tapNow() != nil { return }
            if key == 0x0A || key == 0x0D { gate.enterPressed() }
        }
        self.keys = keys
        keys.start()
    }

    /// Shows `message` on stderr; returns true when Enter is pressed (or the input has ended),
    /// false when the prompt was cancelled.
    func waitForEnter(_ message: String) -> Bool {
        printError(message)
        guard let keys else { return true }
        return gate.wait(giveUpWhen: { keys.hasEnded })
    }

    /// Ends a waiting prompt, and every later one, with false.
    func cancel() { gate.cancel() }

    /// Gives the terminal back.
    func finish() { keys?.stop() }
}

/// Passes an Enter on to a waiting prompt; an Enter pressed while nobody waits is dropped, so
/// extra presses never skip the next prompt.
private final class EnterGate: Sendable {
    private struct State {
        var waiting = false
        var cancelled = false
    }
    private let state = Mutex(State())
    private let pressed = DispatchSemaphore(value: 0)

    func enterPressed() {
        let wanted = state.withLock { state in
            defer { state.waiting = false }
            return state.waiting
        }
        if wanted { pressed.signal() }
    }

    func cancel() {
        state.withLock { $0.cancelled = true }
        pressed.signal()
    }

    /// True on Enter or when `ended` says the input is gone; false when cancelled.
    func wait(giveUpWhen ended: () -> Bool) -> Bool {
        guard !state.withLock({ state in
            state.waiting = !state.cancelled
            return state.cancelled
        }) else { return false }
        while pressed.wait(timeout: .now() + 0.1) == .timedOut {
            if ended() || state.withLock({ $0.cancelled }) { break }
        }
        return state.withLock { state in
            state.waiting = false
            return !state.cancelled
        }
    }
}
