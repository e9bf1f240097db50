import Foundation

/// A program the corpus runs with Foundation's `Process`, and the Debian package that has it.
public enum ExternalTool: String, Sendable, CaseIterable {
    case ffmpeg, sox, fluidsynth
    case espeakNG = "espeak-ng"

    /// The executable's name.
    public var command: String { rawValue }

    /// The Debian package that installs it (`Scripts/install-deps` installs them all).
    public var package: String { rawValue }

    /// Arguments that make it print its version on its first line.
    var versionArguments: [String] {
        switch self {
        case .ffmpeg: ["-version"]
        case .sox, .fluidsynth, .espeakNG: ["--version"]
        }
    }
}

/// What can go wrong while rendering or reading a corpus; every case names the file or tool.
public enum CorpusError: Error, CustomStringConvertible, Equatable {
    /// A program the condition needs is not on `PATH`.
    case missingTool(ExternalTool, condition: String)
    /// A data file a tool needs (the soundfont) is missing.
    case missingFile(path: String, package: String, condition: String)
    /// A program ran and failed.
    case toolFailed(ExternalTool, arguments: [String], status: Int32, message: String)
    /// The output directory already holds files and `overwrite` was not given.
    case directoryNotEmpty(path: String)
    /// A corpus file could not be read or parsed (`line` 0 when not about a line).
    case badFile(path: String, line: Int, reason: String)

    /// The message, naming the tool or file.
    public var description: String {
        switch self {
        case let .missingTool(tool, condition):
            "condition '\(condition)' needs the program '\(tool.command)', which is not on PATH "
                + "(Debian package \(tool.package); Scripts/install-deps installs it)"
        case let .missingFile(path, package, condition):
            "condition '\(condition)' needs \(path), which does not exist (Debian package \(package))"
        case let .toolFailed(tool, arguments, status, message):
            "\(tool.command) \(arguments.joined(separator: " ")) failed with status \(status): \(message)"
        case let .directoryNotEmpty(path):
            "\(path) already holds files; pass --overwrite to replace the corpus in it"
        case let .badFile(path, line, reason):
            line > 0 ? "\(path):\(line): \(reason)" : "\(path): \(reason)"
        }
    }
}

/// Finds and runs the external programs. `searchPath` defaults to the `PATH` of the process;
/// a test passes another to see what happens when a tool is missing.
public struct ExternalTools: Sendable {
    /// Directories searched, in order.
    public var searchPath: [String]

    /// - Parameter path: a `PATH`-style list of directories (default: this process's `PATH`).
    public init(path: String? = ProcessInfo.processInfo.environment["PATH"]) {
        searchPath = (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
    }

    /// The executable's full path, or `missingTool` naming it and the condition.
    public func locate(_ tool: ExternalTool, for condition: CorpusCondition) throws(CorpusError) -> String {
        for directory in searchPath where !directory.isEmpty {
            let candidate = directory + "/" + tool.command
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw .missingTool(tool, condition: condition.name)
    }

    /// Runs `tool` with `arguments`, its standard output discarded. Throws `toolFailed` with
    /// the end of its standard error if it fails.
    func run(_ tool: ExternalTool, _ arguments: [String], for condition: CorpusCondition) throws -> Void {
        let executable = try locate(tool, for: condition)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        // Files, not pipes: a chatty tool can never block on a full pipe.
        let errorPath = NSTemporaryDirectory() + "tapcorpus-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).err"
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errorPath) }
        let errorHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        process.standardError = errorHandle
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try? errorHandle.close()
        guard process.terminationStatus == 0 else {
            let message = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
            throw CorpusError.toolFailed(tool, arguments: arguments, status: process.terminationStatus,
                                         message: String(message.suffix(400)).trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// The first line the tool prints for its version (for the corpus's `versions.txt`).
    func version(of tool: ExternalTool) -> String {
        guard let executable = try? locate(tool, for: .baseline) else { return "\(tool.command): not found" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = tool.versionArguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "\(tool.command): does not run" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        return text.split(separator: "\n").first.map(String.init) ?? tool.command
    }
}
