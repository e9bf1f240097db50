import Foundation
import Synchronization
import Testing
@testable import TapInput

@Suite struct InputEventDecoderTests {
    typealias Decoder = InputEventDecoder

    static func event(_ seconds: Int, _ microseconds: Int, _ type: UInt16, _ code: UInt16, _ value: Int32) -> [UInt8] {
        Decoder.encode(seconds: seconds, microseconds: microseconds, type: type, code: code, value: value)
    }
    static func sync(_ seconds: Int, _ microseconds: Int) -> [UInt8] { event(seconds, microseconds, 0, 0, 0) }

    @Test func aTouchScreenContactIsOneTapAtItsKernelTime() {
        // A multitouch screen's first contact: tracking id, BTN_TOUCH, BTN_TOOL_FINGER, position.
        let stream = Self.event(100, 250_000, 3, 0x39, 7) + Self.event(100, 250_000, 1, 0x14A, 1)
            + Self.event(100, 250_000, 1, 0x145, 1) + Self.event(100, 250_000, 3, 0x35, 400) + Self.sync(100, 250_000)
            // lifting the finger: no tap
            + Self.event(100, 400_000, 3, 0x39, -1) + Self.event(100, 400_000, 1, 0x14A, 0) + Self.sync(100, 400_000)
        var decoder = Decoder()
        let taps = decoder.decode(stream)
        #expect(taps.count == 1)
        #expect(taps.first?.tv_sec == 100 && taps.first?.tv_nsec == 250_000_000)
    }

    @Test func twoFingersLandingTogetherAreTwoTaps() {
        let stream = Self.event(5, 0, 3, 0x2F, 0) + Self.event(5, 0, 3, 0x39, 1) + Self.event(5, 0, 3, 0x2F, 1)
            + Self.event(5, 0, 3, 0x39, 2) + Self.event(5, 0, 1, 0x14A, 1) + Self.sync(5, 0)
        var decoder = Decoder()
        #expect(decoder.decode(stream).count == 2)
    }

    @Test func singleTouchAndKeysCountPressesNotReleasesOrRepeats() {
        let stream = Self.event(1, 10, 1, 0x14A, 1) + Self.event(1, 10, 1, 0x145, 1) + Self.sync(1, 10)  // touch down
            + Self.event(1, 20, 1, 0x14A, 0) + Self.sync(1, 20)                                           // touch up
            + Self.event(2, 30, 1, 57, 1) + Self.sync(2, 30)                                              // space down
            + Self.event(2, 40, 1, 57, 2) + Self.sync(2, 40)                                              // autorepeat
            + Self.event(2, 50, 1, 57, 0) + Self.sync(2, 50)                                              // space up
        var decoder = Decoder()
        let taps = decoder.decode(stream)
        #expect(taps.map { $0.tv_sec * 1_000_000 + $0.tv_nsec / 1_000 } == [1_000_010, 2_000_030])
    }

    /// After SYN_DROPPED the kernel lost events: that frame gives no tap, the next ones do.
    @Test func aFrameWithLostEventsGivesNoTap() {
        let stream = Self.event(1, 0, 1, 30, 1) + Self.event(1, 0, 0, 3, 0) + Self.event(1, 0, 1, 31, 1) + Self.sync(1, 0)
            + Self.event(2, 0, 1, 30, 1) + Self.sync(2, 0)
        var decoder = Decoder()
        #expect(decoder.decode(stream).map(\.tv_sec) == [2])
    }

    @Test func anySplitOfTheStreamGivesTheSameTaps() {
        var stream: [UInt8] = []
        for index in 0..<50 { stream += Self.event(index, index * 7, 1, 30, 1) + Self.sync(index, index * 7) }
        var whole = Decoder()
        let expected = whole.decode(stream).map { $0.tv_sec * 1_000_000 + $0.tv_nsec / 1_000 }
        #expect(expected.count == 50)
        var split = Decoder()
        var got: [Int] = []
        var offset = 0
        var size = 1
        while offset < stream.count {
            let end = min(stream.count, offset + size)
            got += split.decode(stream[offset..<end]).map { $0.tv_sec * 1_000_000 + $0.tv_nsec / 1_000 }
            offset = end
            size = size % 37 + 5
        }
        #expect(got == expected)
    }
}

@Suite struct KeyReaderTests {
    /// Keys written into a pipe arrive one by one, an escape sequence as one key, and the end
    /// of the input is noticed.
    @Test func readsKeysFromAPipe() throws {
        let pipe = Pipe()
        let keys = Mutex<[UInt8]>([])
        let reader = KeyReader(fileDescriptor: pipe.fileHandleForReading.fileDescriptor) { key in
            keys.withLock { $0.append(key) }
        }
        reader.start()
        pipe.fileHandleForWriting.write(Data("ab".utf8))
        Thread.sleep(forTimeInterval: 0.1)
        pipe.fileHandleForWriting.write(Data([0x1B, 0x5B, 0x41]))  // the up arrow
        Thread.sleep(forTimeInterval: 0.1)
        pipe.fileHandleForWriting.write(Data(" ".utf8))
        try pipe.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(5)
        while !reader.hasEnded && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        reader.stop()
        #expect(reader.hasEnded)
        #expect(keys.withLock { $0 } == [0x61, 0x62, 0x1B, 0x20])
    }
}
