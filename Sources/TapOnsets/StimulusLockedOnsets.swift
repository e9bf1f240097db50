import TapAudio

/// Finds the onsets that sit on a strictly isochronous grid: the clicks of a metronome that
/// leak from the participant's headphones into the microphone.
///
/// A digital metronome is sample-exact, so its bleed onsets fall on `phase + k × period` to
/// within the detector's timing error (a fraction of a millisecond), while human taps scatter
/// by tens of milliseconds around the beat. The period is the sharpest peak of the
/// differences between near-neighbour onsets (and between onsets at one level); the longest
/// chain of onsets whole periods apart gives a least-squares grid; every onset within
/// `tolerance` of that grid is stimulus-locked. A tap lands on the grid by chance with probability about
/// 2 × tolerance / period (0.1 % at 0.3 ms and 500 ms), and only a tap that coincides with
/// a click within the detector's error can hide in it.
///
/// Recordings without such a grid (no bleed, music stimuli) give an empty result.
public enum StimulusLockedOnsets {
    /// Indices of `times` (sorted, seconds) that lie on an isochronous grid.
    /// - Parameters:
    ///   - times: onset times, sorted, seconds.
    ///   - levels: each onset's peak level, dB, when known: a metronome's clicks reach the
    ///     microphone at one level, so onsets at one level vote for a period and form chains
    ///     of their own, and a chain mostly at one level is fitted on those members.
    ///   - tolerance: largest distance from the fitted grid, seconds.
    ///   - periodRange: the grid periods considered, seconds.
    ///   - minimumCount: the least number of onsets that make a grid.
    ///   - maximumGrids: how many interleaved grids (e.g. accent and subdivision clicks) to find.
    public static func indices(in times: [Seconds], levels: [Double]? = nil,
                               tolerance: ClosedRange<Seconds> = 0.0003...0.001, periodRange: ClosedRange<Seconds> = 0.1...2.0,
                               minimumCount: Int = 8, maximumGrids: Int = 2) -> [Int] {
        grids(in: times, levels: levels, tolerance: tolerance, periodRange: periodRange, minimumCount: minimumCount,
              maximumGrids: maximumGrids).flatMap(\.members).sorted()
    }

    /// The grids found, each with the indices of its member onsets, largest first.
    /// - Parameter levels: each onset's peak level, dB, when known: pairs of onsets at the same
    ///   level also vote for a period on their own (see ``candidatePeriods(_:levels:periodRange:)``),
    ///   and a chain mostly at one level is fitted on those members (see
    ///   ``grid(_:levels:period:tolerance:)``).
    static func grids(in times: [Seconds], levels: [Double]? = nil, tolerance: ClosedRange<Seconds> = 0.0003...0.001,
                      periodRange: ClosedRange<Seconds> = 0.1...2.0,
                      minimumCount: Int = 8, maximumGrids: Int = 2) -> [(grid: Grid, members: [Int])] {
        precondition(levels.map { $0.count == times.count } ?? true, "one level per onset")
        var remaining = Array(times.indices)
        var found: [(grid: Grid, members: [Int])] = []
        for _ in 0..<maximumGrids {
            let subset = remaining.map { times[$0] }
            guard let grid = fitGrid(subset, levels: levels.map { levels in remaining.map { levels[$0] } },
                                     tolerance: tolerance, periodRange: periodRange,
                                     minimumCount: minimumCount) else { break }
            let members = Set(subset.indices.filter { grid.distance(subset[$0]) <= grid.tolerance })
            guard members.count >= minimumCount else { break }
            found.append((grid, members.map { remaining[$0] }.sorted()))
            remaining = remaining.enumerated().filter { !members.contains($0.offset) }.map(\.element)
        }
        return found
    }

