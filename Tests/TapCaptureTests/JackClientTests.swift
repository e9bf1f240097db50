import TapTestSupport
import Foundation
import Testing
import TapCapture

/// Every test that talks to a JACK server, one at a time: libjack keeps process-wide state,
/// and clients of several servers alive at once in one process crashed it.
@Suite(.serialized) struct JackTests {}

extension JackTests {
    @Test func seesTheServersRateAndPeriodAndPorts() throws {
        let server = try JackServerFixture(captureChannels: 2, playbackChannels: 2, rate: 48_000, period: 128)
        let client = try JackClient(serverName: server.name)
        #expect(client.sampleRate == 48_000)
        #expect(client.periodFrames == 128)
        let ports = client.ports()
        #expect(ports.filter { $0.isSource }.map(\.name) == ["system:capture_1", "system:capture_2"])
        #expect(ports.filter { !$0.isSource }.map(\.name) == ["system:playback_1", "system:playback_2"])
        #expect(ports.allSatisfy { $0.kind == .audio && $0.isPhysical })
    }

    @Test func readsWhatTheServerReallyHas() throws {
        let server = try JackServerFixture(captureChannels: 3, playbackChannels: 5, rate: 44_100, period: 256)
        let client = try JackClient(serverName: server.name)
        #expect(client.sampleRate == 44_100)
        #expect(client.periodFrames == 256)
        #expect(client.ports().filter(\.isSource).count == 3)
        #expect(client.ports().filter { !$0.isSource }.count == 5)
        #expect(try client.port(named: "system:capture_3").isSource)
        #expect(throws: JackError.noSuchPort(name: "system:capture_9")) { try client.port(named: "system:capture_9") }
    }

    @Test func noServerIsAClearError() {
        let name = "tapkit-absent-\(UUID().uuidString.prefix(8))"
        do {
            _ = try JackClient(serverName: name)
            Issue.record("connected to a server that does not exist")
        } catch {
            #expect(error == .serverNotRunning(server: name))
            #expect(error.description.contains("jackd -n \(name) -d dummy"))
        }
    }

    @Test func devicesCommandListsPortsAndFailsWithoutAServer() throws {
        let server = try JackServerFixture()
        let listed = try runTapKit(["devices", "--server", server.name, "--format", "csv"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.split(separator: "\n") == [
            "port,kind,direction,physical", "system:capture_1,audio,source,yes", "system:capture_2,audio,source,yes",
            "system:playback_1,audio,sink,yes", "system:playback_2,audio,sink,yes",
        ])
        let missing = try runTapKit(["devices", "--server", "tapkit-absent-\(UUID().uuidString.prefix(8))"])
        #expect(missing.status == 1)
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderr.contains("no JACK server"))
    }
}
