import ArgumentParser
import Foundation
import TapKit

/// `--provenance FILE` and `--overwrite`: the `"tapkit"` block of JSON output, written as its
/// own JSON file for runs whose output is CSV or a table, under the one writing rule
/// (``AtomicOutput``).
struct ProvenanceOption: ParsableArguments {
    @Option(help: ArgumentHelp("Also write the run's provenance ({\"tapkit\": {version, command_line, preset, …}}, as in JSON output) to this JSON file.", valueName: "file"))
    var provenance: String?

    @Flag(help: "Replace an existing --provenance file.")
    var overwrite = false

    /// Refuses the path before any work (exit 1), so a refusal costs nothing.
    func check(inputs: [String]) throws {
        guard let provenance else { return }
        do { try AtomicOutput(overwrite: overwrite, inputs: inputs).check([provenance]) } catch {
            printError("error: \(error)")
            throw ExitCode(1)
        }
    }

    /// Writes the block (temporary name, then renamed into place).
    func write(_ block: Provenance, inputs: [String]) throws {
        guard let provenance else { return }
        var files = AtomicOutput(overwrite: overwrite, inputs: inputs)
        // An interruption while the file is written removes its temporary, as for every output.
        let interruption = PendingTemporaries.shared.removeOnInterruption(outputs: [provenance])
        defer { interruption.cancel() }
        do {
            let temporary = try files.temporaryPath(for: provenance)
            try renderJSON(ProvenanceDocument(block)).write(toFile: temporary, atomically: false, encoding: .utf8)
            try PendingTemporaries.shared.committing { try files.commit() }
        } catch {
            files.discard()
            printError("error: " + PendingTemporaries.shared.message(for: error, outputs: [provenance]))
            throw ExitCode(1)
        }
    }
}

/// The entries of a folder, as the inputs an output may not replace.
func folderEntries(_ folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).map { folder.hasSuffix("/") ? folder + $0 : folder + "/" + $0 }
}
