import Testing
@testable import TapOnsets

/// The click grid where taps mask most clicks and other sounds crowd the near-neighbour
/// differences: the clicks' shared level singles them out.
@Suite struct SameLevelClickGridTests {
    static let period = 0.7046

    /// 28 clicks at −45.5 dB (±0.2 dB, ±0.1 ms), of which only 10 are heard; a tap 30 ± 20 ms
    /// before every click at −35…−15 dB; between taps, runs of 4–6 syllable-like onsets
    /// 0.10–0.13 s apart at −50…−30 dB.
    func session(seed: UInt64) -> (times: [Double], levels: [Double], clicks: Set<Int>) {
        var random = TestRandom(state: seed)
        var events: [(time: Double, level: Double, isClick: Bool)] = []
        var heard = Set<Int>()
        while heard.count < 10 { heard.insert(Int(random.uniform() * 28)) }
        for k in 0..<28 {
            let click = 1.0 + Double(k) * Self.period
            if heard.contains(k) { events.append((click + 0.0001 * random.gaussian(), -45.5 + 0.2 * random.gaussian(), true)) }
            events.append((click - 0.030 + 0.020 * random.gaussian(), -35 + 20 * random.uniform(), false))
            if random.uniform() < 0.6 {
                var time = click + 0.08 + 0.05 * random.uniform()
                for _ in 0..<(4 + Int(random.uniform() * 3)) {
                    events.append((time, -50 + 20 * random.uniform(), false))
                    time += 0.10 + 0.03 * random.uniform()
                }
            }
        }
        events.sort { $0.time < $1.time }
        return (events.map(\.time), events.map(\.level), Set(events.indices.filter { events[$0].isClick }))
    }

    /// Whether the first grid holds every heard click, at the click period or a half or a third
    /// of it (which the check on the recording, `BleedTemplate.verified`, resolves).
    func foundClicks(_ grids: [(grid: StimulusLockedOnsets.Grid, members: [Int])], clicks: Set<Int>) -> Bool {
        guard let first = grids.first else { return false }
        let onPeriod = (1...3).contains { abs(first.grid.period * Double($0) - Self.period) < 0.0005 }
        return onPeriod && clicks.isSubset(of: Set(first.members))
    }

    @Test func levelsFindTheClicksThatTimingAloneMisses() {
        var missedWithoutLevels = 0
        for seed in 1...10 as ClosedRange<UInt64> {
            let (times, levels, clicks) = session(seed: seed)
            let withLevels = StimulusLockedOnsets.grids(in: times, levels: levels, minimumCount: 6)
            #expect(foundClicks(withLevels, clicks: clicks), "seed \(seed): \(withLevels.map(\.grid.period)) \(StimulusLockedOnsets.candidatePeriods(times, levels: levels, periodRange: 0.1...2.0))")
            if !foundClicks(StimulusLockedOnsets.grids(in: times, minimumCount: 6), clicks: clicks) { missedWithoutLevels += 1 }
        }
        // The sessions are hard: the differences between syllables and taps outvote the clicks'.
        #expect(missedWithoutLevels >= 5, "timing alone found the clicks in \(10 - missedWithoutLevels) of 10")
    }

    @Test func tapsAtOneLevelMakeNoGrid() {
        // Taps at nearly one level vote for their period too, but they scatter by tens of
        // milliseconds and never make a grid.
        var random = TestRandom(state: 5)
        let times = (0..<60).map { 1.0 + Double($0) * 0.5 + 0.02 * random.gaussian() }.sorted()
        let levels = times.map { _ in -30 + 0.3 * random.gaussian() }
        #expect(StimulusLockedOnsets.grids(in: times, levels: levels, minimumCount: 6).isEmpty)
    }

    @Test func aTapOnAClickLouderThanTheClicksStaysATap() {
        // Clicks every 0.6 s at −45 dB, set aside; one grid point carries a tap at −30 dB.
        let onsets = (0..<12).map { k -> Onset in
            let time = 1.0 + Double(k) * 0.6
            return Onset(time: time, frame: Int(time * 48_000), peakTime: time + 0.002,
                         strength: k == 5 ? -30 : -45 + 0.1 * Double(k % 3), snrDB: 20)
        }
        let detection = setAsideStimulus(onsets, cancelledClicks: 0)
        #expect(detection.onsets.map(\.time) == [onsets[5].time])
        #expect(detection.stimulusOnsets.count == 11)
    }
}

/// Among dense onsets, a grid at a fraction of the click period collects more members by chance
/// than the clicks' own grid; the grid search ranks grids by their members beyond chance.
@Suite struct DenseOnsetGridTests {
    @Test func theClickPeriodBeatsItsFractionsAmongDenseOnsets() {
        let period = 0.6
        for seed in 1...10 as ClosedRange<UInt64> {
            var random = TestRandom(state: seed)
            var times = (0..<30).map { 1.0 + Double($0) * period + 0.0001 * random.gaussian() }
            // Reverberant retriggers and other sounds: 7 onsets a second, anywhere.
            times += (0..<126).map { _ in 1.0 + 18.0 * random.uniform() }
            times.sort()
            let grids = StimulusLockedOnsets.grids(in: times, minimumCount: 6)
            #expect(abs((grids.first?.grid.period ?? 0) - period) < 0.0005, "seed \(seed): \(grids.map(\.grid.period))")
        }
    }
}
