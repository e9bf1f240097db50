import Foundation
import TapCapture
import TapTestSupport

/// A real `jackd` with the dummy driver (no sound card), under a unique server name, for the
/// length of a test. It is started through `setpriv --pdeathsig KILL`, so the kernel kills it
/// if the test process dies first: no server outlives a test run.
final class JackServerFixture {
    let name: String
    private let process = Process()

    init(captureChannels: Int = 2, playbackChannels: Int = 2, rate: Int = 48_000, period: Int = 128) throws {
        // CPU-heavy tests wait while a server runs (see CPUShare).
        CPUShare.beginTiming()
        name = "tapkit-test-\(UUID().uuidString.prefix(8))"
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--pdeathsig", "KILL", "jackd", "--no-realtime", "-n", name, "-d", "dummy", "-r", String(rate),
                             "-p", String(period), "-C", String(captureChannels), "-P", String(playbackChannels)]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch {
            CPUShare.endTiming()
            holdsTiming = false
            throw error
        }
        // Wait until it accepts clients (it takes a few hundred milliseconds).
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if (try? JackClient(name: "probe", serverName: name)) != nil { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        process.terminate()
        releaseTiming()
        throw JackError.serverNotRunning(server: name)
    }

    private var holdsTiming = true

    private func releaseTiming() {
        guard holdsTiming else { return }
        holdsTiming = false
        CPUShare.endTiming()
    }

    /// Stops the server now (as if it crashed under the client).
    func kill() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit {
        kill()
        releaseTiming()
    }
}
