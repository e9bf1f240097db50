import Foundation
import Testing
import TapTestSupport

/// A fresh temporary directory, removed when released.
final class TemporaryFolder {
    let path: String
    init() {
        path = NSTemporaryDirectory() + "tapkit-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    func file(_ name: String) -> String { path + "/" + name }
}

/// Minimal decoding of `tapkit latency --format json`.
struct LatencyJSON: Decodable {
    struct Row: Decodable {
        var task: String
        var n_touches: Int
        var n_onsets: Int
        var n_matched: Int
        var n_unmatched_touches: Int
        var n_unmatched_onsets: Int
        var mean_ms: Double?
        var sd_ms: Double?
        var median_ms: Double?
        var iqr_ms: Double?
        var ci95_ms: [Double]?
        var drift_ppm: Double?
    }
    struct ErrorEntry: Decodable {
        var file: String
        var message: String
    }
    var tasks: [Row]
    var overall: Row
    var errors: [ErrorEntry]
}
