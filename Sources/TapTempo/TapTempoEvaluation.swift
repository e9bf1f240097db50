import Foundation

/// The evaluation of tap-tempo estimators on simulated tappers (Docs/tap-tempo.md).
public enum TapTempoEvaluation {
    /// The estimators compared.
    public enum Estimator: String, Sendable, CaseIterable {
        case tapKit = "TapKit"
        case classic = "classic"
        case median = "median"
        case interquartileMean = "interquartile mean"

        /// A fresh estimator of this kind with its default settings.
        public func make() -> any TapTempoEstimator {
            switch self {
            case .tapKit: return TapTempoTracker()
            case .classic: return ClassicTapTempo()
            case .median: return IntervalTapTempo(.median)
            case .interquartileMean: return IntervalTapTempo(.interquartileMean)
            }
        }
    }

    /// How steady the simulated person is: the two levels of the Wing–Kristofferson model.
    public struct TapperNoise: Sendable, Hashable {
        /// `typical`, `unsteady` or `steady`.
        public var name: String
        /// Timer SD as a fraction of the period.
        public var timerSD: Double
        /// Motor SD, seconds.
        public var motorSD: Double

        /// A named noise level.
        public init(name: String, timerSD: Double, motorSD: Double) {
            self.name = name
            self.timerSD = timerSD
            self.motorSD = motorSD
        }

        /// Typical of adults tapping along (Wing & Kristofferson 1973; Repp 2005).
        public static let typical = TapperNoise(name: "typical", timerSD: 0.025, motorSD: 0.010)
        /// Twice as variable at both levels, as an untrained or distracted person may be.
        public static let unsteady = TapperNoise(name: "unsteady", timerSD: 0.05, motorSD: 0.020)
        /// A steady musician: a small timer variance, so motor noise weighs more.
        public static let steady = TapperNoise(name: "steady", timerSD: 0.012, motorSD: 0.006)
    }

    /// Tap counts after which the error is measured (from the switch where there is one).
    public static let tapCounts = [4, 8, 16]

    /// One estimator in one condition.
    public struct Row: Sendable {
        /// The condition: steady, mis-taps, skips or a switch.
        public var condition: String
        /// The tempo, before any switch.
        public var bpm: Double
        /// The simulated tapper's noise.
        public var noise: TapperNoise
        /// The estimator evaluated.
        public var estimator: Estimator
        /// RMSE in BPM after 4, 8 and 16 taps (counted from the switch where there is one).
        public var rmse: [Int: Double]
        /// Taps after a switch until the estimate is within 10 % of the new tempo and stays so
        /// through 16 taps (every switch is 30 % or more, so that is nearer the new tempo than
        /// the old): median and 95th percentile (nil without a switch).
        public var relockMedian: Double?
        /// The 95th percentile of the same (nil without a switch).
        public var relock95: Double?
        /// Each trial's squared error after 4, 8 and 16 taps, for paired comparisons.
        public var squaredErrors: [Int: [Double]]
    }

    /// One estimator's RMSE against another's on the same taps.
    public struct Comparison: Sendable {
        /// RMSE ratio (below 1: the first is better).
        public var ratio: Double
        /// 95 % confidence interval of the ratio, from the paired trials (delta method on the
        /// log of the mean squared errors).
        public var low: Double
        /// Upper end of the 95 % interval.
        public var high: Double
    }

    /// `row`'s RMSE after `taps` taps against `baseline`'s, trial by trial.
    public static func compare(_ row: Row, with baseline: Row, after taps: Int) -> Comparison {
        let a = row.squaredErrors[taps]!, b = baseline.squaredErrors[taps]!
        let count = Double(a.count)
        let meanA = a.reduce(0, +) / count, meanB = b.reduce(0, +) / count
        guard meanA > 0, meanB > 0 else { return Comparison(ratio: meanA == meanB ? 1 : meanA > 0 ? .infinity : 0, low: 0, high: .infinity) }
        // log(meanA/meanB) ≈ log(μA/μB) + mean(a/μA − b/μB): its SE comes from that mean.
        let u = zip(a, b).map { $0 / meanA - $1 / meanB }
        let meanU = u.reduce(0, +) / count
        let sd = (u.reduce(0) { $0 + ($1 - meanU) * ($1 - meanU) } / (count - 1)).squareRoot()
        let logRatio = log(meanA / meanB), halfWidth = 1.96 * sd / count.squareRoot()
        return Comparison(ratio: exp(logRatio / 2), low: exp((logRatio - halfWidth) / 2), high: exp((logRatio + halfWidth) / 2))
    }

