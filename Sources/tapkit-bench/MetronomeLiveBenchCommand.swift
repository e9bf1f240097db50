import ArgumentParser
import Foundation
import TapMetronome

/// Measures the live metronome's render call (Scripts/bench runs it).
struct MetronomeLiveBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metronome-live",
        abstract: "Time LiveMetronome.render(into:) per period at 120 BPM in 4/4.")

    @Option(help: "Seconds of metronome rendered per row.")
    var seconds = 600.0

    func run() throws {
        print("| period (frames) | subdivisions | mean render (µs) | p99 (µs) | max (µs) |")
        print("|---|---|---|---|---|")
        for period in [64, 128, 256] {
            for subdivisions in [[], Array(2...9)] {
                var settings = MetronomeSettings(tempo: Rational(120), meter: Meter(4, 4)!)
                for subdivision in subdivisions { settings.subdivisions[subdivision] = 1 }
                let cost = try measureLiveRenderCost(settings: settings, sampleRate: 48_000, blockSize: period, seconds: seconds)
                print(String(format: "| %d | %@ | %.2f | %.2f | %.1f |", period,
                             subdivisions.isEmpty ? "none" : "2–9", cost.meanMicroseconds, cost.p99, cost.max))
            }
        }
    }
}
