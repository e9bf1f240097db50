import Foundation
import Testing
@testable import TapData

/// Runs `body` with a fresh, uniquely named directory that is removed afterwards
/// (permissions are restored first, so that a chmod-000 entry cannot block cleanup).
func withTemporaryDirectory(_ body: (String) throws -> Void) throws {
    let path = URL(fileURLWithPath: NSTemporaryDirectory())
        .appendingPathComponent("TapDataTests-" + UUID().uuidString).path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer {
        if let enumerator = FileManager.default.enumerator(atPath: path) {
            for case let name as String in enumerator {
                try? FileManager.default.setAttributes([.posixPermissions: 0o755],
                                                       ofItemAtPath: path + "/" + name)
            }
        }
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        try? FileManager.default.removeItem(atPath: path)
    }
    try body(path)
}

/// Writes `text` (or raw bytes) to `directory/name` and returns the path.
@discardableResult
func makeFile(_ directory: String, _ name: String, _ text: String = "") throws -> String {
    try makeFile(directory, name, bytes: Array(text.utf8))
}

@discardableResult
func makeFile(_ directory: String, _ name: String, bytes: [UInt8]) throws -> String {
    let path = directory + "/" + name
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
}

/// Removes all permissions from `path` and says whether that keeps *us* out. Root (as in
/// the CI container) reads anything regardless, so permission tests check this first.
func revokePermissions(_ path: String) throws -> Bool {
    try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: path)
    return !FileManager.default.isReadableFile(atPath: path)
}

/// The error a throwing call raised, or `nil` if it returned.
func caught<T>(_ body: () throws(TapDataError) -> T) -> TapDataError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}
