// swift-tools-version:6.0
// libFuzzer targets for TapKit's parsers and audio reader (Docs/fuzzing.md). A package of
// its own, so that `swift build` and `swift test` of TapKit never see executables without a
// `main`, and the instrumented build lives in Fuzz/.build, apart from the normal one.
// Build (what `make fuzz` runs):
//   swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
import PackageDescription

let names = ["timestamps", "play-order", "track-list", "program", "audio", "numbers"]

let package = Package(
    name: "TapKitFuzz",
    dependencies: [.package(name: "TapKit", path: "..")],
    targets: [.target(name: "FuzzDriver")] + names.map { name in
        .executableTarget(name: "fuzz-\(name)",
                          dependencies: ["FuzzDriver", .product(name: "TapFuzzChecks", package: "TapKit")])
    },
    swiftLanguageModes: [.v6]
)
