// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "TapKit",
    products: [
        // What a script links: the analysis (TapKit re-exports TapAudio, TapData, TapMatching,
        // TapOnsets, TapStatistics), and the lab modules on their own.
        .library(name: "TapKit", targets: ["TapKit"]),
        .library(name: "TapTempo", targets: ["TapTempo"]),
        .library(name: "TapMetronome", targets: ["TapMetronome"]),
        .library(name: "TapCapture", targets: ["TapCapture"]),
        .library(name: "TapInput", targets: ["TapInput"]),
        .library(name: "TapSim", targets: ["TapSim"]),
        .executable(name: "tapkit", targets: ["tapkit"]),
        // The fuzz targets' checks, for the separate package in Fuzz/ (Docs/fuzzing.md).
        .library(name: "TapFuzzChecks", targets: ["TapFuzzChecks"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-atomics", from: "1.2.0"),
        // `swift package generate-documentation` (make docs): the DocC catalogs build in CI.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // System-library shims: a module map and one header each, nothing else.
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile",
                       providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CJack", pkgConfig: "jack",
                       providers: [.apt(["libjack-jackd2-dev"])]),
        // Single precision (libfftw3f); Debian's libfftw3-dev ships it with fftw3f.pc.
        .systemLibrary(name: "CFFTW", pkgConfig: "fftw3f",
                       providers: [.apt(["libfftw3-dev"])]),

        // Analysis layers (Docs/architecture.md).
        .target(name: "TapAudio", dependencies: ["CSndFile", .product(name: "Atomics", package: "swift-atomics")]),
        .target(name: "TapStatistics"),
        .target(name: "TapMatching"),
        .target(name: "TapOnsets", dependencies: ["TapAudio", "TapStatistics", "CFFTW"]),
        .target(name: "TapData", dependencies: ["TapAudio"]),
        .target(name: "TapSim", dependencies: ["TapAudio", "TapData", "TapStatistics"]),
        // The robustness corpus: TapSim tasks with processing and sounds the detector never saw.
        .target(name: "TapCorpus", dependencies: ["TapSim", "TapAudio", "TapData", "TapStatistics"]),
        // The pipeline's accuracy against simulated truth: the only place analysis meets the simulator.
        .target(name: "TapAccuracy", dependencies: ["TapLatency", "TapData", "TapStatistics", "TapSim"]),
        // The latency pipeline over a data folder, and its report schema.
        .target(name: "TapLatency", dependencies: [
            "TapAudio", "TapOnsets", "TapMatching", "TapStatistics", "TapData",
        ]),
        // The umbrella scripts link: re-exports only.
        .target(name: "TapKit", dependencies: [
            "TapAudio", "TapOnsets", "TapMatching", "TapStatistics", "TapData", "TapLatency",
        ]),
        .target(name: "TapMetronome", dependencies: [
            "TapAudio", "TapData", "TapStatistics", .product(name: "Atomics", package: "swift-atomics"),
        ]),
        .target(name: "TapTempo", dependencies: ["TapStatistics"]),
        // Collection. Tap inputs need no JACK: reading keys links no audio server.
        .target(name: "TapInput", dependencies: [.product(name: "Atomics", package: "swift-atomics")]),
        .target(name: "TapCapture", dependencies: [
            "TapAudio", "TapData", "TapInput", "TapMetronome", "CJack", .product(name: "Atomics", package: "swift-atomics"),
        ]),

        .executableTarget(name: "tapkit", dependencies: [
            "TapKit", "TapAudio", "TapData", "TapSim", "TapAccuracy", "TapInput", "TapCapture", "TapMetronome", "TapTempo",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // The maintainers' benchmarks and evaluation tables (make bench), not shipped.
        .executableTarget(name: "tapkit-bench", dependencies: [
            "TapAudio", "TapCapture", "TapMetronome", "TapTempo", "TapCorpus", "TapOnsets", "TapLatency", "TapData", "TapStatistics",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // What the fuzz targets check, shared by Fuzz/Package.swift's libFuzzer executables and
        // the regression tests that replay Fuzz/corpus and Fuzz/regressions.
        .target(name: "TapFuzzChecks", dependencies: ["TapAudio", "TapData", "TapMetronome"], path: "Fuzz/Checks"),

        // Helpers shared by the test targets (seeded generator, running the CLI).
        .target(name: "TapTestSupport", path: "Tests/TapTestSupport"),
        .testTarget(name: "TapAudioTests", dependencies: ["TapAudio", "TapTestSupport", "TapFuzzChecks"]),
        .testTarget(name: "TapStatisticsTests", dependencies: ["TapStatistics", "TapTestSupport"]),
        .testTarget(name: "TapMatchingTests", dependencies: ["TapMatching", "TapTestSupport"]),
        .testTarget(name: "TapOnsetsTests", dependencies: ["TapOnsets", "TapAudio", "TapSim", "TapStatistics", "TapTestSupport"]),
        .testTarget(name: "TapDataTests", dependencies: ["TapData", "TapFuzzChecks"]),
        .testTarget(name: "TapSimTests", dependencies: ["TapSim", "TapOnsets"]),
        .testTarget(name: "TapKitTests", dependencies: ["TapKit", "TapAudio", "TapSim", "TapAccuracy", "TapCorpus", "tapkit", "TapTestSupport"]),
        .testTarget(name: "TapMetronomeTests", dependencies: ["TapMetronome", "TapAudio", "TapStatistics", "tapkit", "TapTestSupport", "TapFuzzChecks"]),
        .testTarget(name: "TapTempoTests", dependencies: ["TapTempo", "TapStatistics", "TapTestSupport", "tapkit", "tapkit-bench"]),
        .testTarget(name: "TapCaptureTests", dependencies: ["TapCapture", "TapInput", "CJack", "TapAudio", "TapData", "TapMetronome", "tapkit", "TapTestSupport"]),
        .testTarget(name: "TapInputTests", dependencies: ["TapInput"]),
        .testTarget(name: "TapCorpusTests", dependencies: ["TapCorpus", "TapAudio", "TapSim"]),
    ],
    swiftLanguageModes: [.v6]
)
