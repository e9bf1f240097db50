import ArgumentParser
import Foundation
import TapKit

struct OnsetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "onsets",
        abstract: "Detect tap onsets in audio recordings.",
        discussion: """
            Prints one row per onset: 'time' is where the transient starts, in seconds from the \
            first frame; 'strength' is its peak short-time power in dBFS after the high-pass; \
            'snr_db' is that power over the local noise floor; 'file' names the recording.
            """)

    @Argument(help: "Audio files (any format libsndfile reads).")
    var files: [String]

    @Option(help: "Output format: table, csv or json.")
    var format = OutputFormat.table

    @OptionGroup var onsetOptions: OnsetOptions

    @OptionGroup var provenanceOption: ProvenanceOption

    func run() throws {
        let configuration = try onsetOptions.detectorConfiguration()
        let channel = try onsetOptions.channelSelection()
        try provenanceOption.check(inputs: files)
        var errors: [ErrorRow] = []
        var results: [(file: String, onsets: [Onset])] = []
        var failures = 0
        for file in files {
            do {
                let detection = try detectTapOnsets(inFile: file, channel: channel, configuration: configuration,
                                                    bleed: onsetOptions.bleed)
                results.append((file, detection.onsets))
            } catch {
                printError("error: \(error)")
                errors.append(ErrorRow(file: file, message: "\(error)"))
                failures += 1
            }
        }
        // `file` whatever the number of inputs, so one script reads the output of one file or many.
        let columns = ["file", "time", "strength", "snr_db"]
        func cells(_ onset: Onset, _ file: String) -> [String] {
            [file, String(format: "%.6f", onset.time), String(format: "%.2f", onset.strength), String(format: "%.2f", onset.snrDB)]
        }
        switch format {
        case .json:
            struct FileOnsets: Encodable {
                var file: String
                var onsets: [Row]
                struct Row: Encodable {
                    var time: Double
                    var strength: Double
                    var snr_db: Double
                }
            }
            struct Document: Encodable {
                var tapkit: Provenance
                var files: [FileOnsets]
                var errors: [ErrorRow]
            }
            let fileOnsets = results.map { result in
                FileOnsets(file: result.file, onsets: result.onsets.map {
                    .init(time: ($0.time * 1e6).rounded() / 1e6, strength: ($0.strength * 100).rounded() / 100,
                          snr_db: ($0.snrDB * 100).rounded() / 100)
                })
            }
            printOutput(try renderJSON(Document(tapkit: onsetOptions.provenance(), files: fileOnsets, errors: errors)))
        case .csv, .table:
            let rows = results.flatMap { result in result.onsets.map { cells($0, result.file) } }
            printOutput((format == .csv ? renderCSV : renderTable)(columns, rows))
        }
        try provenanceOption.write(onsetOptions.provenance(), inputs: files)
        throw exitStatus(failures: failures)
    }
}
