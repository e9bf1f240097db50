#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one ``LiveMetronome/render(into:)`` call costs: renders `seconds` of `settings` with the
/// built-in sounds at `sampleRate` in blocks of `blockSize` frames, reading the monotonic clock
/// around each call, and returns the mean, the 99th percentile and the largest duration, in
/// microseconds.
///
/// The click events are taken off the ring every 64 blocks, between timed calls (a control
/// thread would do it concurrently). Meant for release builds; the first call includes a cold
/// cache.
public func measureLiveRenderCost(settings: MetronomeSettings, sampleRate: Int, blockSize: Int,
                                  seconds: Double) throws(MetronomeError) -> (meanMicroseconds: Double, p99: Double, max: Double) {
    guard blockSize > 0, seconds > 0 else { throw .outOfRange("benchmark", "\(blockSize) frames × \(seconds) s", "at least one frame") }
    let metronome = try LiveMetronome(settings: settings, sounds: .builtIn(sampleRate: sampleRate), sampleRate: sampleRate)
    let blocks = max(1, Int(seconds * Double(sampleRate)) / blockSize)
    var durations = [Double](repeating: 0, count: blocks)
    var buffer = [Float](repeating: 0, count: blockSize)
    var events: [LiveClickEvent] = []
    events.reserveCapacity(8_192)
    let renderer = metronome.renderer
    buffer.withUnsafeMutableBufferPointer { output in
        for block in 0..<blocks {
            var start = timespec(), end = timespec()
            clock_gettime(CLOCK_MONOTONIC, &start)
            renderer.render(into: output)
            clock_gettime(CLOCK_MONOTONIC, &end)
            durations[block] = Double(end.tv_sec - start.tv_sec) * 1e6 + Double(end.tv_nsec - start.tv_nsec) / 1e3
            if block % 64 == 63 {
                events.removeAll(keepingCapacity: true)
                metronome.pollEvents(into: &events)
            }
        }
    }
    let mean = durations.reduce(0, +) / Double(blocks)
    durations.sort()
    let p99 = durations[min(blocks - 1, Int((Double(blocks) * 0.99).rounded(.up)) - 1)]
    return (mean, p99, durations[blocks - 1])
}
