import Testing
import TapTempo

@Suite struct EvaluationTests {
    /// The TapKit estimator beats the classic recipe on RMSE in every condition, and re-locks
    /// within three taps after every switch (95th percentile).
    @Test func tapKitBeatsTheClassicRecipe() {
        let rows = TapTempoEvaluation.run(trials: 1_000)
        print(TapTempoEvaluation.markdown(rows))
        for row in rows where row.estimator == .tapKit {
            let classic = rows.first { $0.estimator == .classic && $0.bpm == row.bpm && $0.condition == row.condition }!
            for n in [4, 8, 16] {
                #expect(row.rmse[n]! < classic.rmse[n]!, "\(row.bpm) BPM \(row.condition) after \(n): \(row.rmse[n]!) vs classic \(classic.rmse[n]!)")
            }
            if let relock = row.relock95 { #expect(relock <= 3, "\(row.bpm) BPM \(row.condition): 95th percentile re-lock \(relock) taps") }
        }
    }
}
