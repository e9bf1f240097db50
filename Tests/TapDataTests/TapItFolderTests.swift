import Foundation
import Testing
@testable import TapData

@Suite struct TapItFolderTests {
    let fileManager = FileManager.default

    @Test func groupsAMixedFolder() throws {
        try withTemporaryDirectory { dir in
            let ok = TaskID(user: 1, track: 1)
            let noAudio = TaskID(user: 1, track: 2)
            let noTimes = TaskID(user: 1, track: 3)
            let twoAudio = TaskID(user: 2, track: 1)
            let wide = TaskID(user: 1234, track: 105)
            let folderAudio = TaskID(user: 4, track: 1)
            let danglingAudio = TaskID(user: 5, track: 1)

            try makeFile(dir, "001_01.txt", "0.1\n")
            try makeFile(dir, "001_01.wav")
            try makeFile(dir, "001_02.txt", "")
            try makeFile(dir, "001_03.flac")
            try makeFile(dir, "002_01.txt")
            try makeFile(dir, "002_01.wav")
            try makeFile(dir, "002_01.FLAC")
            try makeFile(dir, "1234_105.txt")
            try makeFile(dir, "1234_105.AIFF")
            try makeFile(dir, "004_01.txt")
            try fileManager.createDirectory(atPath: dir + "/004_01.wav", withIntermediateDirectories: false)
            try makeFile(dir, "005_01.txt")
            try fileManager.createSymbolicLink(atPath: dir + "/005_01.wav", withDestinationPath: dir + "/gone.wav")
            try makeFile(dir, "001_play_order.txt", "0 1 2 ")
            try makeFile(dir, "notes.md")
            try makeFile(dir, ".DS_Store")
            try makeFile(dir, "001_01.mp3")  // not a format the recorder writes
            try fileManager.createDirectory(atPath: dir + "/backup", withIntermediateDirectories: false)
            try makeFile(dir + "/backup", "003_01.txt")
            try makeFile(dir + "/backup", "003_01.wav")

            let folder = try TapItFolder.scan(dir)
            #expect(folder.path == dir)
            #expect(folder.tasks.map(\.id) == [ok, noAudio, noTimes, twoAudio, folderAudio, danglingAudio, wide])

            #expect(folder.task(ok) == TapItTask(id: ok, timestampsPath: dir + "/001_01.txt", audioPath: dir + "/001_01.wav"))
            #expect(folder.task(noAudio) == TapItTask(id: noAudio, timestampsPath: dir + "/001_02.txt"))
            #expect(folder.task(noTimes) == TapItTask(id: noTimes, audioPath: dir + "/001_03.flac"))
            #expect(folder.task(twoAudio) == TapItTask(id: twoAudio, timestampsPath: dir + "/002_01.txt"))
            #expect(folder.task(wide) == TapItTask(id: wide, timestampsPath: dir + "/1234_105.txt",
                                                   audioPath: dir + "/1234_105.AIFF"))
            #expect(folder.task(folderAudio)?.audioPath == nil)
            #expect(folder.task(TaskID(user: 3, track: 1)) == nil)  // only in the subfolder
            #expect(folder.completeTasks.map(\.id) == [ok, wide])

            #expect(folder.playOrders == [1: dir + "/001_play_order.txt"])

            let expected: [TapDataError] = [
                .missingAudio(path: dir + "/001_02.txt", task: noAudio),
                .missingTimestamps(path: dir + "/001_03.flac", task: noTimes),
                // "002_01.FLAC" sorts before "002_01.wav", so the .wav is the extra one.
                .duplicateAudio(path: dir + "/002_01.wav", task: twoAudio, otherPath: dir + "/002_01.FLAC"),
                .unreadable(path: dir + "/004_01.wav", reason: "is a directory, expected a file"),
                .unreadable(path: dir + "/005_01.wav", reason: "broken symbolic link"),
            ]
            #expect(folder.problems == expected)

