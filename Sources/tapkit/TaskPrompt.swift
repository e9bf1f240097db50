import Dispatch
import Foundation
import Synchronization
import TapCapture

/// Waits for the participant's Enter before each task and, with `--keyboard`, turns every key
/// pressed during a task into a tap. One reader owns the terminal for the whole session, so a
/// key is never split between the prompt and the tap input.
final class TaskPrompt: Sendable {
    private let keys: KeyReader?
    private let gate = EnterGate()

    init(capture: PlaybackCapture, keyboard: Bool) {
        guard keyboard else {
            keys = nil
            return
        }
        let gate = gate
        let keys = KeyReader { key in
            // Stamp first: a key during a task is a tap, and every microsecond counts.
            if capture.tapNow() != nil { return }
            if key == 0x0A || key == 0x0D { gate.enterPressed() }
        }
        self.keys = keys
        keys.start()
    }

    /// Shows `message` on stderr and returns when Enter is pressed (or the input has ended).
    func waitForEnter(_ message: String) {
        printError(message)
        guard let keys else {
            _ = readLine()
            return
        }
        gate.wait(giveUpWhen: { keys.hasEnded })
    }

    /// Gives the terminal back.
    func finish() { keys?.stop() }
}

/// Passes an Enter on to a waiting prompt; an Enter pressed while nobody waits is dropped, so
/// extra presses never skip the next prompt.
private final class EnterGate: Sendable {
    private let waiting = Mutex(false)
    private let pressed = DispatchSemaphore(value: 0)

    func enterPressed() {
        let wanted = waiting.withLock { isWaiting in
            defer { isWaiting = false }
            return isWaiting
        }
        if wanted { pressed.signal() }
    }

    func wait(giveUpWhen ended: () -> Bool) {
        waiting.withLock { $0 = true }
        while pressed.wait(timeout: .now() + 0.1) == .timedOut {
            if ended() { break }
        }
        waiting.withLock { $0 = false }
    }
}
