import Foundation

/// Keeps CPU-heavy tests and real-time timing tests apart on a small machine: any number of
/// timing tests (JACK servers) may run together, and a heavy test waits until none runs, and
/// they wait for it. Without this, a long computation on one of two cores delays the JACK
/// callbacks the timing tests measure.
public enum CPUShare {
    private static let condition = NSCondition()
    nonisolated(unsafe) private static var timing = 0
    nonisolated(unsafe) private static var heavyRunning = false

    /// Runs `body` while no timing test runs.
    public static func heavy<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        while timing > 0 || heavyRunning { condition.wait() }
        heavyRunning = true
        condition.unlock()
        defer {
            condition.lock()
            heavyRunning = false
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }

    /// A timing test begins (call `endTiming()` when it ends).
    public static func beginTiming() {
        condition.lock()
        while heavyRunning { condition.wait() }
        timing += 1
        condition.unlock()
    }

    public static func endTiming() {
        condition.lock()
        timing -= 1
        condition.broadcast()
        condition.unlock()
    }
}
