/// TapKit's tap-tempo estimator.
///
/// - **Least squares over the kept taps.** Each kept tap has a beat number (consecutive, or two
///   apart across a skipped tap). The period is the generalized-least-squares fit of the
///   intervals to their beat gaps under the two-level timing model of Wing and Kristofferson
///   (1973): an interval of g beats has the timer's variance g·σc² plus the motor variance of its
///   two ends, 2·σm², and neighbouring intervals share one motor delay (covariance −σm²). So
///   every tap counts, not just the first and the last, and motor noise, which makes
///   consecutive intervals negatively correlated, is largely cancelled.
/// - **Outliers are dropped, not a reset.** A tap off the beat grid (a double tap, a mis-tap) is
///   held back; if the next tap is back on the grid, it is discarded. If the held-back taps
///   agree with each other at the current period but not with the last kept tap, that kept tap
///   was the stray one (a mis-tap that passed as a skip) and is dropped instead.
/// - **Skipped taps are recognised.** An interval near two periods (or two near three) is a
///   skipped beat, not a new tempo; a skip needs a period of two intervals or more.
/// - **Re-locking within three taps.** Two consecutive intervals that agree with each other but
///   not with the grid are a new tempo (faster, slower, or a doubling); three intervals in a
///   row of about two or three periods, or of about half a period, are a halving, a third or a
///   doubling (after a doubling every other tap lands on the old grid); four agreeing intervals
///   well off the period are a small change. Each re-locks at once on the new taps. A slowing
///   by the three-interval rule is taken back if the very next tap is one old period on and
///   fits no new beat (three skips in a row by chance).
/// - **Noise-aware.** What counts as on the grid, and as two intervals agreeing, scales with the
///   timing noise expected of a person at that period: a timer coefficient of variation
///   `timerCV` (3 %) and a motor SD `motorSD` (8 ms), typical of the tapping literature
///   (Wing & Kristofferson 1973; Repp 2005). An interval's expected SD is √((cv·P)² + 2·σm²).
///   For a person noisier than that, pass their values (Docs/tap-tempo.md shows what the
///   defaults cost for a tapper twice as noisy).
/// - **Range.** No re-lock proposes a tempo outside `minimumBPM…maximumBPM` (5 % slack for
///   noise), and readings are held within the range; a pause longer than 2.5 periods (or than
///   the slowest period in range) starts again.
public struct TapTempoTracker: TapTempoEstimator {
    /// The tempo range in BPM (default 30–300; 1–999 allowed).
    public let minimumBPM: Double
    /// The fastest tempo considered, BPM.
    public let maximumBPM: Double
    /// Taps kept for the fit (default 32).
    public let window: Int
    /// How far from a whole number of periods an interval may be and still fit the grid, as a
    /// fraction of a period (default 0.1), or 3.5 expected interval SDs if that is more.
    public let tolerance: Double
    /// The timing noise the estimator assumes: timer SD as a fraction of the period, and motor
    /// SD in seconds.
    public let timerCV: Double
    /// Motor SD, seconds (default 0.008).
    public let motorSD: Double

    /// Kept taps: time and beat number.
    private var taps: [(time: Double, beat: Int)] = []
    /// Taps off the grid since the last kept one.
    private var pending: [Double] = []
    /// The last four taps of any kind.
    private var recent: [Double] = []
    private var period: Double?
    /// True while the taps since an undone re-lock are fed to the restored history.
    private var replaying = false
    /// What a re-lock replaced, kept for one tap in case the next tap shows it was wrong.
    private var undo: (taps: [(time: Double, beat: Int)], period: Double, standardError: Double, tolerance: Double)?
    private var standardError: Double = .infinity

    /// A tracker; `minimumBPM` < `maximumBPM`, both within 1…999.
    public init(minimumBPM: Double = 30, maximumBPM: Double = 300, window: Int = 32, tolerance: Double = 0.1,
                timerCV: Double = 0.03, motorSD: Double = 0.008) {
        precondition(1 <= minimumBPM && minimumBPM < maximumBPM && maximumBPM <= 999, "BPM range must lie within 1–999")
        precondition(window >= 3 && tolerance > 0 && tolerance < 0.5 && timerCV > 0 && motorSD >= 0)
        self.minimumBPM = minimumBPM
        self.maximumBPM = maximumBPM
        self.window = window
        self.tolerance = tolerance
        self.timerCV = timerCV
        self.motorSD = motorSD
    }

