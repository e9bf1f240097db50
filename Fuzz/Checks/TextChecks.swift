import Foundation
import TapData

enum FuzzChecks {
    /// `TimestampFile.parse`: the times are finite, non-negative and non-decreasing, no more
    /// than the lines, and what `format` prints of them parses again to as many times.
    static func timestamps(_ bytes: UnsafeRawBufferPointer) -> String? {
        let input = text(bytes)
        guard let times = try? TimestampFile.parse(input, path: "fuzz.txt") else { return nil }
        let lines = input.utf8.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        if times.count > lines { return "\(times.count) times from \(lines) lines" }
        for (index, time) in times.enumerated() {
            if !time.isFinite { return "time \(index) is \(time)" }
            if time < 0 || time.sign == .minus { return "time \(index) is negative: \(time)" }
            if index > 0, time < times[index - 1] { return "time \(index) (\(time)) is before \(times[index - 1])" }
        }
        // What the writer prints, the reader takes back (rounded to %f's microseconds).
        guard let again = try? TimestampFile.parse(TimestampFile.format(times), path: "fuzz.txt") else {
            return "the formatted times do not parse: \(times.prefix(8))"
        }
        if again.count != times.count { return "\(times.count) times formatted, \(again.count) read back" }
        return nil
    }

    /// `PlayOrderFile.parse`: indices are non-negative and unique, and the formatted order
    /// reads back unchanged.
    static func playOrder(_ bytes: UnsafeRawBufferPointer) -> String? {
        guard let order = try? PlayOrderFile.parse(text(bytes), path: "fuzz.txt") else { return nil }
        if let negative = order.first(where: { $0 < 0 }) { return "negative index \(negative)" }
        if Set(order).count != order.count { return "a repeated index in \(order.prefix(16))" }
        guard let again = try? PlayOrderFile.parse(PlayOrderFile.format(order), path: "fuzz.txt") else {
            return "the formatted order does not parse: \(order.prefix(16))"
        }
        if again != order { return "round trip changed \(order.prefix(16)) into \(again.prefix(16))" }
        return nil
    }

    /// `TrackList.parse`: names are non-empty and without surrounding XML whitespace; names the
    /// writer accepts (no Unicode whitespace at either end) read back unchanged from `format`.
    static func trackList(_ bytes: UnsafeRawBufferPointer) -> String? {
        guard let names = try? TrackList.parse(text(bytes), path: "trackList.xml") else { return nil }
        let xmlSpace: Set<UInt8> = [0x20, 0x09, 0x0D, 0x0A]
        for (index, name) in names.enumerated() {
            guard let first = name.utf8.first, let last = name.utf8.last else { return "name \(index) is empty" }
            if xmlSpace.contains(first) || xmlSpace.contains(last) { return "name \(index) is not trimmed: \(name.debugDescription)" }
        }
        let writable = names.filter { name in
            !(name.unicodeScalars.first!.properties.isWhitespace || name.unicodeScalars.last!.properties.isWhitespace)
        }
        guard let again = try? TrackList.parse(TrackList.format(writable), path: "trackList.xml") else {
            return "the formatted list does not parse: \(writable.prefix(4))"
        }
        if again != writable { return "round trip changed \(writable.prefix(4)) into \(again.prefix(4))" }
        return nil
    }
}
