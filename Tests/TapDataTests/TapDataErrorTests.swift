import Testing
@testable import TapData

@Suite struct TapDataErrorTests {
    @Test func textualErrorsReadLikeCompilerMessages() {
        let error = TapDataError.malformedLine(path: "data/001_01.txt", line: 3, message: "not a number")
        #expect(error.description == "data/001_01.txt:3: not a number")
        #expect(error.path == "data/001_01.txt")
        #expect(error.line == 3)
        #expect(TapDataError.invalidUTF8(path: "a.txt", line: 2).description == "a.txt:2: not valid UTF-8 text")
    }

    @Test func fileErrorsHaveNoLine() {
        let error = TapDataError.notFound(path: "data")
        #expect(error.description == "data: no such file or directory")
        #expect(error.line == nil)
        #expect(TapDataError.unreadable(path: "x.wav", reason: "permission denied").description
            == "x.wav: cannot read: permission denied")
        #expect(TapDataError.notADirectory(path: "f").description.hasPrefix("f: not a directory"))
    }

    @Test func folderProblemsNameTheTaskAndTheOtherFile() {
        let task = TaskID(user: 1, track: 2)
        let missing = TapDataError.missingAudio(path: "d/001_02.txt", task: task)
        #expect(missing.description.hasPrefix("d/001_02.txt: no microphone recording for task 001_02"))
        let duplicate = TapDataError.duplicateAudio(path: "d/001_02.wav", task: task, otherPath: "d/001_02.flac")
        #expect(duplicate.description.hasPrefix("d/001_02.wav: second recording for task 001_02, besides 001_02.flac"))
        #expect(TapDataError.missingTimestamps(path: "d/001_02.wav", task: task).description
            == "d/001_02.wav: no tap timestamps for task 001_02 (expected 001_02.txt beside it)")
    }

    @Test func noTapItFilesSaysWhatWasExpected() {
        let text = TapDataError.noTapItFiles(path: "d").description
        #expect(text.hasPrefix("d: no Tap-It files found"))
        #expect(text.contains("NNN_TT.txt"))
        #expect(text.contains("NNN_TT.wav"))
        #expect(text.contains("NNN_play_order.txt"))
        #expect(text.contains("subfolders are not searched"))
    }
}
