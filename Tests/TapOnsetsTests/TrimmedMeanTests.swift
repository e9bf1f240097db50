import Testing
@testable import TapOnsets

/// The click template's trimmed mean sorts eight columns at once through a sorting network; it
/// must give what sorting every column gives, to the bit.
@Suite struct TrimmedMeanTests {
    /// The trimmed mean as first written: each column sorted whole, the middle half summed.
    func bySorting(_ segments: [[Float]], length: Int) -> [Float] {
        let trim = segments.count / 4, kept = segments.count - 2 * trim
        return (0..<length).map { index in
            let column = segments.map { $0[index] }.sorted()
            var sum: Float = 0
            for value in column[trim..<(trim + kept)] { sum += value }
            return sum / Float(kept)
        }
    }

    /// Values whose sums round (not multiples of a power of two, so adding them in another
    /// order gives other bits), with ties and signed zeros.
    static func values(count: Int, length: Int, seed: UInt64) -> [[Float]] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &* (seed + 1)
        return (0..<count).map { _ in
            (0..<length).map { index in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                switch index % 7 {
                case 0: return 1
                case 3: return state >> 63 == 0 ? 0 : -0.0
                default: return Float(Int(state >> 40)) * 1e-6 - 8
                }
            }
        }
    }

    @Test(arguments: [0, 1, 2, 3, 4, 5, 6, 7, 8, 17, 64, 100, 127])
    func equalsSortingEveryColumn(segmentCount: Int) {
        for length in [0, 1, 7, 16, 301] {
            let segments = Self.values(count: segmentCount, length: length, seed: UInt64(segmentCount * 1000 + length))
            #expect(trimmedMean(segments, length: length).map(\.bitPattern) == bySorting(segments, length: length).map(\.bitPattern),
                    "\(segmentCount) segments of \(length)")
        }
    }

    /// Where a segment's window is set aside, the mean there is the other segments', unless
    /// fewer than half of them would be left; and `louderSoundWindows` sets aside a loud sound
    /// in a few quiet segments, with the windows on either side of it.
    @Test func windowsSetAsideAreLeftOutOfTheMean() {
        var state: UInt64 = 11
        func next() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int(state >> 52)) / 4096 - 0.5
        }
        let length = 80, window = 8
        // Twelve segments of faint noise; a loud burst over frames 40–47 in four of them.
        var segments = (0..<12).map { _ in (0..<length).map { _ in 0.01 * next() } }
        for s in [1, 4, 7, 10] { for index in 40..<48 { segments[s][index] = next() > 0 ? 1 : -1 } }
        let setAside = louderSoundWindows(segments.map { $0[...] }, window: window)
        let loud: Set<Int> = [1, 4, 7, 10]
        for (s, windows) in setAside.enumerated() {
            #expect(windows == (0..<(length / window)).map { loud.contains(s) && (4...6).contains($0) }, "segment \(s)")
        }
        let mean = trimmedMean(segments, length: length, setAside: setAside, window: window)
        let quiet = segments.indices.filter { !loud.contains($0) }.map { segments[$0] }
        #expect(Array(mean[32..<56]) == Array(bySorting(quiet, length: length)[32..<56]))
        #expect(Array(mean[0..<32]) == Array(bySorting(segments, length: length)[0..<32]))
        #expect(mean[40..<48].allSatisfy { abs($0) < 0.01 })
        // A click 20 dB louder as a whole (a gain control) holds no sound of its own.
        var scaled = segments
        scaled[2] = scaled[2].map { 10 * $0 }
        #expect(louderSoundWindows(scaled.map { $0[...] }, window: window)[2].allSatisfy { !$0 })
        // Set aside in seven of the twelve, a window keeps all of them.
        let most = segments.indices.map { s in (0..<(length / window)).map { $0 == 5 && s < 7 } }
        #expect(trimmedMean(segments, length: length, setAside: most, window: window) == bySorting(segments, length: length))
    }

    /// The sorting network sorts any count of values, lane by lane, ties and all.
    @Test func theSortingNetworkSortsEachLane() {
        var state: UInt64 = 7
        for count in 0...130 {
            let network = SortingNetwork(count: count)
            var values = (0..<count).map { _ in
                SIMD8<Float>((0..<8).map { lane -> Float in
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    return Float(Int(state >> 58)) - Float(lane)   // few distinct values: many ties
                })
            }
            let expected = (0..<8).map { lane in values.map { $0[lane] }.sorted() }
            values.withUnsafeMutableBufferPointer { if count > 0 { network.sortLanes($0.baseAddress!) } }
            for lane in 0..<8 { #expect(values.map { $0[lane] } == expected[lane], "count \(count), lane \(lane)") }
        }
    }

    /// By the 0-1 principle (Knuth §5.3.4), a network that sorts every sequence of zeros and
    /// ones sorts every sequence: checked exhaustively up to 16 values, eight inputs a pass.
    @Test func theSortingNetworkSortsEveryZeroOneSequence() {
        for count in 1...16 {
            let network = SortingNetwork(count: count)
            var failures = 0
            for first in stride(from: 0, to: 1 << count, by: 8) {
                var values = (0..<count).map { position in
                    SIMD8<Float>((0..<8).map { lane in Float(((first + lane) >> position) & 1) })
                }
                values.withUnsafeMutableBufferPointer { network.sortLanes($0.baseAddress!) }
                for lane in 0..<8 where first + lane < 1 << count {
                    let sorted = values.map { $0[lane] }
                    if sorted != sorted.sorted() { failures += 1 }
                }
            }
            #expect(failures == 0, "count \(count)")
        }
    }

    /// Runs of set-aside windows that end between groups of eight frames are averaged over
    /// the right segments.
    @Test func windowsThatSplitAGroupOfEightFrames() {
        let length = 61, window = 5
        let segments = Self.values(count: 13, length: length, seed: 5)
        let setAside = segments.indices.map { s in (0..<(length / window)).map { w in (s + w) % 4 == 0 } }
        let mean = trimmedMean(segments, length: length, setAside: setAside, window: window)
        for index in 0..<length {
            let w = index / window
            let kept = w < setAside[0].count ? segments.indices.filter { !setAside[$0][w] } : Array(segments.indices)
            let used = 2 * kept.count < segments.count ? Array(segments.indices) : kept
            #expect(mean[index].bitPattern == bySorting(used.map { [segments[$0][index]] }, length: 1)[0].bitPattern, "frame \(index)")
        }
    }
}