    /// The SD of one interval of a person tapping at `period`.
    private func intervalSD(_ period: Double) -> Double {
        ((timerCV * period) * (timerCV * period) + 2 * motorSD * motorSD).squareRoot()
    }

    /// How far (seconds) an interval may be from a whole number of periods and fit the grid.
    private func gridTolerance(_ period: Double) -> Double { max(tolerance * period, 3.5 * intervalSD(period)) }

    /// Forgets every tap: the next one starts a new history.
    public mutating func reset() {
        taps.removeAll()
        pending.removeAll()
        recent.removeAll()
        period = nil
        standardError = .infinity
        undo = nil
    }

    private var shortestPeriod: Double { 60 / maximumBPM }
    private var longestPeriod: Double { 60 / minimumBPM }

    /// Adds a tap at `time` (seconds, increasing) and returns the reading after it.
    public mutating func tap(at time: Double) -> TempoReading {
        // No kept tap: this one starts the history.
        guard let last = taps.last else {
            restart(at: time)
            return reading(reset: false)
        }
        // No period yet: this tap may give the first one.
        guard let period else { return secondTap(at: time, after: last) }
        // A pause far longer than a beat: the person has stopped, so start again.
        if time - (pending.last ?? last.time) > max(2.5 * period, longestPeriod * 1.25) {
            restart(at: time)
            return reading(reset: true)
        }
        // A re-lock on a chance run of skips is taken back as soon as the next tap shows it.
        if let undone = undoChanceRelock(at: time, period: period) { return undone }
        remember(time)
        // The last three intervals between any taps, held back or kept (two rules read them).
        let recentIntervals = recent.count == 4 ? zip(recent.dropFirst(), recent).map { $0 - $1 } : []
        // Halving, a third or doubling: judged first, on every tap, as the grid alone would miss a doubling.
        if let relocked = relockOnMultiple(recentIntervals, period: period) { return relocked }
        // Held-back taps that agree with this one are skips, a new tempo, or good taps after all.
        if let resolved = resolveHeldBack(at: time, last: last, period: period) { return resolved }
        // On the grid (a beat or a few on): kept, unless it completes a run of a small change.
        if let kept = keepOnGrid(at: time, last: last, period: period) { return kept }
        // Off the grid, but the last three intervals of all taps agree on another period.
        if let relocked = relockOnRecentAgreement(recentIntervals, period: period) { return relocked }
        // Off the grid and nothing agrees: held back, until too many in a row lose the lock.
        return holdBack(time)
    }

    /// One kept tap: a second one in range gives the first period; a tap too soon is a
    /// bounce, one too late starts again.
    private mutating func secondTap(at time: Double, after last: (time: Double, beat: Int)) -> TempoReading {
        let gap = time - last.time
        if gap > longestPeriod * 1.25 {
            restart(at: time)
            return reading(reset: true)
        }
        remember(time)
        if gap >= shortestPeriod * 0.95 {
            taps.append((time, 1))
            fit()
        }
        return reading(reset: false)
    }

    /// Keeps the last four taps of any kind.
    private mutating func remember(_ time: Double) {
        recent.append(time)
        if recent.count > 4 { recent.removeFirst(recent.count - 4) }
    }

    /// The tap after a re-lock is one old period on and fits no new beat: the re-lock was a
    /// chance run (three skips in a row, say). Goes back to the old grid, feeds it the taps
    /// since, then this one. Nil if not; either way the re-lock can no longer be undone.
    private mutating func undoChanceRelock(at time: Double, period: Double) -> TempoReading? {
        guard let undo = self.undo.take(), let previous = recent.last,
              abs(time - previous - undo.period) <= undo.tolerance,
              ![1.0, 2.0].contains(where: { abs(time - previous - $0 * period) <= gridTolerance(period) }) else { return nil }
        let since = recent.filter { $0 > undo.taps.last!.time }
        taps = undo.taps
        self.period = undo.period
        standardError = undo.standardError
        pending.removeAll()
        recent = Array(undo.taps.suffix(1).map(\.time))
        // Replayed without re-locking, or the same re-lock would fire again.
        replaying = true
        for held in since { _ = tap(at: held) }
        replaying = false
        self.undo = nil
        return tap(at: time)
    }

