import Foundation
import TapAudio

/// The contents of a Tap-It data folder, grouped into tasks.
///
/// A data folder holds, per user `NNN` and track `TT`, the tap timestamps `NNN_TT.txt`
/// and the microphone recording `NNN_TT.wav`, plus one `NNN_play_order.txt` per user.
/// ``scan(_:)`` only looks at names, never at contents, so it is fast on big folders;
/// reading each file is left to the caller, which reports a bad file and goes on.
public struct TapItFolder: Sendable {
    /// The scanned folder, as given.
    public var path: String
    /// Every task with at least one file, sorted by id.
    public var tasks: [TapItTask]
    /// The play-order file of each user, by user id.
    public var playOrders: [Int: String]
    /// What is wrong with individual entries: a task missing its recording or its
    /// timestamps, duplicate files for one task, entries that cannot be read. Sorted.
    public var problems: [TapDataError]
    /// Paths of entries that are not Tap-It files (other names, hidden files, subfolders),
    /// sorted.
    public var ignoredFiles: [String]

    /// A folder description from its parts (for tests and simulations).
    public init(path: String, tasks: [TapItTask], playOrders: [Int: String] = [:],
                problems: [TapDataError] = [], ignoredFiles: [String] = []) {
        self.path = path
        self.tasks = tasks
        self.playOrders = playOrders
        self.problems = problems
        self.ignoredFiles = ignoredFiles
    }

    /// File extensions accepted for recordings, lower case; matching ignores case.
    /// These are the formats libsndfile reads that a recording app may have written.
    public static let audioExtensions: Set<String> = [
        "wav", "wave", "flac", "aif", "aiff", "aifc", "ogg", "oga",
        "caf", "w64", "rf64", "au", "snd",
    ]

    /// The tasks that have both a timestamp file and a recording.
    public var completeTasks: [TapItTask] { tasks.filter(\.isComplete) }

    /// The task with the given id, if the folder has one.
    public func task(_ id: TaskID) -> TapItTask? {
        // `tasks` is sorted, so a binary search finds it in O(log n).
        var low = 0, high = tasks.count
        while low < high {
            let mid = (low + high) / 2
            if tasks[mid].id < id { low = mid + 1 } else { high = mid }
        }
        return low < tasks.count && tasks[low].id == id ? tasks[low] : nil
    }

    /// Lists a Tap-It data folder and groups its files into tasks.
    ///
    /// Only the folder's own entries are listed: subfolders are not searched, because
    /// Tap-It writes every session flat into one folder, and a nested folder is more
    /// likely a backup copy whose files would clash with the originals.
    ///
    /// File names are matched as `NNN_TT.txt`, `NNN_TT.<audio>` (see ``audioExtensions``)
    /// and `NNN_play_order.txt`, with extensions in any case and numbers of any width.
    /// Problems with single entries go to ``problems``; the scan throws only when the
    /// folder itself is unusable: missing (``TapDataError/notFound(path:)``), a file
    /// (``TapDataError/notADirectory(path:)``), unlistable
    /// (``TapDataError/unreadable(path:reason:)``), or holding no Tap-It file at all
    /// (``TapDataError/noTapItFiles(path:)``).
    public static func scan(_ directoryPath: String) throws(TapDataError) -> TapItFolder {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: directoryPath, isDirectory: &isDirectory) else {
            throw .notFound(path: directoryPath)
        }
        guard isDirectory.boolValue else { throw .notADirectory(path: directoryPath) }
        let names: [String]
        do {
            names = try fileManager.contentsOfDirectory(atPath: directoryPath).sorted()
        } catch {
            throw .unreadable(path: directoryPath, reason: fileErrorReason(error))
        }

        var grouping = FolderGrouping()
        var ignored: [String] = []
        for name in names {
            let path = joinPath(directoryPath, name)
            guard let kind = EntryKind(fileName: name) else {
                ignored.append(path)
                continue
            }
            grouping.add(kind, path: path, unusableReason: unusableReason(path))
        }
        guard grouping.foundAny else { throw .noTapItFiles(path: directoryPath) }

        var folder = grouping.folder(path: directoryPath)
        folder.ignoredFiles = ignored
        return folder
    }
}

/// What a directory entry is, judged by its name.
enum EntryKind {
    case timestamps(TaskID)
    case audio(TaskID)
    case playOrder(user: Int)

    init?(fileName name: String) {
        if let user = PlayOrderFile.user(fromFileName: name) {
            self = .playOrder(user: user)
            return
        }
        let (stem, ext) = splitExtension(name)
        guard let ext, let id = TaskID(fileStem: stem) else { return nil }
        let lower = ext.lowercased()
        if lower == "txt" {
            self = .timestamps(id)
        } else if TapItFolder.audioExtensions.contains(lower) {
            self = .audio(id)
        } else {
            return nil
        }
    }
}

/// Why an entry with a Tap-It name cannot be used, or `nil` if it is a readable file.
/// Checks permissions without opening the file, so a scan stays cheap.
private func unusableReason(_ path: String) -> String? {
    FileKind.problem(readingFileAt: path)
}

/// `directory/name`, without doubling a trailing slash of `directory`: the path of an entry
/// of a data or experiment folder. Shared by the package's modules (TapLatency builds the
/// track list's and the stimuli's paths with it).
package func joinPath(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
}
