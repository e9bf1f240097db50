import Foundation

/// The evaluation of tap-tempo estimators on simulated tappers (Docs/tap-tempo.md).
public enum TapTempoEvaluation {
    /// The estimators compared.
    public enum Estimator: String, Sendable, CaseIterable {
        case tapKit = "TapKit"
        case classic = "classic"
        case median = "median"
        case interquartileMean = "interquartile mean"

        public func make() -> any TapTempoEstimator {
            switch self {
            case .tapKit: return TapTempoTracker()
            case .classic: return ClassicTapTempo()
            case .median: return IntervalTapTempo(.median)
            case .interquartileMean: return IntervalTapTempo(.interquartileMean)
            }
        }
    }

    /// One estimator in one condition.
    public struct Row: Sendable {
        public var condition: String
        public var bpm: Double
        public var estimator: Estimator
        /// RMSE in BPM after 4, 8 and 16 taps (counted from the switch where there is one).
        public var rmse: [Int: Double]
        /// Taps after a switch until the estimate is within 10 % of the new tempo and stays so
        /// through 16 taps (every switch is 30 % or more, so that is nearer the new tempo than
        /// the old): median and 95th percentile (nil without a switch).
        public var relockMedian: Double?
        public var relock95: Double?
    }

    /// Named conditions at one tempo.
    public static func conditions(bpm: Double) -> [(String, TapperCondition)] {
        var clean = TapperCondition(bpm: bpm)
        clean.beats = 20
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

    /// Runs `trials` trials of every condition at every tempo for every estimator.
    public static func run(tempos: [Double] = [40, 60, 90, 120, 180, 240], trials: Int = 1_000, seed: UInt64 = 1) -> [Row] {
        var rows: [Row] = []
        for bpm in tempos {
            for (conditionIndex, (name, condition)) in conditions(bpm: bpm).enumerated() {
                let runs = (0..<trials).map { condition.simulate(seed: seed &+ UInt64(conditionIndex) << 32 &+ UInt64(bpm) << 20 &+ UInt64($0)) }
                for estimator in Estimator.allCases {
                    var squared: [Int: Double] = [4: 0, 8: 0, 16: 0]
                    var relocks: [Double] = []
                    for run in runs {
                        var tracker = estimator.make()
                        let readings = run.times.map { tracker.tap(at: $0).bpm }
                        let origin = run.firstTapAfterSwitch ?? 0
                        for n in [4, 8, 16] {
                            let index = origin + n - 1
                            guard index < readings.count else { continue }
                            let error = (readings[index] ?? 0) - run.bpm[index]
                            squared[n]! += error * error
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
                    rows.append(Row(condition: name, bpm: bpm, estimator: estimator,
                                    rmse: squared.mapValues { ($0 / Double(trials)).squareRoot() },
                                    relockMedian: relocks.isEmpty ? nil : relocks[relocks.count / 2],
                                    relock95: relocks.isEmpty ? nil : relocks[min(relocks.count - 1, relocks.count * 95 / 100)]))
                }
            }
        }
        return rows
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
}
