import Testing
@testable import TapOnsets

/// The click grid where taps mask nearly every click. In a synchronisation task a tap sounds
/// just before most clicks, far louder than their bleed: only the clicks before the
/// participant starts and those of skipped beats are heard, a handful several periods apart,
/// while taps crowd the grid's lines. Those few clicks must still make
/// the grid, or they are reported as taps.
@Suite struct FewHeardClicksTests {
    static let period = 0.5846
    /// The grid numbers of the clicks heard: two before tapping starts, then a few skipped beats.
    static let heard = [0, 1, 4, 6, 13, 21, 28]

    static func line(_ k: Int) -> Double { 1.0 + Double(k) * period }

    /// Seven clicks at one level, timed to ±0.1 ms, and taps crowding their lines 0.5–1.4 ms
    /// off: among all onsets near the lines the taps are the majority and their spread hides
    /// the clicks' (no grid without levels); the clicks at one level carry the grid.
    @Test(arguments: 1...6 as ClosedRange<UInt64>)
    func clicksAtOneLevelCarryTheGridAmongTapsOnItsLines(seed: UInt64) {
        var random = TestRandom(state: seed)
        var events = Self.heard.map { (time: Self.line($0) + 0.0001 * random.gaussian(), level: -44.5 + 0.3 * random.gaussian()) }
        for k in [2, 3, 8, 10, 16, 24, 30, 32] {
            let offset = (random.uniform() < 0.5 ? -1.0 : 1.0) * (0.0005 + 0.0009 * random.uniform())
            events.append((Self.line(k) + offset, -35 + 25 * random.uniform()))
        }
        events.sort { $0.time < $1.time }
        let times = events.map(\.time), levels = events.map(\.level)
        let clicks = Set(times.indices.filter { levels[$0] < -43 })
        let grid = StimulusLockedOnsets.grid(times, levels: levels, period: Self.period, tolerance: 0.0003...0.001)
        #expect(grid.map { abs($0.period - Self.period) < 0.0001 } == true, "seed \(seed)")
        #expect(grid.map { grid in clicks.allSatisfy { grid.distance(times[$0]) <= grid.tolerance } } == true, "seed \(seed)")
        #expect(StimulusLockedOnsets.grid(times, period: Self.period, tolerance: 0.0003...0.001) == nil, "seed \(seed)")
    }

    /// Where taps mask most clicks, a chance chain of taps can outnumber the clicks heard: the
    /// chain of onsets at one level is tried as well.
    @Test func theChainAtOneLevelBeatsALongerChanceChain() {
        // Eight taps, each within 1.2 ms of a line (a chance chain), at −30…−12 dB; seven clicks.
        let tapLines = [2, 3, 5, 8, 11, 15, 19, 23]
        var events = Self.heard.map { (time: Self.line($0), level: -44.5) }
        for (position, k) in tapLines.enumerated() {
            events.append((Self.line(k) + (position % 2 == 0 ? 0.0011 : -0.0009), -30 + Double(position) * 2.5))
        }
        events.sort { $0.time < $1.time }
        let times = events.map(\.time), levels = events.map(\.level)
        let grid = StimulusLockedOnsets.grid(times, levels: levels, period: Self.period, tolerance: 0.0003...0.001)
        let members = grid.map { grid in times.indices.filter { grid.distance(times[$0]) <= grid.tolerance } } ?? []
        #expect(Set(members) == Set(times.indices.filter { levels[$0] == -44.5 }))
    }
}
