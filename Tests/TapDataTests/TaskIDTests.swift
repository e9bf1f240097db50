import Foundation
import Testing
@testable import TapData

@Suite struct TaskIDTests {
    @Test func descriptionPadsToThreeAndTwoDigits() {
        #expect(TaskID(user: 1, track: 1).description == "001_01")
        #expect(TaskID(user: 42, track: 9).description == "042_09")
        #expect(TaskID(user: 0, track: 0).description == "000_00")
    }

    @Test func descriptionPrintsWideNumbersInFull() {
        #expect(TaskID(user: 1234, track: 105).description == "1234_105")
        #expect(TaskID(user: 999, track: 99).description == "999_99")
    }

    @Test func parsesFileStems() {
        #expect(TaskID(fileStem: "001_01") == TaskID(user: 1, track: 1))
        #expect(TaskID(fileStem: "1234_105") == TaskID(user: 1234, track: 105))
        #expect(TaskID(fileStem: "1_1") == TaskID(user: 1, track: 1))
        #expect(TaskID(fileStem: "020_12"[...]) == TaskID(user: 20, track: 12))
    }

    @Test(arguments: ["", "_", "001", "001_", "_01", "a01_01", "001_0a", "001_01_02", "-1_01",
                      "+1_01", " 1_01", "001_01 ", "١_01", "99999999999999999999_01", "001-01"])
    func rejectsOtherStems(_ stem: String) {
        #expect(TaskID(fileStem: stem) == nil)
    }

    @Test func descriptionRoundTripsThroughParsing() {
        for id in [TaskID(user: 0, track: 1), TaskID(user: 7, track: 12), TaskID(user: 123456, track: 7890)] {
            #expect(TaskID(fileStem: id.description) == id)
        }
    }

    @Test func ordersByUserThenTrack() {
        let ids = [TaskID(user: 2, track: 1), TaskID(user: 1, track: 10), TaskID(user: 1, track: 2),
                   TaskID(user: 1000, track: 1), TaskID(user: 1, track: 1)]
        #expect(ids.sorted().map(\.description) == ["001_01", "001_02", "001_10", "002_01", "1000_01"])
        #expect(!(TaskID(user: 1, track: 1) < TaskID(user: 1, track: 1)))
    }

    @Test func codesAsAString() throws {
        let data = try JSONEncoder().encode([TaskID(user: 3, track: 4)])
        #expect(String(decoding: data, as: UTF8.self) == #"["003_04"]"#)
        let back = try JSONDecoder().decode([TaskID].self, from: data)
        #expect(back == [TaskID(user: 3, track: 4)])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([TaskID].self, from: Data(#"["three"]"#.utf8))
        }
    }

    @Test func fileNames() {
        let id = TaskID(user: 5, track: 3)
        #expect(id.timestampsFileName == "005_03.txt")
        #expect(id.audioFileName() == "005_03.wav")
        #expect(id.audioFileName(extension: "flac") == "005_03.flac")
    }
}