    /// A grid of clicks at one level whose starts were picked up to a few cycles apart, or nil:
    /// sought where the grid of ``grids(in:levels:tolerance:periodRange:minimumCount:maximumGrids:)``
    /// gives no template or one whose clicks sound unalike (`detectTapOnsets`).
    ///
    /// A tonal click (a beep, a low sine burst) rises over several cycles, and the start
    /// picker places its start on one cycle or the next (a 500 Hz beep's starts fall 1 ms
    /// apart, in clusters), a spread the grid's 1 ms tolerance refuses. Here the tolerance may
    /// reach ``cycleTolerance``, and at least two thirds of the members must lie within
    /// ``sameLevelDB`` of their median level, as a metronome's clicks do. So wide a tolerance
    /// lets through sounds that merely recur (one drum of a kit every bar): the caller keeps
    /// such a grid only when its clicks also sound alike (``BleedTemplate/likeness``).
    static func cycleSlippedGrid(in times: [Seconds], levels: [Double], periodRange: ClosedRange<Seconds> = 0.1...2.0,
                                 minimumCount: Int) -> (grid: Grid, members: [Int])? {
        precondition(levels.count == times.count, "one level per onset")
        let tolerance = 0.0003...cycleTolerance
        guard let grid = fitGrid(times, levels: levels, tolerance: tolerance, periodRange: periodRange,
                                 minimumCount: minimumCount) else { return nil }
        let members = times.indices.filter { grid.distance(times[$0]) <= grid.tolerance }
        guard members.count >= minimumCount,
              3 * sameLevelMembers(members, levels: levels).count >= 2 * members.count else { return nil }
        return (grid, members)
    }

    /// The grid of clicks found by their peak times (onsets in start order: `peakTimes` need
    /// not ascend), members as indices into them, or nil: a lossy codec's pre-echo moves a loud
    /// click's start 0–4 ms early, click by click, but not its peak. Sought where
    /// ``cycleSlippedGrid(in:levels:periodRange:minimumCount:)`` is.
    static func gridOfPeaks(_ peakTimes: [Seconds], levels: [Double], minimumCount: Int) -> (grid: Grid, members: [Int])? {
        precondition(levels.count == peakTimes.count, "one level per onset")
        let order = peakTimes.indices.sorted { peakTimes[$0] < peakTimes[$1] }
        return grids(in: order.map { peakTimes[$0] }, levels: order.map { levels[$0] }, minimumCount: minimumCount, maximumGrids: 1)
            .first.map { grid in (grid.grid, grid.members.map { order[$0] }.sorted()) }
    }

    /// The widest tolerance of a grid of cycle-slipped clicks, seconds: two cycles of a tone at
    /// 700 Hz, one and a half at 500 Hz.
    static let cycleTolerance: Seconds = 0.003

    /// `phase + k × period`.
    struct Grid {
        var phase: Double
        var period: Double
        /// Largest distance of a member: four robust SDs of the members' residuals, within
        /// the caller's bounds, so a click timed with more jitter (quiet bleed) still locks.
        var tolerance: Double = 0

        /// The grid's line nearest `time`: `phase + k × period` for the nearest whole `k`.
        func line(nearest time: Double) -> Double {
            phase + ((time - phase) / period).rounded() * period
        }

        func distance(_ time: Double) -> Double {
            abs(time - line(nearest: time))
        }
    }

    static func fitGrid(_ times: [Double], levels: [Double]? = nil, tolerance: ClosedRange<Double>,
                        periodRange: ClosedRange<Double>, minimumCount: Int) -> Grid? {
        guard times.count >= minimumCount else { return nil }
        // Grids are ranked by their members beyond those that onsets scattered at random would
        // give them: each onset lies within the tolerance of some grid line with probability
        // 2 × tolerance / period, so a grid at a sixth of the click period collects six times
        // the chance members of the clicks' own among dense onsets (reverberant tails, speech).
        var ranked: [(grid: Grid, members: Int, excess: Double)] = []
        for period in candidatePeriods(times, levels: levels, periodRange: periodRange) {
            guard let grid = grid(times, levels: levels, period: period, tolerance: tolerance) else { continue }
            let members = times.filter { grid.distance($0) <= grid.tolerance }.count
            ranked.append((grid, members, Double(members) - Double(times.count) * 2 * grid.tolerance / grid.period))
        }
        guard let best = clicksGrid(among: ranked), best.members >= minimumCount else { return nil }
        return best.grid
    }

