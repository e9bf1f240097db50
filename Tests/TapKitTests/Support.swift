import Foundation
import Testing

/// The package root, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

/// The `tapkit` executable SwiftPM built beside the test bundle.
let tapkitBinary: String = {
    let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    var candidates = [besideTests.appendingPathComponent("tapkit").path]
    // Bundles on some platforms nest the test binary a few levels deep.
    var directory = besideTests
    for _ in 0..<4 {
        directory = directory.deletingLastPathComponent()
        candidates.append(directory.appendingPathComponent("tapkit").path)
    }
    candidates.append(packageRoot + "/.build/debug/tapkit")
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates.last!
}()

struct CommandResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs `tapkit` with arguments and collects its output.
func runTapKit(_ arguments: [String]) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tapkitBinary)
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read before waiting so a large output cannot fill the pipe and stall the child.
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandResult(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                         stderr: String(decoding: stderr, as: UTF8.self))
}

/// A fresh temporary directory, removed when released.
final class TemporaryFolder {
    let path: String
    init() {
        path = NSTemporaryDirectory() + "tapkit-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    func file(_ name: String) -> String { path + "/" + name }
}

/// Minimal decoding of `tapkit latency --format json`.
struct LatencyJSON: Decodable {
    struct Row: Decodable {
        var task: String
        var n_touches: Int
        var n_onsets: Int
        var n_matched: Int
        var n_unmatched_touches: Int
        var n_unmatched_onsets: Int
        var mean_ms: Double?
        var sd_ms: Double?
        var median_ms: Double?
        var iqr_ms: Double?
        var ci95_ms: [Double]?
        var drift_ppm: Double?
    }
    struct ErrorEntry: Decodable {
        var file: String
        var message: String
    }
    var tasks: [Row]
    var overall: Row
    var errors: [ErrorEntry]
}
