import Foundation
import Testing
@testable import TapData

@Suite struct TimestampFileParsingTests {
    let path = "data/001_01.txt"

    func parse(_ text: String) throws(TapDataError) -> [Double] {
        try TimestampFile.parse(text, path: path)
    }

    func expectError(_ text: String, line: Int, containing fragment: String,
                     sourceLocation: SourceLocation = #_sourceLocation) {
        let error = caught { () throws(TapDataError) in try parse(text) }
        guard case .malformedLine(let errorPath, let errorLine, let message)? = error else {
            Issue.record("expected a malformed-line error, got \(String(describing: error))",
                         sourceLocation: sourceLocation)
            return
        }
        #expect(errorPath == path, sourceLocation: sourceLocation)
        #expect(errorLine == line, sourceLocation: sourceLocation)
        #expect(message.contains(fragment), "message: \(message)", sourceLocation: sourceLocation)
        #expect(error!.description.hasPrefix("\(path):\(line): "), sourceLocation: sourceLocation)
    }

    @Test func parsesTapItOutput() throws {
        let times = try parse("0.835918\n1.402313\n2.000000\n")
        #expect(times.count == 3)
        for (got, want) in zip(times, [0.835918, 1.402313, 2.0]) {
            #expect(abs(got - want) < 1e-12)
        }
    }

    @Test func emptyTextIsZeroTaps() throws {
        #expect(try parse("") == [])
        #expect(try parse("\n") == [])
        #expect(try parse("  \n\t\n\r\n") == [])
    }

    @Test func singleTapWithoutFinalNewline() throws {
        #expect(try parse("3.5") == [3.5])
    }

    @Test func acceptsWindowsLineEndingsWhitespaceAndBOM() throws {
        #expect(try parse("0.5\r\n0.75\r\n") == [0.5, 0.75])
        #expect(try parse("  0.5 \t\n\t0.75  \n") == [0.5, 0.75])
        #expect(try parse("\u{FEFF}0.5\n") == [0.5])
    }

    @Test func blankLinesAtTheEndAreFine() throws {
        #expect(try parse("0.1\n0.2\n\n\n  \n") == [0.1, 0.2])
    }

    @Test func equalConsecutiveTimesAreAllowed() throws {
        // Tap-It stamped taps on audio-buffer boundaries, so two taps may share a time.
        #expect(try parse("0.500000\n0.500000\n0.600000\n") == [0.5, 0.5, 0.6])
    }

    @Test func negativeZeroBecomesZero() throws {
        let times = try parse("-0.000000\n")
        #expect(times == [0])
        #expect(times[0].sign == .plus)
    }

    @Test func emptyLineBetweenTimesNamesTheFirstBlankLine() {
        expectError("0.1\n\n0.2\n", line: 2, containing: "empty line")
        expectError("0.1\n0.2\n \n\r\n0.3\n", line: 3, containing: "empty line")
        expectError("\n0.1\n", line: 1, containing: "empty line")
    }

    @Test func nonNumericLineIsQuoted() {
        expectError("0.1\n0.2\nabc\n", line: 3, containing: "not a number: \"abc\"")
        expectError("0.1 0.2\n", line: 1, containing: "\"0.1 0.2\"")
    }

    @Test func longGarbageIsTruncatedInTheMessage() {
        let garbage = String(repeating: "x", count: 100)
        let error = caught { () throws(TapDataError) in try parse("1.0\n" + garbage) }
        #expect(error?.line == 2)
        let message = error?.description ?? ""
        #expect(message.contains("\"" + String(repeating: "x", count: 40) + "…\""))
        #expect(!message.contains(String(repeating: "x", count: 41)))
    }

    @Test func decimalCommaGetsAHint() {
        expectError("0,5\n", line: 1, containing: "decimal comma")
    }

    @Test(arguments: ["nan", "NaN", "inf", "-inf", "infinity"])
    func nonFiniteTimesAreRejected(_ word: String) {
        expectError("0.1\n0.2\n\(word)\n", line: 3, containing: "not a finite time")
    }

    @Test func negativeTimeIsRejected() {
        expectError("-0.100000\n0.2\n", line: 1, containing: "negative timestamp -0.100000")
    }

    @Test func decreasingTimesNameBothLines() {
        expectError("0.5\n0.7\n0.6\n0.8\n", line: 3, containing: "0.6 is earlier than 0.7 on line 2")
        expectError("0.5\r\n0.7\r\n 0.25 \r\n", line: 3, containing: "0.25 is earlier than 0.7 on line 2")
    }

    @Test func manyLinesParseInOrder() throws {
        let times = (0..<20_000).map { Double($0) * 0.5 }
        let parsed = try parse(TimestampFile.format(times))
        #expect(parsed.count == times.count)
        #expect(parsed.last == 9999.5)
    }
}

