import ArgumentParser
import Foundation
import TapCapture

/// Measures the playback-capture process callback (Scripts/bench runs it on a dummy server).
struct CaptureBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract: "Time the playback-capture process callback on a running JACK server.")

    @Option(help: "JACK server name.")
    var server: String?

    @Option(help: "Seconds of playback and capture.")
    var seconds = 10.0

    func run() throws {
        let client: JackClient
        do { client = try JackClient(name: "tapkit-bench", serverName: server) } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(1)
        }
        let frames = Int(seconds * client.sampleRate)
        // A stereo stimulus with a click every half second, played to the driver's outputs
        // while its first input is recorded: the work of a real task.
        var channel = [Float](repeating: 0, count: frames)
        for frame in stride(from: 0, to: frames, by: Int(client.sampleRate / 2)) { channel[frame] = 0.5 }
        let path = NSTemporaryDirectory() + "tapkit-capture-bench-\(getpid()).wav"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sinks = client.ports().filter { !$0.isSource && $0.kind == .audio && $0.isPhysical }.map(\.name)
        let sources = client.ports().filter { $0.isSource && $0.kind == .audio && $0.isPhysical }.map(\.name)
        let report = try PlaybackCapture(client: client).run(
            stimulus: [channel, channel], sampleRate: client.sampleRate, recordingTo: path,
            outputs: Array(sinks.prefix(2)), inputs: Array(sources.prefix(1)))
        let times = report.callbackNanoseconds.map { Double($0) / 1_000 }.sorted()
        guard !times.isEmpty else { throw ExitCode(1) }
        let mean = times.reduce(0, +) / Double(times.count)
        let p99 = times[min(times.count - 1, Int(0.99 * Double(times.count)))]
        print(String(format: "| %d | %d | %.2f | %.2f | %.2f | %d | %d |\n", report.periodFrames, report.cycles,
                           mean, p99, times.last!, report.xruns, report.droppedFrames), terminator: "")
    }
}
