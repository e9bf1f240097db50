import ArgumentParser

/// `tapkit-bench`: the maintainers' tool that regenerates the figures of Docs/performance.md
/// and Docs/tap-tempo.md (`make bench` runs it). Kept out of the shipped `tapkit`, whose
/// commands are for researchers.
@main
struct TapKitBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tapkit-bench",
        abstract: "Benchmarks and evaluation tables for TapKit's maintainers.",
        subcommands: [TempoReportCommand.self, MetronomeLiveBenchCommand.self, CaptureBenchCommand.self,
                      CorpusCommand.self, StimulusBleedBenchCommand.self])
}