@Suite struct TimestampFileIOTests {
    @Test func formatIsPercentFOnePerLine() {
        #expect(TimestampFile.format([0.835918, 1, 12.3456789]) == "0.835918\n1.000000\n12.345679\n")
        #expect(TimestampFile.format([]) == "")
    }

    @Test func writeThenReadRoundTripsToAMicrosecond() throws {
        try withTemporaryDirectory { dir in
            // Deterministic, irregular, non-decreasing times over an hour.
            var times: [Double] = []
            var t = 0.0
            for k in 0..<5_000 {
                t += 0.3 + 0.4 * abs(sin(Double(k) * 1.7))
                times.append(t)
            }
            times.insert(0, at: 0)
            times.insert(times[10], at: 11)  // equal neighbours survive too
            let path = dir + "/001_01.txt"
            try TimestampFile.write(times, to: path)
            let back = try TimestampFile.read(path)
            #expect(back.count == times.count)
            let worst = zip(back, times).map { abs($0 - $1) }.max() ?? 0
            #expect(worst <= 0.5e-6 + 1e-9)
        }
    }

    @Test func emptyFileRoundTrips() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/001_01.txt"
            try TimestampFile.write([], to: path)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
            #expect(try TimestampFile.read(path) == [])
        }
    }

    @Test func readReportsLineWithTheFilePath() throws {
        try withTemporaryDirectory { dir in
            let path = try makeFile(dir, "002_03.txt", "0.1\r\n0.2\r\nhello\r\n")
            let error = caught { () throws(TapDataError) in try TimestampFile.read(path) }
            #expect(error?.path == path)
            #expect(error?.line == 3)
            #expect(error?.description.hasPrefix("\(path):3: not a number: \"hello\"") == true)
        }
    }

    @Test func missingFileIsNotFound() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/nothing.txt"
            #expect(throws: TapDataError.notFound(path: path)) { try TimestampFile.read(path) }
        }
    }

    @Test func directoryIsUnreadable() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/001_01.txt"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            #expect(throws: TapDataError.unreadable(path: path, reason: "is a directory, expected a file")) {
                try TimestampFile.read(path)
            }
        }
    }

    @Test func brokenSymbolicLinkIsUnreadable() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/001_01.txt"
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: dir + "/gone.txt")
            #expect(throws: TapDataError.unreadable(path: path, reason: "broken symbolic link")) {
                try TimestampFile.read(path)
            }
        }
    }

    @Test func invalidUTF8NamesFileAndLine() throws {
        try withTemporaryDirectory { dir in
            let path = try makeFile(dir, "001_01.txt", bytes: Array("0.1\n0.2\n".utf8) + [0x30, 0xFF, 0x0A])
            #expect(throws: TapDataError.invalidUTF8(path: path, line: 3)) { try TimestampFile.read(path) }
        }
    }

    @Test func permissionDenied() throws {
        try withTemporaryDirectory { dir in
            let path = try makeFile(dir, "001_01.txt", "0.1\n")
            guard try revokePermissions(path) else {
                // Running as root: the kernel grants root access to a mode-000 file, so the
                // read succeeds and there is no denial to assert. Check that instead.
                #expect(try TimestampFile.read(path) == [0.1])
                return
            }
            #expect(throws: TapDataError.unreadable(path: path, reason: "permission denied")) {
                try TimestampFile.read(path)
            }
        }
    }

    @Test func writeRejectsValuesTheReaderWouldReject() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/out.txt"
            for (times, index) in [([0.1, 0.2, .nan], 2), ([0.1, .infinity], 1), ([-0.5], 0),
                                   ([0.1, 0.3, 0.2], 2)] {
                let error = caught { () throws(TapDataError) in try TimestampFile.write(times, to: path) }
                guard case .invalidValue(let errorPath, let errorIndex, _)? = error else {
                    Issue.record("expected invalidValue for \(times), got \(String(describing: error))")
                    continue
                }
                #expect(errorPath == path)
                #expect(errorIndex == index)
            }
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test func writeIntoMissingFolderOrOntoADirectoryFails() throws {
        try withTemporaryDirectory { dir in
            let inMissing = dir + "/no/such/001_01.txt"
            let error = caught { () throws(TapDataError) in try TimestampFile.write([1], to: inMissing) }
            guard case .unwritable(let path, _)? = error else {
                Issue.record("expected unwritable, got \(String(describing: error))")
                return
            }
            #expect(path == inMissing)
            #expect(throws: TapDataError.unwritable(path: dir, reason: "is a directory")) {
                try TimestampFile.write([1], to: dir)
            }
        }
    }
}
