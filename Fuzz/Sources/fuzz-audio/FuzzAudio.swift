import FuzzDriver
import TapFuzzChecks

/// The input callback libFuzzer calls; built only by Fuzz/Package.swift with
/// `-sanitize=fuzzer,address -parse-as-library`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzTarget.audio.fuzz(start, count)
}

/// The entry point SwiftPM links as `main`; it starts libFuzzer's driver.
@_cdecl("fuzz_audio_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv) { start, count in fuzz(start, count) }
}