    /// Three intervals in a row of about two or three periods, or of about half a period:
    /// the tempo has halved, slowed to a third, or doubled. (A run of three skipped beats is
    /// as rare as the halving is clear; after a doubling every other tap lands on the old
    /// grid, so the grid alone would not see it.) Judged on every tap, on the grid or not.
    private mutating func relockOnMultiple(_ recentIntervals: [Double], period: Double) -> TempoReading? {
        for (low, high) in [(1.5, 2.5), (2.5, 3.5), (0.38, 0.62)]
        where !recentIntervals.isEmpty && recentIntervals.allSatisfy({ (low * period...high * period).contains($0) }) {
            // Only a slowing can be a chance run of skips, so only it may be taken back.
            if let relocked = relock(on: recent, undoable: low >= 1.5) { return relocked }
        }
        return nil
    }

    /// Held-back taps that agree with this one: on a new period, re-lock on them; on the
    /// current one, they were good taps after all (a noisy early estimate held them back).
    /// Nil if they do not agree, or if nothing here settles them.
    private mutating func resolveHeldBack(at time: Double, last: (time: Double, beat: Int), period: Double) -> TempoReading? {
        guard let agreed = agreeingPeriod(through: time, last: last.time) else { return nil }
        if let skipped = keepSkippedPair(at: time, last: last, agreed: agreed, period: period) { return skipped }
        // A change needs the newest interval itself off the period: a stray interval and
        // its partial recovery (0.87 then 0.96 periods) agree often enough by chance.
        if abs(agreed - period) > changeThreshold(intervals: 2, period: period),
           abs(time - pending.last! - period) > 2 * intervalSD(period) {
            if let relocked = relock(on: ([last.time] + pending + [time]).suffix(3)) { return relocked }
        }
        if let first = pending.first, abs(first - last.time - period) <= tolerance(beats: 1, period: period) {
            for (offset, held) in (pending + [time]).enumerated() { taps.append((held, last.beat + offset + 1)) }
            pending.removeAll()
            trimAndFit()
            return reading(reset: false)
        }
        if pending.count >= 2 { return reanchor(on: Array((pending + [time]).suffix(3)), period: period) }
        return nil
    }

    /// Two intervals of the same whole number of beats after one held-back tap: skips
    /// (two beats each are accepted anyway; three each are rarer but no change yet).
    private mutating func keepSkippedPair(at time: Double, last: (time: Double, beat: Int), agreed: Double, period: Double) -> TempoReading? {
        let multiple = (agreed / period).rounded()
        guard pending.count == 1, taps.count >= 3, (2...3).contains(multiple),
              [pending[0] - last.time, time - pending[0]].allSatisfy({ abs($0 - multiple * period) <= tolerance(beats: Int(multiple), period: period) }) else { return nil }
        taps.append((pending[0], last.beat + Int(multiple)))
        taps.append((time, last.beat + 2 * Int(multiple)))
        pending.removeAll()
        trimAndFit()
        return reading(reset: false)
    }

    /// Three held-back taps one period apart that do not fit the grid: either a kept
    /// tap near the end was itself astray (a mis-tap that happened to look like a
    /// skip), or the person moved the phase. Drop up to two kept taps to find an
    /// anchor the run fits; failing that, start again from the run.
    private mutating func reanchor(on run: [Double], period: Double) -> TempoReading? {
        for dropped in 0...min(2, taps.count - 1) {
            let anchor = taps[taps.count - 1 - dropped]
            let beats = ((run[0] - anchor.time) / period).rounded()
            guard (1...Double(2 + 2 * dropped)).contains(beats),
                  abs(run[0] - anchor.time - beats * period) <= tolerance(beats: Int(beats), period: period) else { continue }
            taps.removeLast(dropped)
            for (offset, held) in run.enumerated() { taps.append((held, anchor.beat + Int(beats) + offset)) }
            pending.removeAll()
            trimAndFit()
            return reading(reset: false)
        }
        return relock(on: run)
    }

