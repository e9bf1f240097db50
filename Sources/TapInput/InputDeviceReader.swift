import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Reads taps from a Linux input device (`/dev/input/eventN`: a touch screen, a keyboard, a
/// button box) and hands each tap's kernel event time to `onTap`.
///
/// The kernel stamps every event when the driver reports it, before any application sees it,
/// so these times carry no scheduling delay. The device is switched to `CLOCK_MONOTONIC`
/// stamps (`EVIOCSCLOCKID`); `PlaybackCapture/tap(atMonotonicTime:)` places them on the
/// audio clock. What counts as a tap is described at ``InputEventDecoder``.
public final class InputDeviceReader: @unchecked Sendable {  // immutable after init
    /// The device file.
    public let path: String
    private let fileDescriptor: Int32
    private let reader: DescriptorReader

    /// Opens the device (read access to `/dev/input/eventN` usually needs the `input` group).
    /// - Throws: ``InputError/cannotOpenInputDevice(path:reason:)``.
    public init(path: String, onTap: @escaping @Sendable (timespec) -> Void) throws(InputError) {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw .cannotOpenInputDevice(path: path, reason: String(cString: strerror(errno)))
        }
        // Monotonic event times; a file that is not an input device (a recorded event stream)
        // keeps the times it holds.
        var clock = Int32(CLOCK_MONOTONIC)
        _ = ioctl(descriptor, evioSetClockID, &clock)
        self.path = path
        fileDescriptor = descriptor
        let decoder = Mutex(InputEventDecoder())
        reader = DescriptorReader(fileDescriptor: descriptor, name: "tapkit input device", endOfFileEndsInput: false) { bytes in
            for time in decoder.withLock({ $0.decode(bytes) }) { onTap(time) }
        }
    }

    deinit {
        reader.stop()
        close(fileDescriptor)
    }

    /// True once the device has gone (unplugged) or failed; taps stop then.
    public var hasEnded: Bool { reader.hasEnded }

    /// Starts reading on a thread of its own.
    public func start() { reader.start() }

    /// Stops reading.
    public func stop() { reader.stop() }
}

/// `EVIOCSCLOCKID`, `_IOW('E', 0xa0, int)`: chooses the clock of the event stamps.
private let evioSetClockID = UInt(0x4004_45A0)

/// Turns a stream of Linux `struct input_event` records (64-bit layout: `timeval`, type,
/// code, value; 24 bytes) into tap times.
///
/// Events arrive in frames closed by `SYN_REPORT`. In each frame, a tap is each new touch
/// contact (`ABS_MT_TRACKING_ID` ≥ 0) — or one tap for `BTN_TOUCH` going down on a
/// single-touch device — plus each other key or button going down (value 1; autorepeat,
/// value 2, is not a tap). The tool codes a touch screen reports beside `BTN_TOUCH`
/// (`BTN_TOOL_FINGER` and the like, 0x140–0x14f) are not taps of their own.
public struct InputEventDecoder: Sendable {
    /// Bytes of one `struct input_event` on a 64-bit system.
    public static let eventSize = 24
    private var partial: [UInt8] = []
    private var newContacts = 0
    private var touchDown = false
    private var keyPresses = 0
    /// After `SYN_DROPPED` the kernel lost events: everything up to the next `SYN_REPORT` is
    /// discarded rather than half-counted.
    private var dropping = false

    /// An empty decoder.
    public init() {}

    /// Decodes the next bytes of the stream (any split); returns the times of the taps whose
    /// frames it completed.
    public mutating func decode(_ bytes: some Collection<UInt8>) -> [timespec] {
        partial.append(contentsOf: bytes)
        var taps: [timespec] = []
        var offset = 0
        while partial.count - offset >= Self.eventSize {
            let event = partial[offset..<offset + Self.eventSize]
            offset += Self.eventSize
            let seconds = Int(littleEndianInteger(event, at: 0, as: Int64.self))
            let microseconds = Int(littleEndianInteger(event, at: 8, as: Int64.self))
            let type = littleEndianInteger(event, at: 16, as: UInt16.self)
            let code = littleEndianInteger(event, at: 18, as: UInt16.self)
            let value = littleEndianInteger(event, at: 20, as: Int32.self)
            switch (type, code) {
            case (0x00, 0x03):  // EV_SYN, SYN_DROPPED
                dropping = true
            case (0x00, 0x00):  // EV_SYN, SYN_REPORT: the frame is complete
                let count = dropping ? 0 : max(newContacts, touchDown ? 1 : 0) + keyPresses
                dropping = false
                let time = timespec(tv_sec: seconds, tv_nsec: microseconds * 1_000)
                taps.append(contentsOf: repeatElement(time, count: count))
                newContacts = 0
                touchDown = false
                keyPresses = 0
            case (0x03, 0x39) where value >= 0:  // EV_ABS, ABS_MT_TRACKING_ID: a new contact
                newContacts += 1
            case (0x01, 0x14A) where value == 1:  // EV_KEY, BTN_TOUCH down
                touchDown = true
            case (0x01, 0x140...0x14F):  // the tool codes that accompany a touch
                break
            case (0x01, _) where value == 1:
                keyPresses += 1
            default:
                break
            }
        }
        partial.removeFirst(offset)
        return taps
    }

    /// Encodes one event as the kernel writes it (for tests).
    static func encode(seconds: Int, microseconds: Int, type: UInt16, code: UInt16, value: Int32) -> [UInt8] {
        withUnsafeBytes(of: Int64(seconds).littleEndian) { Array($0) }
            + withUnsafeBytes(of: Int64(microseconds).littleEndian) { Array($0) }
            + withUnsafeBytes(of: type.littleEndian) { Array($0) }
            + withUnsafeBytes(of: code.littleEndian) { Array($0) }
            + withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }
}

private func littleEndianInteger<T: FixedWidthInteger>(_ bytes: ArraySlice<UInt8>, at offset: Int, as: T.Type) -> T {
    var value: T = 0
    for index in 0..<MemoryLayout<T>.size {
        value |= T(truncatingIfNeeded: bytes[bytes.startIndex + offset + index]) << (8 * index)
    }
    return value
}
