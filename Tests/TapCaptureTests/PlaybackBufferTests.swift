import TapAudio
import Testing
@testable import TapCapture

@Suite struct PlaybackBufferTests {
    /// Cycles of 4 frames, 2 channels; the feeder delivers frames 0–5, then nothing for a while,
    /// then 6–15. The frames that were late play as silence and are skipped when they come, so
    /// every frame that does play is at its own position.
    @Test func lateFramesAreSkippedSoTheStimulusKeepsItsClock() {
        let ring = SPSCRing<Float>(minimumCapacity: 64, filler: 0)
        defer { ring.destroy() }
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: 64)
        defer { scratch.deallocate() }
        let left = UnsafeMutablePointer<Float>.allocate(capacity: 4), right = UnsafeMutablePointer<Float>.allocate(capacity: 4)
        defer { left.deallocate(); right.deallocate() }
        let outputs = UnsafeMutablePointer<UnsafeMutablePointer<Float>?>.allocate(capacity: 2)
        defer { outputs.deallocate() }
        outputs[0] = left
        outputs[1] = right
        func push(_ frames: Range<Int>) {  // frame f: left f + 1, right −(f + 1)
            let samples = frames.flatMap { [Float($0 + 1), -Float($0 + 1)] }
            _ = samples.withUnsafeBufferPointer { ring.push($0.baseAddress!, count: $0.count) }
        }
        var playback = PlaybackBuffer(ring: ring, scratch: scratch, scratchFrames: 3, channels: 2, debt: 0)
        var played: [Float] = []
        var late: [Int] = []
        push(0..<6)
        for cycle in 0..<4 {
            if cycle == 3 { push(6..<16) }
            late.append(playback.fill(outputs, frames: 4, stimulusFrames: 4))
            played += (0..<4).map { left[$0] }
            #expect((0..<4).allSatisfy { right[$0] == -left[$0] })
        }
        // Cycle 0 plays frames 0–3, cycle 1 frames 4–5 then silence (6–7 late), cycle 2 all
        // late (8–11); cycle 3 skips 6–11 and plays 12–15 where they belong.
        #expect(late == [0, 2, 4, 0])
        #expect(played == [1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 0, 13, 14, 15, 16])
        #expect(playback.debt == 0)
    }
}
