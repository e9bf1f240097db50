/// Collects the Tap-It entries of a folder and turns them into tasks and problems.
///
/// One problem per cause: a task whose recording is unreadable or duplicated is not
/// also reported as missing its recording.
struct FolderGrouping {
    /// Files of one kind for one task or user: usable paths in name order, and whether
    /// an entry of that kind was there but unusable.
    private struct Slot {
        var paths: [String] = []
        var hadUnusable = false
    }

    private var timestamps: [TaskID: Slot] = [:]
    private var audio: [TaskID: Slot] = [:]
    private var playOrders: [Int: Slot] = [:]
    private var problems: [TapDataError] = []
    private(set) var foundAny = false

    /// Adds an entry; call in name order so that "first" and "duplicate" are stable.
    mutating func add(_ kind: EntryKind, path: String, unusableReason: String?) {
        foundAny = true
        if let unusableReason {
            problems.append(.unreadable(path: path, reason: unusableReason))
        }
        switch kind {
        case .timestamps(let id): Self.add(path, unusable: unusableReason != nil, to: &timestamps[id, default: Slot()])
        case .audio(let id): Self.add(path, unusable: unusableReason != nil, to: &audio[id, default: Slot()])
        case .playOrder(let user): Self.add(path, unusable: unusableReason != nil, to: &playOrders[user, default: Slot()])
        }
    }

    private static func add(_ path: String, unusable: Bool, to slot: inout Slot) {
        if unusable { slot.hadUnusable = true } else { slot.paths.append(path) }
    }

    /// The grouped folder (without ``TapItFolder/ignoredFiles``).
    func folder(path: String) -> TapItFolder {
        var problems = self.problems
        var tasks: [TapItTask] = []
        let ids = Set(timestamps.keys).union(audio.keys).sorted()
        tasks.reserveCapacity(ids.count)

        for id in ids {
            let times = timestamps[id] ?? Slot()
            let recordings = audio[id] ?? Slot()
            let timesPath = Self.single(times.paths) { extra, first in
                problems.append(.duplicateTimestamps(path: extra, task: id, otherPath: first))
            }
            let audioPath = Self.single(recordings.paths) { extra, first in
                problems.append(.duplicateAudio(path: extra, task: id, otherPath: first))
            }
            // Only report a missing partner when nothing of that kind was there at all.
            if times.paths.isEmpty && !times.hadUnusable, let present = recordings.paths.first {
                problems.append(.missingTimestamps(path: present, task: id))
            }
            if recordings.paths.isEmpty && !recordings.hadUnusable, let present = times.paths.first {
                problems.append(.missingAudio(path: present, task: id))
            }
            tasks.append(TapItTask(id: id, timestampsPath: timesPath, audioPath: audioPath))
        }

        var orders: [Int: String] = [:]
        for (user, slot) in playOrders {
            let chosen = Self.single(slot.paths) { extra, first in
                problems.append(.duplicatePlayOrder(path: extra, user: user, otherPath: first))
            }
            if let chosen { orders[user] = chosen }
        }

        // Dictionary order is random per process; sort for deterministic output.
        problems.sort { ($0.path, $0.message) < ($1.path, $1.message) }
        return TapItFolder(path: path, tasks: tasks, playOrders: orders, problems: problems)
    }

    /// The one path of a slot; with several, none is chosen and each extra is reported,
    /// since guessing which recording belongs to the taps could silently corrupt results.
    private static func single(_ paths: [String], duplicate: (_ extra: String, _ first: String) -> Void) -> String? {
        guard let first = paths.first else { return nil }
        for extra in paths.dropFirst() { duplicate(extra, first) }
        return paths.count == 1 ? first : nil
    }
}