    /// The grid of the clicks among candidate grids ranked by their members beyond chance:
    /// the one with the most, unless a coarser one is nearly as good. A grid at a whole
    /// fraction of another's period (a half to a ninth: the candidates include halves and
    /// thirds of popular periods, so a sixth of the click period occurs) holds that grid's
    /// clicks and whatever lies on its extra lines; unless those lines bring at least
    /// ``finerGridMargin`` members beyond chance (clicks that sound there too), the coarser
    /// grid is the clicks', and the finer one's extra members are other sounds.
    static func clicksGrid(among ranked: [(grid: Grid, members: Int, excess: Double)]) -> (grid: Grid, members: Int, excess: Double)? {
        guard var best = ranked.max(by: { ($0.excess, $0.grid.period) < ($1.excess, $1.grid.period) }) else { return nil }
        while let coarser = ranked.first(where: { candidate in
            candidate.excess > best.excess - finerGridMargin
                && (2...9).contains { abs(candidate.grid.period - best.grid.period * Double($0)) <= 0.001 * candidate.grid.period }
        }) {
            best = coarser
        }
        return best
    }

    /// How many members beyond chance the extra lines of a finer grid must bring, at least.
    static let finerGridMargin = 2.0

    /// Periods worth trying: the centres of the three most popular 0.2 ms bins of
    /// near-neighbour differences, and their halves and thirds (clicks hidden under taps
    /// leave gaps of two or three periods).
    ///
    /// With `levels`, the two most popular bins among pairs at the same level (within
    /// ``sameLevelDB``, up to 16 onsets apart, each pair's difference divided by 1 to 4) are
    /// tried as well. A metronome's clicks reach the microphone at one level, taps and speech
    /// do not; where taps mask most clicks, the few clicks heard are outvoted by the
    /// differences between syllables or taps, and only their shared level singles them out.
    static func candidatePeriods(_ times: [Double], levels: [Double]? = nil, periodRange: ClosedRange<Double>) -> [Double] {
        let binWidth = 0.0002
        var votes: [Int: [Double]] = [:]
        var sameLevelVotes: [Int: [Double]] = [:]
        for i in times.indices {
            var j = i + 1
            while j < times.count && j <= i + 8 {
                let difference = times[j] - times[i]
                if difference > periodRange.upperBound { break }
                if difference >= periodRange.lowerBound { votes[Int(difference / binWidth), default: []].append(difference) }
                j += 1
            }
        }
        // Clicks at one level, farther apart: the few heard between taps are often several
        // periods apart, so each such pair votes for its difference divided by 1 to 4.
        if let levels {
            for i in times.indices {
                var j = i + 1
                while j < times.count && j <= i + 16 && times[j] - times[i] <= 4 * periodRange.upperBound {
                    let difference = times[j] - times[i]
                    if abs(levels[i] - levels[j]) <= sameLevelDB {
                        for multiple in 1...4 {
                            let period = difference / Double(multiple)
                            if periodRange.contains(period) { sameLevelVotes[Int(period / binWidth), default: []].append(period) }
                        }
                    }
                    j += 1
                }
            }
        }
        var periods: [Double] = []
        for period in popularPeriods(votes, count: 3) {
            for divisor in 1...3 where period / Double(divisor) >= periodRange.lowerBound {
                periods.append(refine(period / Double(divisor), times: times))
            }
        }
        // The same-level votes already counted every pair at its whole multiples. Each period is
        // sharpened on every onset and on the same-level pairs alone (where the clicks are few
        // and other sounds many, the first can drift off them).
        for period in popularPeriods(sameLevelVotes, count: 2) {
            for candidate in [refine(period, times: times), refine(period, times: times, sameLevels: levels)]
            where !periods.contains(candidate) {
                periods.append(candidate)
            }
        }
        return periods
    }

    /// How close in level two onsets are to vote as clicks of one metronome, dB.
    static let sameLevelDB = 1.0

    /// The median difference of each of the `count` most popular bins (with their neighbours)
    /// that hold at least three votes, skipping a bin next to one already taken (the same
    /// period split over two bins).
    private static func popularPeriods(_ votes: [Int: [Double]], count: Int) -> [Double] {
        let ranked = votes.keys.map { bin -> (bin: Int, count: Int) in
            (bin, (votes[bin - 1]?.count ?? 0) + votes[bin]!.count + (votes[bin + 1]?.count ?? 0))
        }.sorted { ($0.count, -$0.bin) > ($1.count, -$1.bin) }
        var taken: [(bin: Int, count: Int)] = []
        for entry in ranked where taken.count < count && !taken.contains(where: { abs($0.bin - entry.bin) <= 1 }) {
            taken.append(entry)
        }
        return taken.filter { $0.count >= 3 }.map { entry in
            let differences = ((votes[entry.bin - 1] ?? []) + votes[entry.bin]! + (votes[entry.bin + 1] ?? [])).sorted()
            return differences[differences.count / 2]
        }
    }