    /// A tap a whole number of periods after the last kept one is kept; nil if off the grid.
    private mutating func keepOnGrid(at time: Double, last: (time: Double, beat: Int), period: Double) -> TempoReading? {
        let gap = time - last.time
        // After held-back taps the last kept tap may be a few beats back.
        let beats = (gap / period).rounded()
        // A skip needs a period to skip: with one interval, a longer one is held back (the
        // first interval may have been the odd one).
        let mostBeats: Double = taps.count < 3 ? 1 : pending.isEmpty ? 2 : 4
        guard (1...mostBeats).contains(beats) && abs(gap - beats * period) <= tolerance(beats: Int(beats), period: period) else { return nil }
        pending.removeAll()
        taps.append((time, last.beat + Int(beats)))
        if let relocked = relockOnSmallChange(period: period) { return relocked }
        trimAndFit()
        return reading(reset: false)
    }

    /// Four single-beat intervals in a row that agree with each other and together sit
    /// well off the period: a change too small to leave the grid. Re-lock on their last
    /// three taps (the first of the five may be the old tempo's). Conservative, as runs
    /// of short or long intervals happen by chance in a person's timing.
    private mutating func relockOnSmallChange(period: Double) -> TempoReading? {
        let lastFive = taps.suffix(5)
        guard lastFive.count == 5, lastFive.last!.beat - lastFive.first!.beat == 4 else { return nil }
        let intervals = zip(lastFive.dropFirst(), lastFive).map { $0.time - $1.time }
        let mean = intervals.reduce(0, +) / 4
        guard intervals.max()! - intervals.min()! <= agreement(mean), abs(mean - period) > 4 / 3 * changeThreshold(intervals: 4, period: period) else { return nil }
        return relock(on: lastFive.suffix(3).map(\.time))
    }

    /// Off the grid: do the last three intervals of all taps agree on another period (a
    /// doubling whose middle tap was taken for a stray one)?
    private mutating func relockOnRecentAgreement(_ recentIntervals: [Double], period: Double) -> TempoReading? {
        guard let shortest = recentIntervals.min(), let longest = recentIntervals.max() else { return nil }
        let mean = recentIntervals.reduce(0, +) / 3
        guard longest - shortest <= agreement(mean), abs(mean - period) > changeThreshold(intervals: 3, period: period),
              (shortestPeriod * 0.95...longestPeriod * 1.05).contains(mean) else { return nil }
        return relock(on: recent.suffix(3))
    }

    /// Holds back a tap off the grid. Six taps in a row off the grid: the lock is lost. Start
    /// again from the last two taps an interval in range apart (not a double tap), or from
    /// this tap alone.
    private mutating func holdBack(_ time: Double) -> TempoReading {
        pending.append(time)
        guard pending.count >= 6 else { return reading(reset: false) }
        if let start = (1..<pending.count).last(where: { (shortestPeriod * 0.95...longestPeriod * 1.05).contains(pending[$0] - pending[$0 - 1]) }),
           let relocked = relock(on: pending[(start - 1)...start]) {
            return relocked
        }
        restart(at: time)
        return reading(reset: true)
    }

    /// How far the mean of `intervals` new intervals must be from the period to be a change of
    /// tempo rather than noise: three SDs of the difference.
    private func changeThreshold(intervals: Int, period: Double) -> Double {
        let sd = intervalSD(period)
        let kept = Double(max(1, taps.count - 1))
        return 3 * (sd * sd / Double(intervals) + sd * sd / kept).squareRoot()
    }

    /// How far apart two intervals near `period` may be and still agree.
    private func agreement(_ period: Double) -> Double { max(tolerance * period, 3.5 * 2.squareRoot() * intervalSD(period)) }

    /// How far (seconds) an interval of `beats` beats may be from `beats` periods: the person's
    /// own variability, plus the uncertainty of a period estimated from few intervals.
    private func tolerance(beats: Int, period: Double) -> Double {
        let intervals = Double(max(1, taps.count - 1))
        return gridTolerance(period) * Double(beats).squareRoot() + 3 * Double(beats) * intervalSD(period) / intervals.squareRoot()
    }

    /// Starts a new history on `points`, one beat apart (a change of tempo), keeping the old
    /// one for a tap if `undoable`. Nil, and nothing changed, if their tempo is out of range
    /// or the taps since an undone re-lock are being replayed.
    private mutating func relock(on points: some Collection<Double>, undoable: Bool = false) -> TempoReading? {
        let points = Array(points)
        guard !replaying, points.count >= 2,
              (shortestPeriod * 0.95...longestPeriod * 1.05).contains((points.last! - points[0]) / Double(points.count - 1)) else { return nil }
        if undoable, let period { undo = (taps, period, standardError, tolerance(beats: 1, period: period)) }
        taps = points.enumerated().map { ($0.element, $0.offset) }
        pending.removeAll()
        fit()
        return reading(reset: true)
    }

