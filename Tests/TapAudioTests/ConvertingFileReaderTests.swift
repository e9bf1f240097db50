import Foundation
import TapTestSupport
import Testing
@testable import TapAudio

/// Everything `reader` delivers from where it stands, read in blocks of the sizes given (cycled).
func readToEnd(_ reader: ConvertingFileReader, blockFrames: [Int]) throws -> [Float] {
    var output: [Float] = []
    var buffer = [Float](repeating: 0, count: (blockFrames.max() ?? 1) * reader.channelCount)
    var block = 0
    while true {
        let wanted = blockFrames[block % blockFrames.count]
        block += 1
        let got = try buffer.withUnsafeMutableBufferPointer { try reader.read(into: $0.baseAddress!, maximumFrames: wanted) }
        if got == 0 && wanted > 0 { break }
        output.append(contentsOf: buffer[0..<(got * reader.channelCount)])
    }
    return output
}

/// Whether `ffmpeg` runs here (to make an MP3 file, which libsndfile reads but TapKit does not write).
let ffmpegAvailable: Bool = {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["ffmpeg", "-version"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
}()

@Suite struct ConvertingFileReaderTests {
    /// Two channels of different seeded noise, 1 s at `rate`, as 32-bit float WAV.
    func writeStereoNoise(to path: String, rate: Int) throws {
        let frames = rate
        let left = noise(count: frames, seed: UInt64(rate)), right = noise(count: frames, seed: UInt64(rate) + 1)
        var interleaved = [Float](repeating: 0, count: 2 * frames)
        for frame in 0..<frames {
            interleaved[2 * frame] = 0.5 * left[frame]
            interleaved[2 * frame + 1] = 0.5 * right[frame]
        }
        let writer = try AudioFileWriter(path: path, format: .wavFloat, sampleRate: Double(rate), channelCount: 2)
        try interleaved.withUnsafeBufferPointer { try writer.write(interleaved: $0) }
        try writer.close()
    }

    /// Reading to the end, part-way, and again after each ``ConvertingFileReader/rewind()``
    /// gives what a fresh reader gives, sample for sample.
    func checkRewind(path: String, channels: [ChannelSelection], outputRate: Int) throws {
        let fresh = try readToEnd(ConvertingFileReader(path: path, channels: channels, outputRate: outputRate),
                                  blockFrames: [4_096])
        let reader = try ConvertingFileReader(path: path, channels: channels, outputRate: outputRate)
        #expect(fresh.count == reader.frameCount * channels.count)
        // Odd block sizes, so the passes split the stream differently from the fresh reader.
        #expect(try readToEnd(reader, blockFrames: [1_000, 7, 5_003]) == fresh)
        try reader.rewind()
        #expect(try readToEnd(reader, blockFrames: [333, 10_000]) == fresh)
        // A rewind part-way through, with the resampler's history and pending output full.
        try reader.rewind()
        var buffer = [Float](repeating: 0, count: 9_999 * channels.count)
        _ = try buffer.withUnsafeMutableBufferPointer { try reader.read(into: $0.baseAddress!, maximumFrames: 9_999) }
        try reader.rewind()
        #expect(try readToEnd(reader, blockFrames: [4_096]) == fresh)
    }

    @Test(arguments: [(44_100, 48_000), (48_000, 44_100), (44_100, 44_100), (22_050, 37_800)])
    func aRewoundReaderGivesAFreshReadersFramesBitForBit(inputRate: Int, outputRate: Int) throws {
        let directory = TemporaryDirectory()
        let path = directory.file("stimulus.wav")
        try writeStereoNoise(to: path, rate: inputRate)
        try checkRewind(path: path, channels: [.mix], outputRate: outputRate)
        // Two channels, a file handle each.
        try checkRewind(path: path, channels: [.channel(1), .channel(0)], outputRate: outputRate)
    }

    @Test(.enabled(if: ffmpegAvailable, "ffmpeg makes the MP3"))
    func anMP3IsRewoundBitForBit() throws {
        let directory = TemporaryDirectory()
        let wav = directory.file("stimulus.wav"), mp3 = directory.file("stimulus.mp3")
        try writeStereoNoise(to: wav, rate: 44_100)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-loglevel", "error", "-i", wav, "-c:a", "libmp3lame", "-b:a", "128k", mp3]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        try checkRewind(path: mp3, channels: [.mix], outputRate: 48_000)
    }
}