    /// Sharpens a candidate period. A bin of differences also collects taps that happen to be
    /// about a period apart, which pulls its median off by a fraction of a millisecond, enough
    /// to break a chain over many clicks. The refined period is the one within ±3 ms on which
    /// the most near-neighbour differences (among the first 400 onsets) fall within 0.4 ms of
    /// a whole multiple, searched in 0.1 ms and then 0.01 ms steps.
    ///
    /// With `sameLevels`, only the differences between onsets at the same level
    /// (``sameLevelDB``) count, as in the vote that proposed the period.
    static func refine(_ period: Double, times: [Double], sameLevels levels: [Double]? = nil) -> Double {
        let sample = times.prefix(400)
        var differences: [Double] = []
        for i in sample.indices {
            var j = i + 1
            while j < sample.endIndex && j <= i + 16 && sample[j] - sample[i] <= 8.5 * period {
                if levels.map({ abs($0[i] - $0[j]) <= sameLevelDB }) ?? true { differences.append(sample[j] - sample[i]) }
                j += 1
            }
        }
        let sorted = differences.sorted()
        func score(_ candidate: Double) -> Int {
            var count = 0
            // The nearest multiple from a product with the reciprocal, rounded half up through
            // an integer, instead of a division and libm's round: the two can differ only where
            // difference / candidate lies within a few units in the last place of a
            // half-integer, and there the difference is half a candidate from every multiple,
            // far outside the 0.4 ms either way. So the count is the same, at a fraction of the
            // cost (the count runs for 82 candidates). Only for
            // candidates under 10 ms, which the default period range never gives, is half a
            // candidate too close to 0.4 ms for that, and the exact form is kept.
            guard candidate > 0.01 else {
                for difference in differences {
                    let multiple = (difference / candidate).rounded()
                    if multiple >= 1 && abs(difference - multiple * candidate) <= 0.0004 { count += 1 }
                }
                return count
            }
            // Only the differences near a whole multiple can count, and the windows 0.5 ms
            // either side of each multiple (a candidate over 10 ms apart) are found in the sorted
            // differences by bisection; each difference in them is then judged exactly as it
            // would be on its own.
            let reciprocal = 1 / candidate
            guard let largest = sorted.last else { return 0 }
            var multiple = 1.0
            while multiple * candidate - 0.0005 <= largest {
                var index = sorted.firstIndex(notBelow: multiple * candidate - 0.0005)
                while index < sorted.count && sorted[index] <= multiple * candidate + 0.0005 {
                    let difference = sorted[index]
                    let halfUp = difference * reciprocal + 0.5
                    if halfUp >= 1 && abs(difference - Double(Int(halfUp)) * candidate) <= 0.0004 { count += 1 }
                    index += 1
                }
                multiple += 1
            }
            return count
        }
        // Coarse (0.1 ms) over ±3 ms, then fine (0.01 ms) around the best.
        var best = period, bestScore = -1
        for (centre, step, steps) in [(period, 0.0001, 30), (period, 0.00001, 10)] {
            let origin = steps == 30 ? centre : best
            for index in -steps...steps {
                let candidate = origin + Double(index) * step
                let value = score(candidate)
                if value > bestScore || (value == bestScore && abs(candidate - period) < abs(best - period)) {
                    bestScore = value
                    best = candidate
                }
            }
        }
        return best
    }

