import Foundation

/// Files a command writes, under the one rule every writing command follows:
/// - an existing file at an output path is replaced only with `--overwrite`;
/// - a directory (or anything else that is not a regular file) at an output path is never
///   touched;
/// - an output may not be one of the command's inputs, nor another of its outputs;
/// - each file is written under a temporary name and renamed into place only when all of
///   them are complete, so a failure never leaves half a file (or a new audio file beside an
///   old list).
///
/// Messages name the output path the user gave, never the temporary one.
struct AtomicOutput {
    private let overwrite: Bool
    private let inputs: [String]
    private var pending: [(temporary: String, final: String)] = []

    /// - Parameters:
    ///   - overwrite: whether existing files may be replaced (the command's `--overwrite`).
    ///   - inputs: every file the command reads, none of which it may write.
    init(overwrite: Bool, inputs: [String]) {
        self.overwrite = overwrite
        self.inputs = inputs
    }

    /// Checks every output path before any work starts, so a refusal costs nothing.
    func check(_ paths: [String]) throws(OutputError) {
        var seen: [String] = []
        for path in paths {
            let identity = Self.identity(path)
            if seen.contains(identity) { throw .usedTwice(path) }
            seen.append(identity)
            try checkOne(path)
        }
    }

    /// The temporary path to write `path` to (after the same checks as ``check(_:)``).
    mutating func temporaryPath(for path: String) throws(OutputError) -> String {
        if pending.contains(where: { Self.identity($0.final) == Self.identity(path) }) { throw .usedTwice(path) }
        try checkOne(path)
        let temporary = path + ".partial-\(getpid())"
        pending.append((temporary, path))
        // For the signal handler (removes them when interrupted) and for messages.
        PendingTemporaries.shared.add(temporary: temporary, final: path)
        return temporary
    }

    /// Renames every temporary file to its final name. `rename` replaces a file atomically
    /// and fails on a directory, which is left as it was.
    func commit() throws(OutputError) {
        for (_, final) in pending { try checkOne(final) }  // things may have appeared meanwhile
        for (temporary, final) in pending where rename(temporary, final) != 0 {
            throw .cannotWrite(final, String(cString: strerror(errno)))
        }
    }

    /// Removes the temporary files (after a failure).
    func discard() {
        for (temporary, _) in pending { unlink(temporary) }
    }

    private func checkOne(_ path: String) throws(OutputError) {
        let identity = Self.identity(path)
        if let input = inputs.first(where: { Self.identity($0) == identity }) { throw .isAnInput(path, input) }
        var status = stat()
        guard lstat(path, &status) == 0 else { return }  // nothing there: fine
        if (status.st_mode & S_IFMT) == S_IFDIR || (stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR) {
            throw .isADirectory(path)
        }
        if (status.st_mode & S_IFMT) != S_IFREG && (status.st_mode & S_IFMT) != S_IFLNK { throw .notARegularFile(path) }
        if !overwrite { throw .exists(path) }
    }

    /// The path with its folder resolved, so `./a.wav`, `a.wav` and a link to the folder compare
    /// equal.
    private static func identity(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}

/// Why a command will not write an output.
enum OutputError: Error, CustomStringConvertible {
    case exists(String)
    case isADirectory(String)
    case notARegularFile(String)
    case isAnInput(String, String)
    case usedTwice(String)
    case cannotWrite(String, String)

    var description: String {
        switch self {
        case .exists(let path): return "\(path): exists; give --overwrite to replace it"
        case .isADirectory(let path): return "\(path): is a directory; an output must be a file path"
        case .notARegularFile(let path): return "\(path): is not a regular file; an output must be a file path"
        case .isAnInput(let path, let input):
            return path == input ? "\(path): is also an input; write the output elsewhere" : "\(path): is also the input \(input); write the output elsewhere"
        case .usedTwice(let path): return "\(path): given as two outputs; each output needs its own path"
        case .cannotWrite(let path, let reason): return "\(path): cannot write: \(reason)"
        }
    }
}
