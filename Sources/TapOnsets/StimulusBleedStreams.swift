import Foundation
import TapAudio

/// Mono audio that can be read at any frame (recording or stimulus).
protocol FrameReadable {
    var sampleRate: Double { get }
    /// Frames in the audio.
    var frameCount: Int { get }
    /// Reads frames from `start` (≥ 0) into `buffer`; returns how many were read (fewer at the end).
    func read(from start: Int, into buffer: UnsafeMutableBufferPointer<Float>) throws(AudioError) -> Int
}

extension FileSource: FrameReadable {
    var frameCount: Int { reader.info.frameCount }

    func read(from start: Int, into buffer: UnsafeMutableBufferPointer<Float>) throws(AudioError) -> Int {
        if reader.framesRead != start { try reader.seek(toFrame: start) }
        var filled = 0
        while filled < buffer.count {
            let got = try reader.read(into: UnsafeMutableBufferPointer(rebasing: buffer[filled...]))
            if got == 0 { break }
            filled += got
        }
        return filled
    }
}

extension SignalSource: FrameReadable {
    var frameCount: Int { signal.samples.count }

    func read(from start: Int, into buffer: UnsafeMutableBufferPointer<Float>) throws(AudioError) -> Int {
        let count = max(0, min(buffer.count, signal.samples.count - start))
        guard count > 0 else { return 0 }
        signal.samples.withUnsafeBufferPointer { samples in
            buffer.baseAddress!.update(from: samples.baseAddress! + start, count: count)
        }
        return count
    }
}

/// A file's channels mixed to mono and converted to another sample rate, read front to back
/// through a `ConvertingFileReader` (the conversion `tapkit run` plays a stimulus through, so
/// the samples are those that were played). A read before the frame reached rewinds the
/// reader and converts again from the file's start: the bleed removal reads the stimulus in a
/// few front-to-back passes, so this happens once per pass. The file is opened once.
final class ConvertedFileSource: FrameReadable {
    let path: String
    let sampleRate: Double
    let frameCount: Int
    private let reader: ConvertingFileReader
    private var position = 0
    private var scratch = [Float](repeating: 0, count: 16_384)

    init(path: String, rate: Int) throws(AudioError) {
        self.path = path
        reader = try ConvertingFileReader(path: path, channels: [.mix], outputRate: rate)
        sampleRate = Double(rate)
        frameCount = reader.frameCount
    }

    func read(from start: Int, into buffer: UnsafeMutableBufferPointer<Float>) throws(AudioError) -> Int {
        if start < position {
            try reader.rewind()
            position = 0
        }
        while position < start {
            let wanted = min(scratch.count, start - position)
            let reader = self.reader
            let got = try scratch.withUnsafeMutableBufferPointer { skip throws(AudioError) in
                try reader.read(into: skip.baseAddress!, maximumFrames: wanted)
            }
            if got == 0 { return 0 }
            position += got
        }
        var filled = 0
        while filled < buffer.count {
            let got = try reader.read(into: buffer.baseAddress! + filled, maximumFrames: buffer.count - filled)
            if got == 0 { break }
            filled += got
        }
        position += filled
        return filled
    }
}

/// A window onto a stream of samples that is produced front to back: frames
/// `start ..< start + samples.count`; what lies before the window has been dropped.
struct SlidingWindow {
    private(set) var samples: [Float] = []
    private(set) var start: Int
    var end: Int { start + samples.count }

    init(start: Int) { self.start = start }

    mutating func append(_ values: UnsafeBufferPointer<Float>) { samples.append(contentsOf: values) }

    /// Drops frames before `frame` (in large steps, so the cost stays linear).
    mutating func drop(before frame: Int) {
        let count = min(frame - start, samples.count)
        guard count >= 65_536 && count * 2 >= samples.count else { return }
        samples.removeFirst(count)
        start += count
    }

