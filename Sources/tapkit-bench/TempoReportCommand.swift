import ArgumentParser
import Foundation
import Synchronization
import TapTempo

/// Regenerates the tap-tempo evaluation tables of Docs/tap-tempo.md.
struct TempoReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tempo-report",
        abstract: "Evaluate the tap-tempo estimators on simulated tappers and print Markdown tables.")

    @Option(help: "Trials per condition.") var trials = 1_000
    @Option(help: "Seed of the simulated tappers.") var seed: UInt64 = 1
    @Option(help: "Tapper noise: typical, unsteady or steady.") var noise = "typical"
    @Option(help: "Tempos, comma-separated.") var tempos = "40,60,90,120,180,240"
    @Option(help: "The timer CV the TapKit estimator assumes.") var assumeTimerCv = 0.03
    @Option(help: "The motor SD (seconds) the TapKit estimator assumes.") var assumeMotorSd = 0.008
    @Flag(help: "Print only the comparison of TapKit with the classic recipe and the median.") var comparisonOnly = false

    func run() throws {
        let levels: [TapTempoEvaluation.TapperNoise] = [.typical, .unsteady, .steady]
        guard let level = levels.first(where: { $0.name == noise }) else { throw ValidationError("--noise must be typical, unsteady or steady") }
        let bpms = tempos.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        // One tempo per core.
        let results = Mutex<[Int: [TapTempoEvaluation.Row]]>([:])
        DispatchQueue.concurrentPerform(iterations: bpms.count) { index in
            let rows = TapTempoEvaluation.run(tempos: [bpms[index]], trials: trials, seed: seed, noise: level,
                                              tracker: TapTempoTracker(timerCV: assumeTimerCv, motorSD: assumeMotorSd))
            results.withLock { $0[index] = rows }
        }
        let rows = results.withLock { all in bpms.indices.flatMap { all[$0]! } }
        if !comparisonOnly { print(TapTempoEvaluation.markdown(rows)) }
        print(TapTempoEvaluation.comparisonMarkdown(rows))
    }
}
