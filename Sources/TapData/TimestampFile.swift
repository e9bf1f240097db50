import Foundation

/// Tap-It's tap-timestamp files (`NNN_TT.txt`): one tap per line, in seconds since the
/// start of playback, printed with C's `%f` (six decimals, e.g. `0.835918`).
///
/// Reading is strict about content and lenient about layout: `\r\n` line endings,
/// surrounding spaces and blank lines at the end are fine, while an empty line between
/// taps, a non-number, NaN/infinity, a negative time or a time earlier than the one
/// before it is an error naming the file and line. Equal consecutive times are allowed:
/// Tap-It stamped touches on audio-buffer boundaries, so two taps can share a time.
/// An empty file is zero taps.
public enum TimestampFile {
    /// Reads and validates a timestamp file.
    public static func read(_ path: String) throws(TapDataError) -> [Double] {
        try parse(TextFile.read(path), path: path)
    }

    /// Parses the text of a timestamp file; `path` is only used in error messages.
    public static func parse(_ text: String, path: String) throws(TapDataError) -> [Double] {
        var lines = TextLines(text)
        var times: [Double] = []
        times.reserveCapacity(lines.bytes.count / 9)  // "0.835918\n" is 9 bytes
        var firstBlankLine: Int?  // start of the current run of blank lines
        var previous: (value: Double, line: Int, text: String)?

        while let line = lines.next() {
            if line.isBlank {
                if firstBlankLine == nil { firstBlankLine = line.number }
                continue
            }
            if let blank = firstBlankLine {
                throw .malformedLine(path: path, line: blank,
                                     message: "empty line between timestamps")
            }
            let text = lines.text(line.range)
            let value = try parseTime(text, path: path, line: line.number)
            if let previous, value < previous.value {
                throw .malformedLine(
                    path: path, line: line.number,
                    message: "timestamp \(text) is earlier than \(previous.text) on line "
                        + "\(previous.line); timestamps must not decrease")
            }
            times.append(value)
            previous = (value, line.number, text)
        }
        return times
    }

    /// Writes times in Tap-It's format, after checking that ``read(_:)`` will accept them.
    ///
    /// Throws ``TapDataError/invalidValue(path:index:message:)`` for a NaN, infinite or
    /// negative time or one earlier than the time before it.
    public static func write(_ times: [Double], to path: String) throws(TapDataError) {
        for (index, time) in times.enumerated() {
            if !time.isFinite {
                throw .invalidValue(path: path, index: index, message: "\(time) is not a finite time")
            }
            if time < 0 {
                throw .invalidValue(path: path, index: index, message: "negative time \(time)")
            }
            if index > 0, time < times[index - 1] {
                throw .invalidValue(path: path, index: index,
                                    message: "time \(time) is earlier than the one before it")
            }
        }
        try TextFile.write(format(times), to: path)
    }

    /// The file text: each time as `%f` on its own line, ending with a newline
    /// (empty for no taps). `%f` keeps microseconds, far below tap timing noise.
    public static func format(_ times: [Double]) -> String {
        var text = ""
        text.reserveCapacity(times.count * 10)
        for time in times {
            text += String(format: "%f", time)
            text += "\n"
        }
        return text
    }

    private static func parseTime(_ text: String, path: String, line: Int) throws(TapDataError) -> Double {
        guard let value = NumberGrammar.decimal(text) else {
            var message = "not a number: \(quoted(text.replacingOccurrences(of: "\u{0}", with: "\\0")))"
            let lowered = text.lowercased()
            if ["inf", "-inf", "infinity", "-infinity", "nan", "-nan"].contains(lowered) || NumberGrammar.isDecimal(Array(text.utf8)) {
                message = "\(quoted(text)) is not a finite time"
            } else if text.contains(","), NumberGrammar.decimal(text.replacingOccurrences(of: ",", with: ".")) != nil {
                message += " (decimal comma? use a point)"
            } else if text.utf8.contains(0) {
                message += " (holds a NUL byte)"
            }
            throw .malformedLine(path: path, line: line, message: message)
        }
        guard value >= 0 else {
            throw .malformedLine(path: path, line: line,
                                 message: "negative timestamp \(text); times are seconds since playback start")
        }
        return value
    }
}
