import Foundation
import Testing
import TapAudio
import TapTestSupport

@Suite struct ResampleCommandTests {
    /// A stereo 44.1 kHz file with a click on the left at 0.1 s and on the right at 0.5 s:
    /// converted to 48 kHz, each click peaks at exactly its time's frame on its own channel,
    /// and the length is round(N × 48000 / 44100).
    @Test func convertsEveryChannelOnTheClock() throws {
        let folder = TemporaryFolder()
        let frames = 44_100 + 7
        var interleaved = [Float](repeating: 0, count: frames * 2)
        interleaved[4_410 * 2] = 0.5          // left, 0.1 s
        interleaved[22_050 * 2 + 1] = 0.5     // right, 0.5 s
        let writer = try AudioFileWriter(path: folder.file("in.wav"), format: .wavFloat, sampleRate: 44_100, channelCount: 2)
        try interleaved.withUnsafeBufferPointer { try writer.write(interleaved: $0) }
        try writer.close()

        let run = try runTapKit(["resample", folder.file("in.wav"), "-o", folder.file("out.wav"), "--rate", "48000", "--float"])
        #expect(run.status == 0, "\(run.stderr)")
        let left = try Signal(contentsOf: folder.file("out.wav"), channel: .channel(0))
        let right = try Signal(contentsOf: folder.file("out.wav"), channel: .channel(1))
        #expect(left.sampleRate == 48_000 && left.frameCount == (frames * 48_000 + 22_050) / 44_100)
        #expect(left.samples.indices.max { abs(left.samples[$0]) < abs(left.samples[$1]) } == 4_800)
        #expect(right.samples.indices.max { abs(right.samples[$0]) < abs(right.samples[$1]) } == 24_000)
        // Each click stays on its own channel.
        #expect(abs(left.samples[24_000]) < 1e-6 && abs(right.samples[4_800]) < 1e-6)
    }

    @Test func badInputLeavesNothingBehind() throws {
        let folder = TemporaryFolder()
        let missing = try runTapKit(["resample", folder.file("none.wav"), "-o", folder.file("out.wav"), "--rate", "48000"])
        #expect(missing.status == 1 && missing.stderr.contains("none.wav"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        let unknown = try runTapKit(["resample", folder.file("none.wav"), "-o", folder.file("out.xyz"), "--rate", "48000"])
        #expect(unknown.status == 2 && unknown.stderr.contains("out.xyz"))
    }
}