    private mutating func trimAndFit() {
        if taps.count > window { taps.removeFirst(taps.count - window) }
        fit()
    }

    /// The period two consecutive, agreeing intervals among the held-back taps and `time` give,
    /// if it is within range.
    private func agreeingPeriod(through time: Double, last: Double) -> Double? {
        guard !pending.isEmpty else { return nil }
        let points = [last] + pending + [time]
        let a = points[points.count - 2] - points[points.count - 3]
        let b = points[points.count - 1] - points[points.count - 2]
        guard abs(a - b) <= agreement((a + b) / 2) else { return nil }
        let period = (a + b) / 2
        return (shortestPeriod * 0.95...longestPeriod * 1.05).contains(period) ? period : nil
    }

    private mutating func restart(at time: Double) {
        reset()
        taps = [(time, 0)]
        recent = [time]
    }

    /// The generalized-least-squares period of the kept intervals and its standard error.
    private mutating func fit() {
        let count = taps.count - 1
        guard count >= 1 else { return }
        var gaps = [Double](repeating: 0, count: count), intervals = gaps
        for index in 0..<count {
            gaps[index] = Double(taps[index + 1].beat - taps[index].beat)
            intervals[index] = taps[index + 1].time - taps[index].time
        }
        // Σ = diag(g + 2ρ) − ρ on the off-diagonals, in units of the timer variance, with
        // ρ = σm² / (cv·P)² at the current period.
        let scale = timerCV * intervals.reduce(0, +) / gaps.reduce(0, +)
        guard scale > 0 else { return }  // taps at one instant: no period to fit
        let motorRatio = motorSD * motorSD / (scale * scale)
        let diagonal = gaps.map { $0 + 2 * motorRatio }
        let x = solveTridiagonal(diagonal: diagonal, off: -motorRatio, rightSide: gaps)
        let information = zip(x, gaps).reduce(0) { $0 + $1.0 * $1.1 }
        let estimate = zip(x, intervals).reduce(0) { $0 + $1.0 * $1.1 } / information
        period = estimate
        guard count >= 2 else {
            standardError = .infinity
            return
        }
        let residuals = zip(intervals, gaps).map { $0 - estimate * $1 }
        let y = solveTridiagonal(diagonal: diagonal, off: -motorRatio, rightSide: residuals)
        let variance = zip(y, residuals).reduce(0) { $0 + $1.0 * $1.1 } / Double(count - 1)
        standardError = (max(variance, 0) / information).squareRoot()
    }

    private func reading(reset: Bool) -> TempoReading {
        guard let period, period > 0 else { return TempoReading(bpm: nil, confidence: 0, tapsUsed: taps.count, reset: reset) }
        // 1 for a perfectly steady history, 0 once the period's standard error reaches 2 %.
        let confidence = standardError.isFinite ? max(0, 1 - standardError / (0.02 * period)) : 0
        // Within the range, always (a fit of noisy taps near its ends may stray just beyond).
        return TempoReading(bpm: min(max(60 / period, minimumBPM), maximumBPM), confidence: confidence, tapsUsed: taps.count, reset: reset)
    }
}

/// Solves a symmetric tridiagonal system with constant off-diagonal `off` (Thomas algorithm).
func solveTridiagonal(diagonal: [Double], off: Double, rightSide: [Double]) -> [Double] {
    let n = diagonal.count
    var c = [Double](repeating: 0, count: n), d = c
    var denominator = diagonal[0]
    c[0] = off / denominator
    d[0] = rightSide[0] / denominator
    for index in 1..<max(n, 1) {
        denominator = diagonal[index] - off * c[index - 1]
        c[index] = off / denominator
        d[index] = (rightSide[index] - off * d[index - 1]) / denominator
    }
    var x = d
    if n >= 2 {
        for index in stride(from: n - 2, through: 0, by: -1) { x[index] = d[index] - c[index] * x[index + 1] }
    }
    return x
}