    /// The grid of one period: the longest chain of onsets whole periods apart (gaps of up to
    /// eight periods bridged, ``longestChain(_:levels:period:linkTolerance:)``), fitted by least
    /// squares to the chain's members at one level when most of it is (below), else to the
    /// chain and then twice to every onset near its line.
    ///
    /// With `levels`, the longest chain linked only between onsets within ``linkLevelDB`` of
    /// each other is tried as well, and the grid with more onsets on it is kept: where taps
    /// mask most clicks, a chain of clicks and of taps that happen to lie near the lines can
    /// be longer than the clicks' own.
    static func grid(_ times: [Double], levels: [Double]? = nil, period: Double, tolerance: ClosedRange<Double>) -> Grid? {
        let linkTolerance = 1.5 * tolerance.upperBound
        var chains = [(chain: longestChain(times, period: period, linkTolerance: linkTolerance), byLevel: false)]
        if let levels {
            let byLevel = longestChain(times, levels: levels, period: period, linkTolerance: linkTolerance)
            // Often the same chain: fitted once.
            if byLevel.map(\.index) != chains[0].chain.map(\.index) { chains.append((byLevel, true)) }
        }
        let grids = chains.compactMap { grid(times, levels: levels, chain: $0.chain, linkedByLevel: $0.byLevel, tolerance: tolerance) }
        guard grids.count > 1 else { return grids.first }
        let memberCounts = grids.map { grid in times.count { grid.distance($0) <= grid.tolerance } }
        return memberCounts[1] > memberCounts[0] ? grids[1] : grids[0]
    }

    /// The grid fitted to one chain (see ``grid(_:levels:period:tolerance:)``), or nil when the
    /// chain is too short or its onsets scatter about its line as chance ones do.
    private static func grid(_ times: [Double], levels: [Double]?, chain linked: [(index: Int, k: Double)],
                             linkedByLevel: Bool, tolerance: ClosedRange<Double>) -> Grid? {
        let linkTolerance = 1.5 * tolerance.upperBound
        guard linked.count >= 4 else { return nil }
        // A candidate period a few tenths of a millisecond off breaks links that bridge many
        // periods (clicks heard only between taps); the chain's own period joins them again,
        // linked as the chain was.
        let refined = fitLine(linked.map { ($0.k, times[$0.index]) }).period
        let rechained = longestChain(times, levels: linkedByLevel ? levels : nil, period: refined, linkTolerance: linkTolerance)
        let chain = rechained.count > linked.count ? rechained : linked
        // A metronome's clicks reach the microphone at one level. When most of the chain is at
        // one level, the grid is fitted to those members and its spread measured on them alone:
        // in a synchronisation task taps crowd near the clicks, and where they mask most clicks
        // they can outnumber the few heard near the grid. Otherwise both come from every onset
        // near the chain's line.
        let clicks = levels.map { levels in sameLevelMembers(chain.map(\.index), levels: levels) } ?? []
        let oneLevel = 3 * clicks.count >= 2 * chain.count && clicks.count >= 6
        let fitted = oneLevel ? Set(clicks) : Set(chain.map(\.index))
        var grid = fitLine(chain.filter { fitted.contains($0.index) }.map { ($0.k, times[$0.index]) })
        for _ in 0..<2 where !oneLevel {
            let near = times.filter { grid.distance($0) <= linkTolerance }
                .map { ((($0 - grid.phase) / grid.period).rounded(), $0) }
            guard near.count >= 3 else { break }
            grid = fitLine(near)
        }
        let measured = oneLevel ? clicks.map { times[$0] } : times
        let residuals = measured.map(grid.distance).filter { $0 <= linkTolerance }.sorted()
        guard !residuals.isEmpty else { return nil }
        // Distances are |residual|, so their median estimates 0.6745 σ (half-normal).
        let sigma = residuals[residuals.count / 2] / 0.6745
        // Onsets that only happen to lie near a line scatter over the whole link window
        // (σ ≈ 0.9 × window); clicks cluster tightly on it. Refuse the loose kind.
        guard 4 * sigma <= 1.5 * tolerance.upperBound else { return nil }
        grid.tolerance = min(max(4 * sigma, tolerance.lowerBound), tolerance.upperBound)
        return grid
    }

