import ArgumentParser
import Foundation
import TapKit

struct LatencyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "latency",
        abstract: "Tap-to-timestamp latency and jitter of every task in a Tap-It data folder.",
        discussion: """
            For each task NNN_TT the timestamps in NNN_TT.txt are matched with the tap sounds \
            detected in the recording NNN_TT.wav (any format libsndfile reads); the latency of a \
            tap is its timestamp minus its acoustic onset. Prints one row per task and an \
            'overall' row over all matched taps. Times are in milliseconds. A task whose figures \
            are doubtful (no onsets, under 50 % of touches matched, drift out of range, clipped \
            recording, recording shorter than its last timestamp) is still analysed, flagged in \
            the 'flags' column and warned about on stderr. The play-order files are checked \
            against the tasks (and a trackList.xml in the folder above); skipped files are \
            listed on stderr.

            When the data folder sits in an experiment folder (the folder above holds \
            trackList.xml, as 'tapkit run' and Tap-It lay it out) or --experiment names one, task \
            NNN_TT heard track TT of the track list from frame 0 of its recording: that stimulus's \
            bleed into the microphone is estimated and subtracted before detection, so the \
            music's own onsets are not taken for taps. A stimulus file that cannot be used \
            (missing, unreadable, too short) is warned about, and that task falls back to the \
            metronome click grid; so does a task whose removal leaves over 10 % of its touches \
            unmatched when the click grid matches over 10 % more (a tapping machine at a fixed \
            delay after each click passes for bleed). --format json says per task what was done \
            ('stimulus_bleed').
            """)

    @Argument(help: "A Tap-It data folder (NNN_TT.txt and NNN_TT.wav files).")
    var folder: String

    @Option(help: "Output format: table, csv or json.")
    var format = OutputFormat.table

    @Flag(help: "Every matched pair (task, touch, onset, latency_ms): with csv or table, the pairs table instead of the task table; with json, a 'pairs' array in each task.")
    var pairs = false

    @Option(help: "Tasks analysed in parallel; the default is one per core.")
    var jobs = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Stimulus bleed removal through each task's stimulus file: auto (when the experiment folder's trackList.xml is found) or off (the metronome click grid alone).")
    var stimulusBleed = StimulusBleedMode.auto

    @Option(help: ArgumentHelp("The experiment folder holding trackList.xml and the stimulus files (default: the folder above the data folder).",
                               valueName: "dir"))
    var experiment: String?

    @OptionGroup var onsetOptions: OnsetOptions

    @OptionGroup var provenanceOption: ProvenanceOption

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        var options = try onsetOptions.latencyOptions()
        options.stimulusBleed = stimulusBleed
        options.experimentFolder = experiment
        let inputs = folderEntries(folder) + (experiment.map(folderEntries) ?? [])
        try provenanceOption.check(inputs: inputs)
        let progress = ProgressLine("analysing tasks")
        let report: FolderLatencyReport
        do {
            report = try analyzeLatency(folder: folder, options: options, jobs: jobs) { done, total in
                progress.update(done: done, total: total)
            }
        } catch {
            progress.finish()
            printError("error: \(error)")
            if format == .json {
                // A script reading the JSON gets a document naming the failure, not nothing.
                var document = LatencyDocument(FolderLatencyReport(unreadableFolder: folder, error: error))
                document.tapkit = onsetOptions.provenance()
                printOutput(try renderJSON(document))
            }
            throw ExitCode(1)
        }
        progress.finish()
        printDiagnostics(report, options: options)

        var document = LatencyDocument(report, includePairs: pairs)
        document.tapkit = onsetOptions.provenance()
        switch format {
        case .json:
            printOutput(try renderJSON(document))
        case .csv, .table:
            // One table per stream: a second table after a blank line is silently misread
            // by CSV readers (pandas takes it for more rows).
            let render = format == .csv ? renderCSV : renderTable
            if pairs {
                printOutput(render(PairRow.columns, document.tasks.flatMap(\.pairCells)))
            } else {
                printOutput(render(LatencyRow.columns, (document.tasks + [document.overall]).map(\.cells)))
            }
        }
        try provenanceOption.write(onsetOptions.provenance(), inputs: inputs)
        throw exitStatus(failures: report.failures.count)
    }
}

/// Everything a folder analysis has to say besides its rows, on stderr: errors, play-order
/// warnings, skipped entries (a warning when the name looks like a task's, else a note),
/// each quality flag of each task, and each stimulus whose bleed was not removed (a warning
/// when the file could not be used, a note when its bleed was not found, not reduced, or its
/// removal was set aside for the click grid's result), and each task detected in a band the
/// detector chose (a note).
func printDiagnostics(_ report: FolderLatencyReport, options: LatencyAnalysisOptions) {
    for failure in report.failures { printError("error: \(failure)") }
    for warning in report.warnings { printError("warning: \(warning)") }
    for skipped in report.skippedFiles { printError("\(skipped.looksLikeTask ? "warning" : "note"): \(skipped)") }
    for task in report.tasks {
        for line in task.flagWarnings(matching: options.matching) { printError("warning: \(line)") }
        let subject = "\(task.audioPath ?? task.id.description): task \(task.id)"
        if let line = task.stimulusBleed?.diagnostic(about: subject) { printError(line) }
        if let band = task.detectionBand { printError("note: \(subject): \(band.message)") }
        if let line = HighBandTaps.message(added: task.highBandTaps) { printError("note: \(subject): \(line)") }
    }
}
