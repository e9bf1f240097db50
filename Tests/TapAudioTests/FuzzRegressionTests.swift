import Testing
import TapFuzzChecks

/// Replays every stored fuzz input of the audio reader (the seed corpus in Fuzz/corpus and
/// every crasher found, Fuzz/regressions) through the fuzz targets' own checks: no crash,
/// no broken invariant. Docs/fuzzing.md.
@Suite struct FuzzRegressionTests {
    @Test(arguments: [FuzzTarget.audio])
    func storedInputsKeepTheInvariants(_ target: FuzzTarget) {
        #expect(target.storedInputProblems() == [])
    }
}
