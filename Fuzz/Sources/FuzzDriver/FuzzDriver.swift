/// libFuzzer's driver (compiler-rt, linked by `-sanitize=fuzzer`): parses libFuzzer's flags
/// from the command line and calls `callback` with each input.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafeRawPointer?, Int) -> CInt
) -> CInt

/// Runs libFuzzer on `callback`.
///
/// SwiftPM links every executable with `--defsym main=<module>_main` (so tests can link the
/// module), which leaves libFuzzer's own `main` out: each fuzz target defines
/// `<module>_main` and hands over to the driver here.
public func runLibFuzzer(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                         _ callback: @convention(c) (UnsafeRawPointer?, Int) -> CInt) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, callback)
}