    /// Named conditions at one tempo.
    public static func conditions(bpm: Double, noise: TapperNoise = .typical) -> [(String, TapperCondition)] {
        var clean = TapperCondition(bpm: bpm)
        clean.beats = 20
        clean.timerSD = noise.timerSD
        clean.motorSD = noise.motorSD
        var misTaps = clean
        misTaps.doubleTapRate = 0.05
        misTaps.misTapRate = 0.05
        var skips = clean
        skips.skipRate = 0.1
        var result = [("steady", clean), ("mis-taps", misTaps), ("skips", skips)]
        for (name, factor) in [("switch ×2", 2.0), ("switch ×½", 0.5), ("switch ×1.3", 1.3), ("switch ×0.77", 1 / 1.3)]
        where (30...300).contains(bpm * factor) {
            var switching = clean
            switching.switchFactor = factor
            switching.beats = 8 + 20
            result.append((name, switching))
        }
        return result
    }

    /// Runs `trials` trials of every condition at every tempo for every estimator; `tracker` is
    /// the TapKit estimator as configured (its assumed noise, say).
    public static func run(tempos: [Double] = [40, 60, 90, 120, 180, 240], trials: Int = 1_000, seed: UInt64 = 1,
                           noise: TapperNoise = .typical, estimators: [Estimator] = Estimator.allCases,
                           tracker: TapTempoTracker = TapTempoTracker()) -> [Row] {
        var rows: [Row] = []
        for bpm in tempos {
            for (conditionIndex, (name, condition)) in conditions(bpm: bpm, noise: noise).enumerated() {
                let runs = (0..<trials).map { condition.simulate(seed: seed &+ UInt64(conditionIndex) << 32 &+ UInt64(bpm) << 20 &+ UInt64($0)) }
                for estimator in estimators {
                    rows.append(evaluate(estimator == .tapKit ? tracker : estimator.make(), as: estimator, on: runs, condition: name, bpm: bpm, noise: noise))
                }
            }
        }
        return rows
    }

    static func evaluate(_ fresh: any TapTempoEstimator, as estimator: Estimator, on runs: [SimulatedTaps], condition: String, bpm: Double, noise: TapperNoise) -> Row {
        var squared: [Int: [Double]] = [:]
        for n in tapCounts { squared[n] = [] }
        var relocks: [Double] = []
        for run in runs {
            var tracker = fresh
            let readings = run.times.map { tracker.tap(at: $0).bpm }
            let origin = run.firstTapAfterSwitch ?? 0
            for n in tapCounts {
                let index = origin + n - 1
                guard index < readings.count else { continue }
                let error = (readings[index] ?? 0) - run.bpm[index]
                squared[n]!.append(error * error)
            }
            if let first = run.firstTapAfterSwitch {
                let end = min(readings.count, first + 16)
                var relock = end - first + 1
                for start in first..<end where (start..<end).allSatisfy({ index in readings[index].map { abs($0 / run.bpm[index] - 1) <= 0.10 } ?? false }) {
                    relock = start - first + 1
                    break
                }
                relocks.append(Double(relock))
            }
        }
        relocks.sort()
        return Row(condition: condition, bpm: bpm, noise: noise, estimator: estimator,
                   rmse: squared.mapValues { ($0.reduce(0, +) / Double(max(1, $0.count))).squareRoot() },
                   relockMedian: relocks.isEmpty ? nil : relocks[relocks.count / 2],
                   relock95: relocks.isEmpty ? nil : relocks[min(relocks.count - 1, relocks.count * 95 / 100)],
                   squaredErrors: squared)
    }

    /// The rows as a Markdown table.
    public static func markdown(_ rows: [Row]) -> String {
        var text = "| BPM | condition | estimator | RMSE after 4 | after 8 | after 16 | re-lock taps (median, 95th pct) |\n|---|---|---|---|---|---|---|\n"
        for row in rows {
            let relock = row.relockMedian.map { String(format: "%.0f, %.0f", $0, row.relock95!) } ?? "—"
            text += String(format: "| %.0f | %@ | %@ | %.3f | %.3f | %.3f | %@ |\n", row.bpm, row.condition, row.estimator.rawValue,
                           row.rmse[4] ?? .nan, row.rmse[8] ?? .nan, row.rmse[16] ?? .nan, relock)
        }
        return text
    }

    /// TapKit's RMSE as a fraction of each baseline's, with 95 % confidence intervals, as a
    /// Markdown table (one row per condition).
    public static func comparisonMarkdown(_ rows: [Row], baselines: [Estimator] = [.classic, .median]) -> String {
        var text = "| BPM | condition |"
        var rule = "|---|---|"
        for baseline in baselines {
            for n in tapCounts {
                text += " ÷ \(baseline.rawValue) after \(n) |"
                rule += "---|"
            }
        }
        text += "\n" + rule + "\n"
        for row in rows where row.estimator == .tapKit {
            text += String(format: "| %.0f | %@ |", row.bpm, row.condition)
            for baseline in baselines {
                guard let other = rows.first(where: { $0.estimator == baseline && $0.bpm == row.bpm && $0.condition == row.condition && $0.noise == row.noise }) else { continue }
                for n in tapCounts {
                    let comparison = compare(row, with: other, after: n)
                    text += String(format: " %.4f (%.4f–%.4f) |", comparison.ratio, comparison.low, comparison.high)
                }
            }
            text += "\n"
        }
        return text
    }
}
