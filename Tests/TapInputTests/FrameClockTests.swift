import Testing
@testable import TapInput

@Suite struct FrameClockTests {
    /// Cycles of 128 frames at 48 kHz whose callbacks run late by 0–3 ms: the clock must place
    /// an instant by the least-late cycle, not by the latest one.
    @Test func followsTheLowerEnvelopeOfCycleStarts() {
        var clock = FrameClock(sampleRate: 48_000)
        let origin: Int64 = 5_000_000  // µs at which frame 0 was due
        let lateness: [Int64] = [900, 40, 3_000, 250, 1_700, 15, 2_200]
        for cycle in 0..<300 {
            let due = origin + Int64(Double(cycle * 128) / 48_000 * 1e6)
            clock.add(CycleStamp(frame: cycle * 128, microseconds: due + lateness[cycle % lateness.count], xruns: 0))
        }
        // 0.5 s after frame 0 is frame 24000; the least-late cycle was 15 µs late (0.72 frames).
        let frame = try! #require(clock.frame(atMicroseconds: origin + 500_000))
        #expect(abs(frame - (24_000 - 0.72)) < 0.05, "\(frame)")
    }

    /// Only the last second counts: an early estimate a few seconds old is forgotten, so a
    /// clock that has moved (a sound card's rate offset) is followed.
    @Test func forgetsCyclesOlderThanTheWindow() {
        var clock = FrameClock(sampleRate: 48_000)
        clock.add(CycleStamp(frame: 0, microseconds: 0, xruns: 0))  // on time
        for cycle in 1...1_000 {  // every later cycle exactly 2 ms late
            clock.add(CycleStamp(frame: cycle * 48, microseconds: Int64(cycle) * 1_000 + 2_000, xruns: 0))
        }
        let frame = try! #require(clock.frame(atMicroseconds: 1_000_000))
        #expect(abs(frame - (48_000 - 96)) < 0.01, "\(frame)")
    }

    /// After an xrun, frames and time no longer line up: cycles before it are dropped at once.
    @Test func startsAfreshAfterAnXrun() {
        var clock = FrameClock(sampleRate: 48_000)
        for cycle in 0..<100 { clock.add(CycleStamp(frame: cycle * 48, microseconds: Int64(cycle) * 1_000, xruns: 0)) }
        // The server lost 10 ms: frame 4800 came at 110 ms instead of 100 ms.
        for cycle in 100..<110 {
            clock.add(CycleStamp(frame: cycle * 48, microseconds: Int64(cycle) * 1_000 + 10_000, xruns: 1))
        }
        let frame = try! #require(clock.frame(atMicroseconds: 115_000))
        #expect(abs(frame - 4_800 - 240) < 0.01, "\(frame)")
        #expect(FrameClock(sampleRate: 48_000).frame(atMicroseconds: 0) == nil)
    }
}
