import Foundation
import Testing
@testable import TapData

@Suite struct PlayOrderFileTests {
    let path = "data/001_play_order.txt"

    func parse(_ text: String) throws(TapDataError) -> [Int] {
        try PlayOrderFile.parse(text, path: path)
    }

    @Test func parsesTapItOutput() throws {
        #expect(try parse("2 0 1 ") == [2, 0, 1])
        #expect(try parse("2 0 1 \n") == [2, 0, 1])
        #expect(try parse("7") == [7])
    }

    @Test func emptyIsNoTracks() throws {
        #expect(try parse("") == [])
        #expect(try parse(" \n") == [])
    }

    @Test func anyWhitespaceSeparates() throws {
        #expect(try parse("3\t1\r\n 0  2\n\n4\n") == [3, 1, 0, 2, 4])
    }

    @Test func nonIntegerNamesLineAndToken() {
        let error = caught { () throws(TapDataError) in try parse("0 1\n2 x 3\n") }
        #expect(error?.line == 2)
        #expect(error?.description == "\(path):2: not a track index (a non-negative integer): \"x\"")
        #expect(caught { () throws(TapDataError) in try parse("1.5") }?.line == 1)
        #expect(caught { () throws(TapDataError) in try parse("1 99999999999999999999999") }?.line == 1)
    }

    @Test func negativeIndexIsRejected() {
        let error = caught { () throws(TapDataError) in try parse("0\n\n-1\n") }
        #expect(error?.line == 3)
        #expect(error?.description.contains("negative track index -1") == true)
    }

    @Test func repeatedIndexNamesBothLines() {
        let error = caught { () throws(TapDataError) in try parse("0 1\n2 1\n") }
        #expect(error?.line == 2)
        #expect(error?.description.contains("track index 1 appears twice (first on line 1)") == true)
    }

    @Test func formatMatchesTapIt() {
        #expect(PlayOrderFile.format([2, 0, 1]) == "2 0 1 ")
        #expect(PlayOrderFile.format([]) == "")
    }

    @Test func writeThenReadRoundTrips() throws {
        try withTemporaryDirectory { dir in
            let order = [5, 3, 0, 11, 1, 2, 4, 10, 6, 7, 8, 9]
            let path = dir + "/" + PlayOrderFile.fileName(user: 7)
            try PlayOrderFile.write(order, to: path)
            #expect(try PlayOrderFile.read(path) == order)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "5 3 0 11 1 2 4 10 6 7 8 9 ")
        }
    }

    @Test func writeRejectsNegativeAndRepeatedIndices() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/001_play_order.txt"
            #expect(throws: TapDataError.invalidValue(path: path, index: 1, message: "negative track index -2")) {
                try PlayOrderFile.write([0, -2], to: path)
            }
            #expect(throws: TapDataError.invalidValue(path: path, index: 2, message: "track index 0 appears twice")) {
                try PlayOrderFile.write([0, 1, 0], to: path)
            }
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test func readMissingFile() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/001_play_order.txt"
            #expect(throws: TapDataError.notFound(path: path)) { try PlayOrderFile.read(path) }
        }
    }

    @Test func fileNames() {
        #expect(PlayOrderFile.fileName(user: 1) == "001_play_order.txt")
        #expect(PlayOrderFile.fileName(user: 1234) == "1234_play_order.txt")
        #expect(PlayOrderFile.user(fromFileName: "001_play_order.txt") == 1)
        #expect(PlayOrderFile.user(fromFileName: "1234_play_order.TXT") == 1234)
        #expect(PlayOrderFile.user(fromFileName: "_play_order.txt") == nil)
        #expect(PlayOrderFile.user(fromFileName: "abc_play_order.txt") == nil)
        #expect(PlayOrderFile.user(fromFileName: "001_play_order.txt.bak") == nil)
        #expect(PlayOrderFile.user(fromFileName: "001_01.txt") == nil)
    }
}
