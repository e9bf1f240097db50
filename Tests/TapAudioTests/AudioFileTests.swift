import Foundation
import Testing
@testable import TapAudio

/// A fresh temporary directory per test, removed afterwards.
final class TemporaryDirectory {
    let path: String
    init() {
        path = NSTemporaryDirectory() + "tapaudio-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    func file(_ name: String) -> String { path + "/" + name }
}

/// A deterministic test tone with a click, so sample positions are checkable.
func testSignal(frames: Int = 10_000, rate: Double = 44_100) -> Signal {
    var samples = (0..<frames).map { Float(0.5 * sin(2 * Double.pi * 440 * Double($0) / rate)) }
    samples[frames / 2] = 0.99
    return Signal(samples: samples, sampleRate: rate)
}

@Suite struct AudioRoundTripTests {
    // Integer formats: rounding plus libsndfile's write scale (2^(b-1) − 1) against its read
    // scale (2^(b-1)) keeps the error within 2 LSB.
    static let losslessCases: [(AudioFileFormat, String, Float)] = [
        (.wav16, "a.wav", 2.0 / 32_768), (.wav24, "a.wav", 2.0 / 8_388_608), (.wav32, "a.wav", 1e-7),
        (.wavFloat, "a.wav", 0), (.flac16, "a.flac", 2.0 / 32_768), (.flac24, "a.flac", 2.0 / 8_388_608),
        (.aiff16, "a.aiff", 2.0 / 32_768),
    ]

    @Test(arguments: losslessCases)
    func losslessFormatsRoundTrip(format: AudioFileFormat, name: String, tolerance: Float) throws {
        let dir = TemporaryDirectory()
        let original = testSignal()
        try original.write(to: dir.file(name), format: format, channelCount: 2)
        let reader = try AudioFileReader(path: dir.file(name))
        #expect(reader.info.channelCount == 2)
        #expect(reader.info.frameCount == original.frameCount)
        #expect(reader.info.sampleRate == 44_100)
        let decoded = try reader.readAll()
        let worst = zip(original.samples, decoded.samples).map { abs($0 - $1) }.max()!
        #expect(worst <= tolerance)
    }

    @Test func vorbisKeepsLengthAndRoughShape() throws {
        let dir = TemporaryDirectory()
        let original = testSignal(frames: 44_100)
        try original.write(to: dir.file("a.ogg"))
        let decoded = try Signal(contentsOf: dir.file("a.ogg"))
        #expect(decoded.frameCount == original.frameCount)
        let rms = { (x: [Float]) in sqrt(x.map { $0 * $0 }.reduce(0, +) / Float(x.count)) }
        #expect(abs(rms(decoded.samples) - rms(original.samples)) < 0.02)
    }

    @Test func channelSelectionAndMixdown() throws {
        let dir = TemporaryDirectory()
        let frames = 1_000
        var interleaved = [Float](repeating: 0, count: frames * 3)
        for frame in 0..<frames {
            interleaved[frame * 3] = 0.1
            interleaved[frame * 3 + 1] = -0.3
            interleaved[frame * 3 + 2] = Float(frame) / Float(frames)
        }
        let writer = try AudioFileWriter(path: dir.file("three.wav"), format: .wavFloat, sampleRate: 48_000, channelCount: 3)
        try interleaved.withUnsafeBufferPointer { try writer.write(interleaved: $0) }
        try writer.close()

        let second = try Signal(contentsOf: dir.file("three.wav"), channel: .channel(1))
        #expect(second.samples.allSatisfy { $0 == -0.3 })
        let third = try Signal(contentsOf: dir.file("three.wav"), channel: .channel(2))
        #expect(third.samples[500] == 0.5)
        let mix = try Signal(contentsOf: dir.file("three.wav"))
        #expect(abs(mix.samples[500] - (0.1 - 0.3 + 0.5) / 3) < 1e-6)
        #expect(throws: AudioError.noSuchChannel(path: dir.file("three.wav"), channel: 3, channelCount: 3)) {
            _ = try AudioFileReader(path: dir.file("three.wav"), channel: .channel(3))
        }
    }

    @Test func blocksConcatenateToTheWholeFile() throws {
        let dir = TemporaryDirectory()
        let original = testSignal(frames: 100_003)
        try original.write(to: dir.file("long.wav"), format: .wavFloat)
        var streamed: [Float] = []
        var blockSizes: [Int] = []
        try AudioFileReader(path: dir.file("long.wav")).forEachBlock(blockSize: 4_096) { block in
            streamed.append(contentsOf: block)
            blockSizes.append(block.count)
        }
        #expect(streamed == original.samples)
        #expect(blockSizes.dropLast().allSatisfy { $0 == 4_096 })
        #expect(blockSizes.last == 100_003 % 4_096)
    }
}

