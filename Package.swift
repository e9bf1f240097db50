// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "TapKit",
    products: [
        .library(name: "TapKit", targets: ["TapKit"]),
        .executable(name: "tapkit", targets: ["tapkit"]),
        // The fuzz targets' checks, for the separate package in Fuzz/ (Docs/fuzzing.md).
        .library(name: "TapFuzzChecks", targets: ["TapFuzzChecks"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-atomics", from: "1.2.0"),
    ],
    targets: [
        // System-library shims: a module map and one header each, nothing else.
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile",
                       providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CJack", pkgConfig: "jack",
                       providers: [.apt(["libjack-jackd2-dev"])]),

        // Analysis layers (see ../shared/DESIGN.md).
        .target(name: "TapAudio", dependencies: ["CSndFile", .product(name: "Atomics", package: "swift-atomics")]),
        .target(name: "TapStatistics"),
        .target(name: "TapMatching"),
        .target(name: "TapOnsets", dependencies: ["TapAudio"]),
        .target(name: "TapData", dependencies: ["TapAudio"]),
        .target(name: "TapSim", dependencies: ["TapAudio", "TapData", "TapKit"]),
        .target(name: "TapKit", dependencies: [
            "TapAudio", "TapOnsets", "TapMatching", "TapStatistics", "TapData",
        ]),
        .target(name: "TapMetronome", dependencies: [
            "TapAudio", "TapData", "TapStatistics", .product(name: "Atomics", package: "swift-atomics"),
        ]),
        .target(name: "TapTempo", dependencies: ["TapStatistics"]),
        // Collection.
        .target(name: "TapCapture", dependencies: [
            "TapAudio", "TapData", "TapMetronome", "CJack", .product(name: "Atomics", package: "swift-atomics"),
        ]),

        .executableTarget(name: "tapkit", dependencies: [
            "TapKit", "TapSim", "TapCapture", "TapMetronome", "TapTempo",
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
        .testTarget(name: "TapOnsetsTests", dependencies: ["TapOnsets", "TapSim"]),
        .testTarget(name: "TapDataTests", dependencies: ["TapData", "TapFuzzChecks"]),
        .testTarget(name: "TapSimTests", dependencies: ["TapSim", "TapOnsets"]),
        .testTarget(name: "TapKitTests", dependencies: ["TapKit", "TapSim", "tapkit", "TapTestSupport"]),
        .testTarget(name: "TapMetronomeTests", dependencies: ["TapMetronome", "TapAudio", "TapStatistics", "tapkit", "TapTestSupport", "TapFuzzChecks"]),
        .testTarget(name: "TapTempoTests", dependencies: ["TapTempo", "TapStatistics", "TapTestSupport", "tapkit"]),
        .testTarget(name: "TapCaptureTests", dependencies: ["TapCapture", "CJack", "TapAudio", "tapkit", "TapTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
