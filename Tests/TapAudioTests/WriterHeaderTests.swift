import Foundation
import Testing
@testable import TapAudio
import TapTestSupport

@Suite struct WriterHeaderTests {
    /// A WAV or AIFF file being written can be read at any moment with everything written so
    /// far: its header is rewritten after every block, so a writer killed part-way (SIGKILL,
    /// a crash) leaves a valid file and not a header that says 0 frames.
    @Test(arguments: [(AudioFileFormat.wav16, "a.wav"), (.wavFloat, "a.wav"), (.aiff16, "a.aiff")])
    func headerCountsEveryBlockBeforeClose(format: AudioFileFormat, name: String) throws {
        let dir = TemporaryDirectory()
        let writer = try AudioFileWriter(path: dir.file(name), format: format, sampleRate: 48_000)
        let block = [Float](repeating: 0.25, count: 4_800)
        for blocks in 1...3 {
            try block.withUnsafeBufferPointer { try writer.write(interleaved: $0) }
            // Read back while the writer still holds the file open.
            let reader = try AudioFileReader(path: dir.file(name))
            #expect(reader.info.frameCount == blocks * 4_800, "\(format) after \(blocks) block(s)")
            if name.hasSuffix(".wav") {
                // The header's own count, not libsndfile's guess from the file's size.
                let header = try #require(WAVHeader(path: dir.file(name)))
                #expect(header.dataFrames == blocks * 4_800 && header.framesInFile == blocks * 4_800, "\(header)")
            }
        }
        try writer.close()
        #expect(try AudioFileReader(path: dir.file(name)).info.frameCount == 3 * 4_800)
    }

    /// Samples beyond full scale are clipped to full scale in 16-bit files, not wrapped around
    /// to the opposite sign.
    @Test func integerFormatsClipInsteadOfWrapping() throws {
        let dir = TemporaryDirectory()
        try Signal(samples: [1.5, -1.5, 0.5], sampleRate: 48_000).write(to: dir.file("loud.wav"), format: .wav16)
        let samples = try Signal(contentsOf: dir.file("loud.wav")).samples
        // libsndfile writes full scale as 32767 and reads it back as 32767 / 32768.
        #expect(abs(samples[0] - 1) <= 2.0 / 32_768, "\(samples[0])")
        #expect(abs(samples[1] + 1) <= 2.0 / 32_768, "\(samples[1])")
        #expect(abs(samples[2] - 0.5) <= 2.0 / 32_768)
    }
}