@Suite struct AudioErrorTests {
    @Test func missingFileNamesTheFile() {
        #expect(throws: AudioError.cannotOpen(path: "/nonexistent/x.wav", reason: "no such file")) {
            _ = try AudioFileReader(path: "/nonexistent/x.wav")
        }
    }

    @Test func zeroByteFile() throws {
        let dir = TemporaryDirectory()
        _ = FileManager.default.createFile(atPath: dir.file("zero.wav"), contents: Data())
        #expect(throws: AudioError.cannotOpen(path: dir.file("zero.wav"), reason: "the file is empty (0 bytes)")) {
            _ = try AudioFileReader(path: dir.file("zero.wav"))
        }
    }

    @Test func directoryIsNotAudio() throws {
        let dir = TemporaryDirectory()
        #expect(throws: AudioError.cannotOpen(path: dir.path, reason: "is a directory, expected a file")) {
            _ = try AudioFileReader(path: dir.path)
        }
    }

    @Test func zeroLengthAudio() throws {
        let dir = TemporaryDirectory()
        try Signal(samples: [], sampleRate: 44_100).write(to: dir.file("empty.wav"))
        #expect(throws: AudioError.empty(path: dir.file("empty.wav"))) {
            _ = try AudioFileReader(path: dir.file("empty.wav"))
        }
    }

    @Test func textFileIsNotAudio() throws {
        let dir = TemporaryDirectory()
        try "0.5\n1.0\n".write(toFile: dir.file("fake.wav"), atomically: true, encoding: .utf8)
        do {
            _ = try AudioFileReader(path: dir.file("fake.wav"))
            Issue.record("a text file opened as audio")
        } catch {
            #expect(error.path == dir.file("fake.wav"))
            #expect(error.description.hasPrefix(dir.file("fake.wav") + ": cannot open audio file"))
        }
    }

    @Test func truncatedFlacIsReported() throws {
        let dir = TemporaryDirectory()
        try testSignal(frames: 200_000).write(to: dir.file("t.flac"))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: dir.file("t.flac")))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: dir.file("t.flac")))
        do {
            _ = try Signal(contentsOf: dir.file("t.flac"))
            Issue.record("a truncated file decoded without error")
        } catch {
            #expect(error.path == dir.file("t.flac"))
        }
    }
}

@Suite struct AnnouncedFrameCountTests {
    /// Found by fuzzing (Fuzz/regressions/audio/flac-announces-2e36-frames): a FLAC whose
    /// STREAMINFO announces 2³⁶ − 1 frames made `Signal(contentsOf:)` allocate 256 GB up front
    /// and crash (`tapkit metronome render --beat-sound`), instead of reporting truncation.
    @Test func aHugeAnnouncedFrameCountIsTruncationNotAnAllocation() throws {
        let dir = TemporaryDirectory()
        try testSignal(frames: 240, rate: 8_000).write(to: dir.file("t.flac"))
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.file("t.flac"))))
        #expect(bytes.starts(with: Array("fLaC".utf8)) && bytes[4] & 0x7F == 0)  // STREAMINFO first
        // STREAMINFO bytes 10–17: rate (20 bits), channels (3), bits (5), total frames (36).
        bytes[21] |= 0x0F
        for index in 22...25 { bytes[index] = 0xFF }
        try Data(bytes).write(to: URL(fileURLWithPath: dir.file("t.flac")))
        #expect(try AudioFileReader(path: dir.file("t.flac")).info.frameCount == (1 << 36) - 1)
        #expect(throws: AudioError.truncated(path: dir.file("t.flac"), expectedFrames: (1 << 36) - 1, readFrames: 240)) {
            _ = try Signal(contentsOf: dir.file("t.flac"))
        }
    }
}

@Suite struct TruncatedWAVTests {
    @Test func aWAVCutShortIsTruncatedNotSilentlyShorter() throws {
        let dir = TemporaryDirectory()
        try testSignal(frames: 30_000).write(to: dir.file("t.wav"))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: dir.file("t.wav")))
        try bytes.prefix(44 + 20_000).write(to: URL(fileURLWithPath: dir.file("t.wav")))
        #expect(throws: AudioError.truncated(path: dir.file("t.wav"), expectedFrames: 30_000, readFrames: 10_000)) {
            _ = try AudioFileReader(path: dir.file("t.wav"))
        }
    }
}

/// WAV and AIFF count their sizes in 32 bits: past 4 GiB a WAV of known length is RF64, and
/// any other write that would pass the limit fails instead of wrapping the header's sizes.
@Suite struct LargeFileTests {
    @Test func aWAVLongerThan4GiBIsWrittenAsRF64() throws {
        let dir = TemporaryDirectory()
        for (expected, container) in [(3_000_000_000, "RF64 PCM 16"), (1_000, "WAV PCM 16")] {
            let path = dir.file("x\(expected).wav")
            let writer = try AudioFileWriter(path: path, format: .wav16, sampleRate: 48_000, expectedFrames: expected)
            try writer.write(mono: [Float](repeating: 0.25, count: 4_800))
            try writer.close()
            let info = try AudioFileReader(path: path).info
            #expect(info.formatName == container && info.frameCount == 4_800)
        }
    }

    @Test(arguments: [AudioFileFormat.wav16, .wavFloat, .aiff16])
    func aWriteBeyondTheSizeFieldFailsAndTheFileStaysValid(_ format: AudioFileFormat) throws {
        let dir = TemporaryDirectory()
        let path = dir.file("x." + (format == .aiff16 ? "aiff" : "wav"))
        // 10 000 bytes stand in for 4 GiB.
        let writer = try AudioFileWriter(path: path, format: format, sampleRate: 48_000, channelCount: 1,
                                         expectedFrames: nil, sizeLimit: 10_000)
        try writer.write(mono: [Float](repeating: 0.25, count: 1_000))
        #expect(throws: AudioError.self) { try writer.write(mono: [Float](repeating: 0.25, count: 10_000)) }
        try writer.close()
        #expect(try AudioFileReader(path: path).info.frameCount == 1_000)
    }
}
