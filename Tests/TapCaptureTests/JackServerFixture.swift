import Foundation
import TapCapture

/// A real `jackd` with the dummy driver (no sound card), under a unique server name, for the
/// length of a test. It is started through `setpriv --pdeathsig KILL`, so the kernel kills it
/// if the test process dies first: no server outlives a test run.
final class JackServerFixture {
    let name: String
    private let process = Process()

    init(captureChannels: Int = 2, playbackChannels: Int = 2, rate: Int = 48_000, period: Int = 128) throws {
        name = "tapkit-test-\(UUID().uuidString.prefix(8))"
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--pdeathsig", "KILL", "jackd", "--no-realtime", "-n", name, "-d", "dummy", "-r", String(rate),
                             "-p", String(period), "-C", String(captureChannels), "-P", String(playbackChannels)]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait until it accepts clients (it takes a few hundred milliseconds).
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if (try? JackClient(name: "probe", serverName: name)) != nil { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        process.terminate()
        throw JackError.serverNotRunning(server: name)
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }
}

/// Runs the `tapkit` binary built beside the tests.
func runTapKit(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tapkit")
    let fallback = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/debug/tapkit")
    let process = Process()
    process.executableURL = FileManager.default.isExecutableFile(atPath: binary.path) ? binary : fallback
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
}