    /// The longest chain of onsets whole periods apart, as indices into `times` with their grid
    /// numbers. Each onset links to the first later onset within eight periods that lies a
    /// whole number of periods away to `linkTolerance` (with `levels`, only to one within
    /// ``linkLevelDB`` of its own level). Chains may join: a tap that happens to lie a few
    /// periods before a click must not take that click from the chain of clicks before it
    /// (where taps mask most clicks, the few heard are all the grid has).
    static func longestChain(_ times: [Double], levels: [Double]? = nil, period: Double,
                             linkTolerance: Double) -> [(index: Int, k: Double)] {
        precondition(levels.map { $0.count == times.count } ?? true, "one level per onset")
        var next = [(index: Int, steps: Int)?](repeating: nil, count: times.count)
        // The nearest multiple from a product with the reciprocal: it can differ from a division
        // only where the difference lies half a period from every multiple, far outside the
        // link tolerance, so the links are the same (this loop runs up to four times per
        // candidate period).
        let reciprocal = 1 / period, reach = 8 * period + linkTolerance
        let sameLevels = levels ?? []
        times.withUnsafeBufferPointer { times in
            sameLevels.withUnsafeBufferPointer { sameLevels in
                for i in times.indices {
                    var j = i + 1
                    let end = times[i] + reach
                    while j < times.count && times[j] <= end {
                        if sameLevels.isEmpty || abs(sameLevels[j] - sameLevels[i]) <= linkLevelDB {
                            let difference = times[j] - times[i]
                            let steps = (difference * reciprocal).rounded()
                            if steps >= 1 && abs(difference - steps * period) <= linkTolerance {
                                next[i] = (j, Int(steps))
                                break
                            }
                        }
                        j += 1
                    }
                }
            }
        }
        // The length of the chain from each onset on, from the last onset back (links only go
        // forward); the longest chain starts at the earliest onset with the greatest.
        var chainLength = [Int](repeating: 1, count: times.count)
        for i in times.indices.reversed() {
            if let link = next[i] { chainLength[i] = 1 + chainLength[link.index] }
        }
        guard var index = chainLength.indices.max(by: { (chainLength[$0], -$0) < (chainLength[$1], -$1) }) else { return [] }
        var chain = [(index: index, k: 0.0)]
        while let link = next[index] {
            chain.append((link.index, chain.last!.k + Double(link.steps)))
            index = link.index
        }
        return chain
    }

    /// How far apart in level two onsets may be to link in a chain at one level, dB: two clicks
    /// of one metronome, each measured to a few tenths of a dB (the chain may drift by this
    /// much per link; its members at one level, ``sameLevelMembers(_:levels:)``, are taken
    /// within ``sameLevelDB`` of its median).
    static let linkLevelDB = 2 * sameLevelDB

    /// The members of `chain` within ``sameLevelDB`` of its median level (none of an empty one).
    static func sameLevelMembers(_ chain: [Int], levels: [Double]) -> [Int] {
        guard !chain.isEmpty else { return [] }
        let sorted = chain.map { levels[$0] }.sorted()
        let median = sorted[sorted.count / 2]
        return chain.filter { abs(levels[$0] - median) <= sameLevelDB }
    }

    /// Least-squares fit of `time = phase + k × period` to (k, time) points (any unit).
    static func fitLine(_ points: [(k: Double, time: Double)]) -> Grid {
        let n = Double(points.count)
        var sumK = 0.0, sumT = 0.0, sumKK = 0.0, sumKT = 0.0
        for point in points {
            sumK += point.k; sumT += point.time; sumKK += point.k * point.k; sumKT += point.k * point.time
        }
        let slope = (n * sumKT - sumK * sumT) / (n * sumKK - sumK * sumK)
        return Grid(phase: (sumT - slope * sumK) / n, period: slope)
    }

    /// The standard error of `line`'s period, fitted to `points` by least squares: the
    /// residuals' SD (n − 2 degrees of freedom) over the root of Σ(k − k̄)²; infinite with
    /// fewer than three points.
    static func periodError(of line: Grid, _ points: [(k: Double, time: Double)]) -> Seconds {
        guard points.count > 2 else { return .infinity }
        let meanK = points.reduce(0) { $0 + $1.k } / Double(points.count)
        let spread = points.reduce(0) { $0 + ($1.k - meanK) * ($1.k - meanK) }
        let squares = points.reduce(0) { sum, point in
            let residual = point.time - (line.phase + line.period * point.k)
            return sum + residual * residual
        }
        return (squares / Double(points.count - 2)).squareRoot() / spread.squareRoot()
    }
}