            #expect(folder.ignoredFiles == [".DS_Store", "001_01.mp3", "backup", "notes.md"].map { dir + "/" + $0 })
        }
    }

    @Test func duplicateTimestampAndPlayOrderFiles() throws {
        try withTemporaryDirectory { dir in
            let id = TaskID(user: 1, track: 1)
            try makeFile(dir, "001_01.txt")
            try makeFile(dir, "1_1.txt")
            try makeFile(dir, "001_01.wav")
            try makeFile(dir, "001_play_order.txt")
            try makeFile(dir, "1_play_order.txt")
            let folder = try TapItFolder.scan(dir)
            #expect(folder.tasks == [TapItTask(id: id, audioPath: dir + "/001_01.wav")])
            #expect(folder.playOrders.isEmpty)
            #expect(folder.problems == [
                // Sorted by path: "1_1.txt" before "1_play_order.txt".
                .duplicateTimestamps(path: dir + "/1_1.txt", task: id, otherPath: dir + "/001_01.txt"),
                .duplicatePlayOrder(path: dir + "/1_play_order.txt", user: 1, otherPath: dir + "/001_play_order.txt"),
            ])
        }
    }

    @Test func everyAudioExtensionInAnyCase() throws {
        try withTemporaryDirectory { dir in
            let extensions = TapItFolder.audioExtensions.sorted()
            #expect(extensions.count == 13)
            for (k, ext) in extensions.enumerated() {
                let id = TaskID(user: 1, track: k + 1)
                try makeFile(dir, id.timestampsFileName)
                try makeFile(dir, id.audioFileName(extension: k.isMultiple(of: 2) ? ext : ext.uppercased()))
            }
            let folder = try TapItFolder.scan(dir)
            #expect(folder.completeTasks.count == extensions.count)
            #expect(folder.problems.isEmpty)
            #expect(folder.ignoredFiles.isEmpty)
        }
    }

    @Test func trailingSlashDoesNotDoubleSeparators() throws {
        try withTemporaryDirectory { dir in
            try makeFile(dir, "001_01.txt")
            try makeFile(dir, "001_01.wav")
            let folder = try TapItFolder.scan(dir + "/")
            #expect(folder.tasks.first?.timestampsPath == dir + "/001_01.txt")
        }
    }

    @Test func scanLooksAtNamesOnly() throws {
        try withTemporaryDirectory { dir in
            // Contents are the reader's business; a scan of a big folder must stay cheap.
            try makeFile(dir, "001_01.txt", "garbage")
            try makeFile(dir, "001_01.wav", "not audio")
            let folder = try TapItFolder.scan(dir)
            #expect(folder.completeTasks.count == 1)
            #expect(folder.problems.isEmpty)
        }
    }

    @Test func onlyAPlayOrderIsStillATapItFolder() throws {
        try withTemporaryDirectory { dir in
            try makeFile(dir, "012_play_order.txt", "0 ")
            let folder = try TapItFolder.scan(dir)
            #expect(folder.tasks.isEmpty)
            #expect(folder.playOrders == [12: dir + "/012_play_order.txt"])
        }
    }

    @Test func manyTasksAreSortedNumerically() throws {
        try withTemporaryDirectory { dir in
            for user in [1, 2, 10, 100, 1000] {
                for track in [1, 2, 10] {
                    let id = TaskID(user: user, track: track)
                    try makeFile(dir, id.timestampsFileName)
                    try makeFile(dir, id.audioFileName())
                }
            }
            let folder = try TapItFolder.scan(dir)
            let ids = folder.tasks.map(\.id)
            #expect(ids.count == 15)
            #expect(ids == ids.sorted())
            #expect(ids.first == TaskID(user: 1, track: 1))
            #expect(ids.last == TaskID(user: 1000, track: 10))
        }
    }

    // MARK: Unusable folders

    @Test func missingFolder() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/nope"
            #expect(throws: TapDataError.notFound(path: path)) { try TapItFolder.scan(path) }
        }
    }

    @Test func fileInsteadOfFolder() throws {
        try withTemporaryDirectory { dir in
            let path = try makeFile(dir, "001_01.txt")
            #expect(throws: TapDataError.notADirectory(path: path)) { try TapItFolder.scan(path) }
        }
    }

    @Test func emptyFolderHasNoTapItFiles() throws {
        try withTemporaryDirectory { dir in
            let error = caught { () throws(TapDataError) in try TapItFolder.scan(dir) }
            #expect(error == .noTapItFiles(path: dir))
            #expect(error?.description.contains("NNN_TT.txt") == true)
        }
    }

    @Test func tapItFilesInASubfolderAreNotFound() throws {
        try withTemporaryDirectory { dir in
            try makeFile(dir, "readme.txt")
            try makeFile(dir, "trackList.xml", "<filename>a.wav</filename>")
            try fileManager.createDirectory(atPath: dir + "/session1", withIntermediateDirectories: false)
            try makeFile(dir + "/session1", "001_01.txt")
            try makeFile(dir + "/session1", "001_01.wav")
            #expect(throws: TapDataError.noTapItFiles(path: dir)) { try TapItFolder.scan(dir) }
        }
    }

    // MARK: Permissions

    @Test func unreadableFolder() throws {
        try withTemporaryDirectory { dir in
            let folder = dir + "/data"
            try fileManager.createDirectory(atPath: folder, withIntermediateDirectories: false)
            try makeFile(folder, "001_01.txt")
            guard try revokePermissions(folder) else {
                // Running as root: a mode-000 folder can still be listed, so there is no
                // denial to observe; the scan must then simply work.
                #expect(try TapItFolder.scan(folder).tasks.count == 1)
                return
            }
            #expect(throws: TapDataError.unreadable(path: folder, reason: "permission denied")) {
                try TapItFolder.scan(folder)
            }
        }
    }

    @Test func unreadableRecordingIsReportedOnce() throws {
        try withTemporaryDirectory { dir in
            let id = TaskID(user: 6, track: 1)
            try makeFile(dir, "006_01.txt")
            let audio = try makeFile(dir, "006_01.wav")
            guard try revokePermissions(audio) else {
                // Running as root: mode 000 does not keep root out, so the task is complete.
                #expect(try TapItFolder.scan(dir).completeTasks.map(\.id) == [id])
                return
            }
            let folder = try TapItFolder.scan(dir)
            #expect(folder.tasks == [TapItTask(id: id, timestampsPath: dir + "/006_01.txt")])
            // Not also "missing audio": the file is there, just unreadable.
            #expect(folder.problems == [.unreadable(path: audio, reason: "permission denied")])
        }
    }
}
