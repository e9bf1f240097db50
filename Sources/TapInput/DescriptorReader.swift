import Atomics
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads a file descriptor on a thread of its own and hands each chunk to `onBytes` the moment
/// `read` returns it: the loop under ``KeyReader`` and ``InputDeviceReader``.
///
/// The thread asks for real-time priority (``raiseToRealTimePriority(_:)``) so that it wakes
/// at once when input arrives, and polls with a 50 ms timeout to notice ``stop()``.
final class DescriptorReader: @unchecked Sendable {  // `thread` is touched only by start/stop on one thread
    private let fileDescriptor: Int32
    private let endOfFileEndsInput: Bool
    private let onBytes: @Sendable (UnsafeBufferPointer<UInt8>) -> Void
    private let stopping = ManagedAtomic(false)
    private let ended = ManagedAtomic(false)
    private let finished = DispatchSemaphore(value: 0)
    private var thread: Thread?
    private var started = false

    /// `endOfFileEndsInput`: true for a terminal or pipe; false for a FIFO of recorded events,
    /// whose writer may come back.
    init(fileDescriptor: Int32, name: String, endOfFileEndsInput: Bool,
         onBytes: @escaping @Sendable (UnsafeBufferPointer<UInt8>) -> Void) {
        self.fileDescriptor = fileDescriptor
        self.endOfFileEndsInput = endOfFileEndsInput
        self.onBytes = onBytes
        let thread = Thread { [unowned self] in
            raiseToRealTimePriority()
            readLoop()
        }
        thread.name = name
        self.thread = thread
    }

    /// True once the input has ended (end of file, the device gone, a read error).
    var hasEnded: Bool { ended.load(ordering: .acquiring) }

    func start() {
        guard !started else { return }
        started = true
        thread?.start()
    }

    /// Stops the thread and waits for it (at once when it never started).
    func stop() {
        guard started, thread != nil else { return }
        thread = nil
        stopping.store(true, ordering: .releasing)
        finished.wait()
    }

    private func readLoop() {
        defer {
            ended.store(true, ordering: .releasing)
            finished.signal()
        }
        var bytes = [UInt8](repeating: 0, count: 1_536)
        while !stopping.load(ordering: .acquiring) {
            var request = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, 50)
            if ready < 0 && errno != EINTR { return }
            if ready <= 0 { continue }
            let count = bytes.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
            if count < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            if count == 0 && !endOfFileEndsInput {
                usleep(10_000)
                continue
            }
            guard count > 0 else { return }
            bytes.withUnsafeBufferPointer { onBytes(UnsafeBufferPointer(rebasing: $0[0..<count])) }
        }
    }
}
