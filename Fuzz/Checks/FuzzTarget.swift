import Foundation

/// The fuzz targets, each a function from arbitrary bytes to the first broken invariant (or
/// nil). A thrown error is a fine answer to bad input; a defect is a trap, a sanitizer report,
/// or an invariant below that does not hold.
///
/// The libFuzzer executables in `Fuzz/Package.swift` and the regression tests of the normal
/// test suite call the same ``check(_:)``, so a stored input replays exactly as it was found.
public enum FuzzTarget: String, CaseIterable, Sendable {
    case timestamps
    case playOrder = "play-order"
    case trackList = "track-list"
    case program
    case audio
    case numbers

    /// The first invariant `bytes` break, or nil.
    public func check(_ bytes: UnsafeRawBufferPointer) -> String? {
        switch self {
        case .timestamps: return FuzzChecks.timestamps(bytes)
        case .playOrder: return FuzzChecks.playOrder(bytes)
        case .trackList: return FuzzChecks.trackList(bytes)
        case .program: return FuzzChecks.program(bytes)
        case .audio: return FuzzChecks.audio(bytes)
        case .numbers: return FuzzChecks.numbers(bytes)
        }
    }

    public func check(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBytes { check($0) }
    }

    /// The libFuzzer entry: runs ``check(_:)`` and traps, naming the invariant, when it fails.
    public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
        if let violation = check(UnsafeRawBufferPointer(start: count > 0 ? start : nil, count: count)) {
            fatalError("fuzz \(rawValue): \(violation)")
        }
        return 0
    }

    /// `Fuzz/` in the source tree.
    public static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    /// Every stored input of this target: the seed corpus `Fuzz/corpus/<target>/` and the
    /// crashers found so far, `Fuzz/regressions/<target>/`, sorted by path.
    public func storedInputs() -> [URL] {
        ["corpus", "regressions"].flatMap { folder -> [URL] in
            let url = Self.directory.appendingPathComponent(folder).appendingPathComponent(rawValue)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            return names.filter { !$0.hasPrefix(".") }.sorted().map { url.appendingPathComponent($0) }
        }
    }

    /// Replays every stored input through the target's check: one line per input that breaks
    /// an invariant or cannot be read (`target/file: why`), and one when there is no seed at all.
    /// Empty when all is well: the regression tests of `make test` expect exactly that.
    public func storedInputProblems() -> [String] {
        let inputs = storedInputs()
        guard !inputs.isEmpty else { return ["no seed corpus in Fuzz/corpus/\(rawValue)"] }
        return inputs.compactMap { url in
            guard let data = try? Data(contentsOf: url) else { return "\(rawValue)/\(url.lastPathComponent): unreadable" }
            return check([UInt8](data)).map { "\(rawValue)/\(url.lastPathComponent): \($0)" }
        }
    }
}

/// Bytes as text, the way the readers see a file: a UTF-8 byte-order mark is dropped, and
/// bytes that are not UTF-8 become U+FFFD (the file readers refuse them earlier; the parsers
/// must still survive any `String`).
func text(_ bytes: UnsafeRawBufferPointer) -> String {
    var slice = bytes[...]
    if slice.starts(with: [0xEF, 0xBB, 0xBF]) { slice = slice.dropFirst(3) }
    return String(decoding: slice, as: UTF8.self)
}