    /// `body` with frames `from ..< from + count`, all of which must be in the window.
    func withFrames<R>(from: Int, count: Int, _ body: (UnsafeBufferPointer<Float>) -> R) -> R {
        precondition(from >= start && from + count <= end, "frames \(from)..<\(from + count) outside \(start)..<\(end)")
        return samples.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[(from - start)..<(from - start + count)])) }
    }
}

/// Audio high-passed (the detector's filter) and read front to back, at any frame: silence
/// before frame 0, and after the last frame the filter's ringing into silence. Requests must
/// not move backwards by more than what the window still holds.
struct HighPassedStream {
    let source: any FrameReadable
    private var filter: HighPassFilter
    private var window: SlidingWindow
    private var chunk: [Float]
    private var filtered: [Float]

    /// A stream whose first request starts at `firstFrame` or later.
    init(source: any FrameReadable, cutoff: Double, firstFrame: Int) {
        self.source = source
        filter = HighPassFilter(cutoff: cutoff, sampleRate: source.sampleRate)
        window = SlidingWindow(start: min(0, firstFrame))
        chunk = [Float](repeating: 0, count: 16_384)
        filtered = chunk
    }

    /// Frames `from ..< from + count`; drops what lies before `from`.
    mutating func withFrames<R>(from: Int, count: Int, _ body: (UnsafeBufferPointer<Float>) -> R) throws(AudioError) -> R {
        try produce(upTo: from + count, keepingFrom: from)
        return window.withFrames(from: from, count: count, body)
    }

    private mutating func produce(upTo frame: Int, keepingFrom keep: Int) throws(AudioError) {
        window.drop(before: keep)
        while window.end < frame {
            // A request far ahead (a stimulus that started long before the recording) must
            // not keep everything filtered on the way.
            window.drop(before: keep)
            let position = window.end
            if position < 0 {
                // Silence before the audio: the filter, at rest, stays at rest.
                let count = min(chunk.count, -position, frame - position)
                for index in 0..<count { filtered[index] = 0 }
                filtered.withUnsafeBufferPointer { window.append(UnsafeBufferPointer(rebasing: $0[0..<count])) }
                continue
            }
            let count = min(chunk.count, max(frame - position, 4_096))
            var got = 0
            if position < source.frameCount {
                let wanted = min(count, source.frameCount - position)
                let source = self.source
                got = try chunk.withUnsafeMutableBufferPointer { buffer throws(AudioError) in
                    try source.read(from: position, into: UnsafeMutableBufferPointer(rebasing: buffer[0..<wanted]))
                }
            }
            for index in got..<count { chunk[index] = 0 }
            chunk.withUnsafeBufferPointer { input in
                filtered.withUnsafeMutableBufferPointer { output in
                    filter.process(UnsafeBufferPointer(rebasing: input[0..<count]), into: output.baseAddress!)
                }
            }
            filtered.withUnsafeBufferPointer { window.append(UnsafeBufferPointer(rebasing: $0[0..<count])) }
        }
    }
}

/// Where the stimulus sounds on the recording's clock: recording frame `n` hears stimulus
/// frame `n − delay(n)`, with `delay(n) = intercept + slope × n` frames (the stimulus's start
/// offset, the acoustic and device delay, and the two clocks' drift).
public struct StimulusDelayLine: Sendable, Equatable {
    /// The delay at recording frame 0, frames.
    public var intercept: Double
    /// Its change per recording frame (a drift of 40 ppm is ±4 × 10⁻⁵).
    public var slope: Double

    /// The delay at recording frame `frame`, frames.
    public func delay(atFrame frame: Double) -> Double { intercept + slope * frame }
}

