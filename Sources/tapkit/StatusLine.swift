import Dispatch
import Foundation
import Synchronization
import TapCapture

/// The live line on a terminal during a task: `task 2 of 6  12.5 / 31.0 s  taps 17`. Quiet
/// when stderr is not a terminal.
final class StatusLine: @unchecked Sendable {  // `timer` is set once, in init
    private let capture: PlaybackCapture
    private let label = Mutex<String?>(nil)
    private let timer: (any DispatchSourceTimer)?

    init(capture: PlaybackCapture) {
        self.capture = capture
        guard isatty(STDERR_FILENO) == 1 else {
            timer = nil
            return
        }
        let timer = DispatchSource.makeTimerSource(queue: .global())
        self.timer = timer
        timer.schedule(deadline: .now(), repeating: 0.2)
        timer.setEventHandler { [weak self] in self?.draw() }
        timer.resume()
    }

    deinit { timer?.cancel() }

    func begin(_ task: String) { label.withLock { $0 = task } }

    /// Clears the line before the task's summary is printed.
    func end() {
        // Under the lock, so a draw in flight cannot put the line back after it is cleared.
        label.withLock { task in
            task = nil
            if timer != nil { try? FileHandle.standardError.write(contentsOf: Data("\r\u{1B}[K".utf8)) }
        }
    }

    /// Prints `message` on a line of its own above the status line.
    func note(_ message: String) {
        label.withLock { _ in
            printError((timer != nil ? "\r\u{1B}[K" : "") + message)
        }
    }

    private func draw() {
        label.withLock { task in
            guard let task, let progress = capture.progress else { return }
            let line = String(format: "%@  %.1f / %.1f s  taps %d", task, progress.elapsed, progress.duration, progress.taps)
            try? FileHandle.standardError.write(contentsOf: Data("\r\(line)\u{1B}[K".utf8))
        }
    }
}
