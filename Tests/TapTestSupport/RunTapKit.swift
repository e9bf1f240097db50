import Foundation

/// What a run of the `tapkit` command printed and returned.
public struct CommandResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

/// The package root (two folders above this file's folder).
public let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

/// The `tapkit` executable SwiftPM built beside the test bundle.
public let tapkitBinary: String = builtExecutable("tapkit")

/// The maintainers' `tapkit-bench` executable, built beside the test bundle.
public let tapkitBenchBinary: String = builtExecutable("tapkit-bench")

/// An executable product SwiftPM built beside the test bundle.
func builtExecutable(_ name: String) -> String {
    let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    var candidates = [besideTests.appendingPathComponent(name).path]
    // Bundles on some platforms nest the test binary a few levels deep.
    var directory = besideTests
    for _ in 0..<4 {
        directory = directory.deletingLastPathComponent()
        candidates.append(directory.appendingPathComponent(name).path)
    }
    candidates.append(packageRoot + "/.build/debug/" + name)
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates.last!
}

/// Runs `tapkit` with arguments and collects its output; `input` becomes its standard input
/// (the test's own by default).
public func runTapKit(_ arguments: [String], input: Pipe? = nil, binary: String = tapkitBinary) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    if let input { process.standardInput = input }
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
