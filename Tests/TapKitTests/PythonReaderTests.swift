import Foundation
import Testing
import TapKit
import TapTestSupport

/// The path of python3 on PATH, or nil.
private let python3: String? = {
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
        let path = String(directory) + "/python3"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
}()

/// Issue 11: every output format, loaded as a script would load it, with Python's standard
/// `csv` and `json` modules: one header row per CSV stream and rows of its width, numbers that
/// parse as float, missing values as empty cells (CSV) and `null` (JSON) and nothing else, and
/// a `"tapkit"` block at the top of every JSON document.
@Suite(.enabled(if: python3 != nil, "python3 is not installed: the outputs are not loaded with Python's csv and json modules"))
struct PythonReaderTests {
    let fixtures = packageRoot + "/Fixtures/data"

    /// Checks each file given as `csv:PATH:COLUMN…` (the columns that must hold at least one
    /// empty cell, the missing values) or `json:PATH:KEY…` (keys that must be null somewhere).
    static let checker = #"""
import csv, json, math, sys

INT = {"frame", "bar", "beat", "subdivision_step", "subdivision_of", "taps_used", "audible_taps"}
BOOL = {"reset", "played"}
TEXT = {"task", "file", "kind", "flags"}
FLOAT = {"time", "strength", "snr_db", "touch", "onset", "drift_ppm", "bpm", "confidence", "recall", "precision",
         "detector_precision", "correct_pairs", "mean_snr_db", "threshold_db", "tap_score"}
NOT_MISSING = {"null", "none", "nan", "na", "n/a", "inf", "-inf", "-"}
problems = []

def kind(name):
    if name in INT or name.startswith("n_"): return "int"
    if name in BOOL: return "bool"
    if name in TEXT: return "text"
    if name in FLOAT or name.endswith("_ms") or name.endswith("_hz"): return "float"
    return None

def check_csv(path, must_be_empty):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows: problems.append(f"{path}: empty"); return
    header = rows[0]
    empty_seen = set()
    for number, row in enumerate(rows[1:], start=2):
        if row == header: problems.append(f"{path}:{number}: a second header row")
        if len(row) != len(header): problems.append(f"{path}:{number}: {len(row)} cells under {len(header)} columns: {row}")
        for name, cell in zip(header, row):
            k = kind(name)
            if k is None: problems.append(f"{path}: column {name} has no known type"); continue
            if cell.strip().lower() in NOT_MISSING: problems.append(f"{path}:{number}: {name} = {cell!r}: a missing value must be empty")
            if cell == "":
                empty_seen.add(name)
                if k in ("int", "bool"): problems.append(f"{path}:{number}: {name} is empty")
                continue
            if k in ("int", "float"):
                try:
                    value = float(cell)
                    if not math.isfinite(value): problems.append(f"{path}:{number}: {name} = {cell!r} is not finite")
                    if k == "int" and int(cell) != value: problems.append(f"{path}:{number}: {name} = {cell!r} is no integer")
                except ValueError:
                    problems.append(f"{path}:{number}: {name} = {cell!r} does not parse as a number")
            if k == "bool" and cell not in ("true", "false"): problems.append(f"{path}:{number}: {name} = {cell!r}")
            if "/" in cell and k != "text": problems.append(f"{path}:{number}: {name} = {cell!r}: a spreadsheet reads it as a date")
    for name in must_be_empty:
        if name not in header: problems.append(f"{path}: no column {name}")
        elif name not in empty_seen: problems.append(f"{path}: column {name} never empty; this output has missing values there")

def reject_constant(name):
    raise ValueError(f"{name} is not JSON")

def check_json(path, must_be_null):
    with open(path) as f:
        try:
            document = json.load(f, parse_constant=reject_constant)
        except ValueError as error:
            problems.append(f"{path}: {error}"); return
    if not isinstance(document, dict): problems.append(f"{path}: the top level is not an object"); return
    block = document.get("tapkit")
    if not isinstance(block, dict) or not isinstance(block.get("version"), str) or not isinstance(block.get("command_line"), list):
        problems.append(f"{path}: no \"tapkit\" block with version and command_line")
    null_seen = set()
    def walk(value, where):
        if isinstance(value, dict):
            for key, item in value.items():
                k = kind(key)
                if item is None: null_seen.add(key)
                elif k in ("float", "int") and key != "threshold_db" and not isinstance(item, (int, float)) and not isinstance(item, list):
                    problems.append(f"{path}: {where}.{key} = {item!r} is not a number")
                elif k == "float" and isinstance(item, (int, float)) and isinstance(item, bool):
                    problems.append(f"{path}: {where}.{key} is a boolean")
                if isinstance(item, str) and item.strip().lower() in NOT_MISSING:
                    problems.append(f"{path}: {where}.{key} = {item!r}: a missing value must be null")
                walk(item, f"{where}.{key}")
        elif isinstance(value, list):
            for index, item in enumerate(value): walk(item, f"{where}[{index}]")
    walk(document, "")
    for key in must_be_null:
        if key not in null_seen: problems.append(f"{path}: {key} never null; this output has missing values there")

for argument in sys.argv[1:]:
    form, path, *names = argument.split("|")
    (check_csv if form == "csv" else check_json)(path, names)
print("\n".join(problems))
sys.exit(1 if problems else 0)
"""#

    func run(_ arguments: [String], to path: String, status: Int32 = 0) throws {
        let result = try runTapKit(arguments)
        #expect(result.status == status, "\(arguments): \(result.stderr)")
        try result.stdout.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func everyOutputLoadsWithPythonsCSVAndJSONModules() throws {
        let folder = TemporaryFolder()
        // A data folder with a silent task beside the fixture's: its statistics are missing.
        let data = folder.file("data")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        for name in ["001_01.txt", "001_01.wav", "001_02.txt"] {
            try FileManager.default.copyItem(atPath: fixtures + "/" + name, toPath: data + "/" + name)
        }
        try Signal(samples: [Float](repeating: 0, count: 44_100 * 8), sampleRate: 44_100).write(to: data + "/001_02.wav")
        try "0 1 ".write(toFile: data + "/001_play_order.txt", atomically: true, encoding: .utf8)
        try "0.0\n0.5\n1.0\n".write(toFile: folder.file("taps.txt"), atomically: true, encoding: .utf8)

        var checks: [String] = []
        for format in ["csv", "json"] {
            let missing = format == "csv" ? "mean_ms|sd_ms|ci95_low_ms|drift_ppm|flags" : "mean_ms|sd_ms|ci95_ms|drift_ppm"
            try run(["latency", data, "--format", format], to: folder.file("latency.\(format)"))
            checks.append("\(format)|\(folder.file("latency.\(format)"))|\(missing)")
            try run(["latency", data, "--format", format, "--pairs"], to: folder.file("pairs.\(format)"))
            checks.append("\(format)|\(folder.file("pairs.\(format)"))")
            try run(["onsets", fixtures + "/001_01.wav", fixtures + "/002_01.wav", "--format", format], to: folder.file("onsets.\(format)"))
            checks.append("\(format)|\(folder.file("onsets.\(format)"))")
            try run(["evaluate", fixtures, "--format", format], to: folder.file("evaluate.\(format)"))
            checks.append("\(format)|\(folder.file("evaluate.\(format)"))|latency_mean_error_ms|latency_sd_error_ms")
            try run(["tempo", "--from", folder.file("taps.txt"), "--format", format], to: folder.file("tempo.\(format)"))
            checks.append("\(format)|\(folder.file("tempo.\(format)"))|bpm")
        }
        let render = try runTapKit(["metronome", "render", "--bpm", "120", "--subdivide", "2,3", "--bars", "2",
                                    "-o", folder.file("click.wav"), "--onsets", folder.file("click.csv")])
        #expect(render.status == 0, "\(render.stderr)")
        checks.append("csv|\(folder.file("click.csv"))")
        let provenance = try runTapKit(["latency", data, "--format", "csv", "--provenance", folder.file("provenance.json")])
        #expect(provenance.status == 0, "\(provenance.stderr)")
        checks.append("json|\(folder.file("provenance.json"))|estimator")

        try Self.checker.write(toFile: folder.file("check.py"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(python3))
        process.arguments = [folder.file("check.py")] + checks
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let report = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(report)")
    }
}
