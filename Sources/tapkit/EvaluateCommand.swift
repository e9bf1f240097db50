import ArgumentParser
import Foundation
import TapKit
import TapSim
import TapAccuracy

struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Compare `tapkit latency` on a simulated folder with its truth.json.",
        discussion: """
            Per task: recall of audible taps (onset within ±10 ms of the true start), precision of \
            the onsets matching kept, the onset timing error (median and SD, ms), and the error of \
            the estimated latency mean and SD against the truth (ms).
            """)

    @Argument(help: "A folder written by `tapkit simulate`.")
    var folder: String

    @Option(help: "Output format: table, csv or json.")
    var format = OutputFormat.table

    @Option(help: "Tasks analysed in parallel (default: one per core).")
    var jobs = ProcessInfo.processInfo.activeProcessorCount

    @OptionGroup var onsetOptions: OnsetOptions

    @OptionGroup var provenanceOption: ProvenanceOption

    func run() throws {
        try provenanceOption.check(inputs: folderEntries(folder))
        let truth: SimulationTruthDocument
        do { truth = try SimulationTruthDocument.read(folder: folder) } catch {
            printError("error: \(folder)/\(SimulationTruthDocument.fileName): cannot read the simulation truth (\(error.localizedDescription)); evaluate needs a folder written by `tapkit simulate`")
            throw ExitCode(1)
        }
        let options = try onsetOptions.latencyOptions()
        let report = try analyzeLatency(folder: folder, options: options, jobs: jobs)
        printDiagnostics(report, options: options)
        let accuracies = report.tasks.compactMap { task in
            truth.tasks[task.id.description].map { evaluate(task, against: $0) }
        }
        let summary = AccuracySummary(accuracies)
        switch format {
        case .json:
            // The keys of `tapkit latency`'s document: tasks, overall, errors.
            struct Document: Encodable {
                var tapkit: Provenance
                var tasks: [AccuracyRow]
                var overall: AccuracyRow
                var errors: [ErrorRow]
            }
            printOutput(try renderJSON(Document(tapkit: onsetOptions.provenance(), tasks: summary.tasks, overall: summary.overall,
                                                errors: report.failures.map { ErrorRow(file: $0.path, message: $0.description) })))
        case .csv, .table:
            let rows = summary.rows.map(\.cells)
            printOutput((format == .csv ? renderCSV : renderTable)(AccuracyRow.columns, rows))
        }
        try provenanceOption.write(onsetOptions.provenance(), inputs: folderEntries(folder))
        throw exitStatus(failures: report.failures.count)
    }
}
