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

    /// A tap 1.4 ms before the line at k = 3 is too far from the click at 1 to link to it, but
    /// links to the click at 4, which the click at 1 has already taken, and then to the click
    /// at 6. Were chains exclusive (each onset linked into by one other only), the click at 4
    /// could not link on to 6 and the clicks would fall into two chains of three, no grid.
    @Test func chainsJoinWhereATapOnALineLinksToAClickToo() {
        let clicks = [Self.line(0), Self.line(1) + 0.0002, Self.line(4), Self.line(6) - 0.0001, Self.line(13)]
        let times = (clicks + [Self.line(3) - 0.0014]).sorted()
        let chain = StimulusLockedOnsets.longestChain(times, period: Self.period, linkTolerance: 0.0015)
        #expect(chain.map { times[$0.index] } == clicks)
        #expect(chain.map(\.k) == [0, 1, 4, 6, 13])
    }

    /// A candidate period 0.25 ms off breaks the links that bridge seven or eight periods, and
    /// the four clicks left in the chain are too few to be fitted on their own among taps
    /// crowding the lines: linked again at its own fitted period, the chain holds all seven.
    @Test(arguments: 1...4 as ClosedRange<UInt64>)
    func aChainIsLinkedAgainAtItsOwnPeriod(seed: UInt64) {
        let (times, levels) = Self.clicksAmongTapsOnTheirLines(seed: seed)
        let clicks = times.indices.filter { levels[$0] < -43 }
        let off = Self.period - 0.00025
        let grid = StimulusLockedOnsets.grid(times, levels: levels, period: off, tolerance: 0.0003...0.001)
        #expect(grid.map { grid in clicks.allSatisfy { grid.distance(times[$0]) <= grid.tolerance } } == true, "seed \(seed)")
    }

    /// The heard clicks at −44.5 dB (±0.3 dB, ±0.1 ms) and taps 0.5–1.4 ms off the lines at
    /// k = 2, 3, 8, 10, 16, 24, 30 and 32, at −35…−10 dB.
    static func clicksAmongTapsOnTheirLines(seed: UInt64) -> (times: [Double], levels: [Double]) {
        var random = TestRandom(state: seed)
        var events = heard.map { (time: line($0) + 0.0001 * random.gaussian(), level: -44.5 + 0.3 * random.gaussian()) }
        for k in [2, 3, 8, 10, 16, 24, 30, 32] {
            let offset = (random.uniform() < 0.5 ? -1.0 : 1.0) * (0.0005 + 0.0009 * random.uniform())
            events.append((line(k) + offset, -35 + 25 * random.uniform()))
        }
        events.sort { $0.time < $1.time }
        return (events.map(\.time), events.map(\.level))
    }

    /// Seven clicks at one level, timed to ±0.1 ms, and taps crowding their lines 0.5–1.4 ms
    /// off: among all onsets near the lines the taps are the majority and their spread hides
    /// the clicks' (no grid without levels); the clicks at one level carry the grid.
    @Test(arguments: 1...6 as ClosedRange<UInt64>)
    func clicksAtOneLevelCarryTheGridAmongTapsOnItsLines(seed: UInt64) {
        let (times, levels) = Self.clicksAmongTapsOnTheirLines(seed: seed)
        let clicks = Set(times.indices.filter { levels[$0] < -43 })
        let grid = StimulusLockedOnsets.grid(times, levels: levels, period: Self.period, tolerance: 0.0003...0.001)
        #expect(grid.map { abs($0.period - Self.period) < 0.0001 } == true, "seed \(seed)")
        #expect(grid.map { grid in clicks.allSatisfy { grid.distance(times[$0]) <= grid.tolerance } } == true, "seed \(seed)")
        #expect(StimulusLockedOnsets.grid(times, period: Self.period, tolerance: 0.0003...0.001) == nil, "seed \(seed)")
    }
}
