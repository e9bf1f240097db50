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
    private let reader: DescriptorReader
    private var saved: termios?
    private var started = false

    /// Reads `fileDescriptor` (standard input by default) once started.
    public init(fileDescriptor: Int32 = STDIN_FILENO, onKey: @escaping @Sendable (UInt8) -> Void) {
        self.fileDescriptor = fileDescriptor
        reader = DescriptorReader(fileDescriptor: fileDescriptor, name: "tapkit keys", endOfFileEndsInput: true) { bytes in
            if bytes[0] == 0x1B {
                onKey(0x1B)  // an escape sequence arrives in one read: one key
            } else {
                for byte in bytes { onKey(byte) }
            }
        }
    }

    deinit { stop() }

    /// True once the input has ended (end of file, or the terminal closed).
    public var hasEnded: Bool { reader.hasEnded }

    /// Puts a terminal into key-at-a-time mode and starts reading.
    public func start() {
        guard !started else { return }
        started = true
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
        reader.start()
    }

    /// Stops reading and restores the terminal.
    public func stop() {
        reader.stop()
        if var mode = saved {
            tcsetattr(fileDescriptor, TCSANOW, &mode)
            saved = nil
        }
    }
}
