import Testing
import TapOnsets

@Suite struct StimulusLockedOnsetsTests {
    /// Clicks every 0.5234 s with ±0.1 ms detector jitter, taps 30 ± 20 ms before them, and
    /// some clicks hidden (merged into taps).
    static let period = 0.5234

    func session(seed: UInt64) -> (times: [Double], clickIndices: Set<Int>) {
        var random = TestRandom(state: seed)
        var events: [(time: Double, isClick: Bool)] = []
        for k in 0..<40 {
            let click = 1.0 + Double(k) * Self.period
            if random.uniform() > 0.25 { events.append((click + 0.0001 * random.gaussian(), true)) }
            events.append((click - 0.030 + 0.020 * random.gaussian(), false))
        }
        events.sort { $0.time < $1.time }
        return (events.map(\.time), Set(events.indices.filter { events[$0].isClick }))
    }

    @Test func findsTheClicksAndNoTaps() {
        for seed in 1...20 as ClosedRange<UInt64> {
            let (times, clicks) = session(seed: seed)
            let locked = Set(StimulusLockedOnsets.indices(in: times))
            #expect(clicks.isSubset(of: locked), "seed \(seed): \(clicks.subtracting(locked).count) clicks missed")
            // A tap can only be taken for a click when it coincides with one in time.
            for tap in locked.subtracting(clicks) {
                let offset = (times[tap] - 1.0).truncatingRemainder(dividingBy: Self.period)
                #expect(min(offset, Self.period - offset) <= 0.001, "seed \(seed): tap at \(times[tap]) locked")
            }
        }
    }

    @Test func tapsAloneHaveNoGrid() {
        var random = TestRandom(state: 99)
        let taps = (0..<60).map { 1.0 + Double($0) * 0.5 + 0.02 * random.gaussian() }.sorted()
        #expect(StimulusLockedOnsets.indices(in: taps).isEmpty)
    }

    @Test func tooFewClicksAreNotAGrid() {
        let times = (0..<5).map { 1.0 + Double($0) * 0.6 }
        #expect(StimulusLockedOnsets.indices(in: times).isEmpty)
        #expect(StimulusLockedOnsets.indices(in: []).isEmpty)
    }
}
