import Atomics
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads key presses from the terminal (or any file descriptor, such as a pipe in a scripted
/// run) on a thread of its own and hands each one to `onKey` the moment `read` returns it, so
/// a tap can be stamped on the audio clock with as little delay as the terminal allows.
///
/// On a terminal, ``start()`` switches off line buffering and echo (non-canonical mode) but
/// keeps signals, so Ctrl-C still interrupts; ``stop()`` restores the terminal. A multi-byte
/// key (an arrow key's escape sequence) counts as one key, reported as its first byte.
public final class KeyReader: @unchecked Sendable {  // `saved` is touched only by start/stop on one thread
    private let fileDescriptor: Int32
    private let onKey: @Sendable (UInt8) -> Void
    private let stopping = ManagedAtomic(false)
    private let ended = ManagedAtomic(false)
    private var saved: termios?
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)

    /// Reads `fileDescriptor` (standard input by default) once started.
    public init(fileDescriptor: Int32 = STDIN_FILENO, onKey: @escaping @Sendable (UInt8) -> Void) {
        self.fileDescriptor = fileDescriptor
        self.onKey = onKey
    }

    deinit { stop() }

    /// True once the input has ended (end of file, or the terminal closed).
    public var hasEnded: Bool { ended.load(ordering: .acquiring) }

    /// Puts a terminal into key-at-a-time mode and starts reading.
    public func start() {
        guard thread == nil else { return }
        if isatty(fileDescriptor) == 1 {
            var mode = termios()
            if tcgetattr(fileDescriptor, &mode) == 0 {
                saved = mode
                mode.c_lflag &= ~tcflag_t(ICANON | ECHO)
                withUnsafeMutableBytes(of: &mode.c_cc) { cc in
                    cc[Int(VMIN)] = 1
                    cc[Int(VTIME)] = 0
                }
                tcsetattr(fileDescriptor, TCSANOW, &mode)
            }
        }
        let thread = Thread { [self] in
            raiseToRealTimePriority()
            readLoop()
        }
        thread.name = "tapkit keys"
        self.thread = thread
        thread.start()
    }

    /// Stops reading and restores the terminal.
    public func stop() {
        guard thread != nil else { return }
        stopping.store(true, ordering: .releasing)
        finished.wait()
        thread = nil
        if var mode = saved {
            tcsetattr(fileDescriptor, TCSANOW, &mode)
            saved = nil
        }
    }

    private func readLoop() {
        defer { finished.signal() }
        var bytes = [UInt8](repeating: 0, count: 64)
        while !stopping.load(ordering: .acquiring) {
            // Wake every 50 ms to notice stop(); a key wakes the poll at once.
            var request = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, 50)
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { if ready < 0 { break } else { continue } }
            let count = bytes.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            if bytes[0] == 0x1B {
                onKey(0x1B)  // an escape sequence arrives in one read: one key
            } else {
                for byte in bytes.prefix(count) { onKey(byte) }
            }
        }
        ended.store(true, ordering: .releasing)
    }
}
