import Testing
import TapFuzzChecks

/// Replays every stored fuzz input of the program parser and the schedule (the seed corpus in Fuzz/corpus and
/// every crasher found, Fuzz/regressions) through the fuzz targets' own checks: no crash,
/// no broken invariant. Docs/fuzzing.md.
@Suite struct FuzzRegressionTests {
    @Test(arguments: [FuzzTarget.program])
    func storedInputsKeepTheInvariants(_ target: FuzzTarget) {
        #expect(target.storedInputProblems() == [])
    }
}