/// The high-passed stimulus time-warped onto the recording's clock, frame by frame:
/// `output[n] = stimulus(n − delay(n))`, read between frames with a windowed-sinc interpolator
/// (Kaiser window, 32 taps, 512 tabulated phases: timing to 1/1 024 of a frame). So a clock
/// drift never leaves the stimulus more than a thousandth of a frame off, however long the
/// recording.
struct WarpedStimulus {
    static let halfTaps = 16
    static let phases = 512
    /// Row `q` holds the taps for a fractional position q / phases (rows 0 … phases).
    private static let table: [Float] = {
        let taps = 2 * halfTaps
        var table = [Float](repeating: 0, count: (phases + 1) * taps)
        // Cut-off at 0.45 of the rate (of Nyquist: 0.9), Kaiser β = 8 (about 80 dB).
        let cutoff = 0.9, beta = 8.0
        func besselI0(_ x: Double) -> Double {
            var term = 1.0, sum = 1.0, k = 1.0
            while term > sum * 1e-17 {
                term *= (x / 2 / k) * (x / 2 / k)
                sum += term
                k += 1
            }
            return sum
        }
        for q in 0...phases {
            let fraction = Double(q) / Double(phases)
            var row = [Double](repeating: 0, count: taps)
            for m in 0..<taps {
                // Tap m weighs stimulus frame i − halfTaps + 1 + m for position i + fraction.
                let u = fraction + Double(halfTaps - 1 - m)
                let sinc = u == 0 ? 1 : sin(Double.pi * cutoff * u) / (Double.pi * cutoff * u)
                let position = u / Double(halfTaps)
                let window = abs(position) < 1 ? besselI0(beta * (1 - position * position).squareRoot()) / besselI0(beta) : 0
                row[m] = sinc * window
            }
            let sum = row.reduce(0, +)
            for m in 0..<taps { table[q * taps + m] = Float(row[m] / sum) }
        }
        return table
    }()

    private var stimulus: HighPassedStream
    let line: StimulusDelayLine
    private var window: SlidingWindow
    private var block: [Float]

    init(stimulus source: any FrameReadable, cutoff: Double, line: StimulusDelayLine, firstFrame: Int) {
        self.line = line
        let first = Int((Double(firstFrame) - line.delay(atFrame: Double(firstFrame))).rounded(.down)) - Self.halfTaps - 8
        stimulus = HighPassedStream(source: source, cutoff: cutoff, firstFrame: first)
        window = SlidingWindow(start: firstFrame)
        block = [Float](repeating: 0, count: 8_192)
    }

    /// Frames `from ..< from + count` of the warped stimulus (recording frames).
    mutating func withFrames<R>(from: Int, count: Int, _ body: (UnsafeBufferPointer<Float>) -> R) throws(AudioError) -> R {
        while window.end < from + count { try produceBlock() }
        window.drop(before: from)
        return window.withFrames(from: from, count: count, body)
    }

    private mutating func produceBlock() throws(AudioError) {
        let first = window.end
        let count = block.count
        // Stimulus positions of the block's first and last frames (the delay is monotone).
        let positionFirst = Double(first) - line.delay(atFrame: Double(first))
        let positionLast = Double(first + count - 1) - line.delay(atFrame: Double(first + count - 1))
        let low = Int(min(positionFirst, positionLast).rounded(.down)) - Self.halfTaps + 1
        let high = Int(max(positionFirst, positionLast).rounded(.down)) + Self.halfTaps + 1
        let taps = 2 * Self.halfTaps
        let phases = Double(Self.phases)
        let step = 1 - line.slope
        let origin = -line.intercept
        try stimulus.withFrames(from: low, count: high - low) { input in
            Self.table.withUnsafeBufferPointer { table in
                block.withUnsafeMutableBufferPointer { output in
                    for index in 0..<count {
                        let position = origin + step * Double(first + index)
                        let whole = position.rounded(.down)
                        let row = Int(((position - whole) * phases).rounded()) * taps
                        let base = Int(whole) - Self.halfTaps + 1 - low
                        var sum: Float = 0
                        for m in 0..<taps { sum += table[row + m] * input[base + m] }
                        output[index] = sum
                    }
                }
            }
        }
        block.withUnsafeBufferPointer { window.append($0) }
    }
}
