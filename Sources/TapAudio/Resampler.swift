/// A streaming, band-limited sample-rate converter with exact timing.
///
/// Output frame `k` is the band-limited input evaluated at input time `k × inputRate /
/// outputRate` (in input frames), exactly: the filter is centred on each output frame, so it
/// adds no delay, and a click at input time *t* seconds is centred at output time *t* seconds.
/// Before the first input frame and after the last, the input counts as silence.
///
/// The rate ratio is reduced to `L/M` by the gcd and a polyphase bank of Kaiser-windowed
/// sinc filters (one phase per fractional position, see ``Quality`` for the design) is
/// precomputed in `init`. Equal rates are a bit-identical pass-through.
///
/// Feed interleaved frames in blocks of any size with ``process(_:into:)`` and end the stream
/// with ``finish(into:)``. The output does not depend on how the input was split into
/// blocks: it is bit-identical to converting it in one call. After `init` the converter
/// allocates nothing; it appends to the caller's array, which allocates only if its reserved
/// capacity runs out (see ``maximumOutputFrames(forInputFrames:)``).
///
/// ```swift
/// var resampler = try Resampler(inputRate: 44_100, outputRate: 48_000, channels: 2)
/// var output: [Float] = []
/// output.reserveCapacity(2 * resampler.maximumOutputFrames(forInputFrames: 4_096))
/// for block in blocks { block.withUnsafeBufferPointer { resampler.process($0, into: &output) } }
/// resampler.finish(into: &output)
/// ```
public struct Resampler: Sendable {
    /// Input frames per second.
    public let inputRate: Int
    /// Output frames per second.
    public let outputRate: Int
    /// Samples per frame, in the input and the output alike.
    public let channelCount: Int
    /// The filter preset.
    public let quality: Quality

    /// `nil` when the rates are equal (pass-through).
    private let bank: PolyphaseFilterBank?
    /// Recent input, one contiguous run of `historyCapacity` frames per channel, so each
    /// output's `2K` input frames are adjacent in memory.
    private var history: [Float]
    private let historyCapacity: Int
    /// Absolute input frame index of `history`'s first frame (negative at the start, where
    /// the silence before the input is held).
    private var historyStart = 0
    /// Frames held in `history`.
    private var historyCount = 0
    /// Input frames received since the stream began.
    private var inputFrames = 0
    /// Output frames appended since the stream began.
    private var outputFrames = 0
    /// The next output's input time is `nextFrame + nextPhase / L` input frames.
    private var nextFrame = 0
    private var nextPhase = 0

    /// Input frames gathered between two rounds of output, beyond the filter's own length.
    private static let blockFrames = 4_096

    /// Creates a converter and precomputes its filter.
    ///
    /// - Parameters:
    ///   - inputRate: Input frames per second (> 0).
    ///   - outputRate: Output frames per second (> 0).
    ///   - channels: Samples per interleaved frame (> 0).
    ///   - quality: The filter preset.
    /// - Throws: ``AudioError/invalidResampling(_:)`` for a rate or channel count ≤ 0, or a
    ///   rate pair whose reduced ratio `L/M` needs a filter table over 2²⁴ coefficients
    ///   (e.g. 44 100 → 192 001 Hz, where `L` is 192 001). The table holds `L × 2K` floats:
    ///   85 KiB for 44.1 → 48 kHz at `.standard`, but 26 MB for 44 100 → 48 001 Hz.
    public init(inputRate: Int, outputRate: Int, channels: Int,
                quality: Quality = .standard) throws(AudioError) {
        guard inputRate > 0, outputRate > 0 else {
            throw .invalidResampling("sample rates must be positive, not \(inputRate) Hz → \(outputRate) Hz")
        }
        guard channels > 0 else {
            throw .invalidResampling("the channel count must be positive, not \(channels)")
        }
        self.inputRate = inputRate
        self.outputRate = outputRate
        self.channelCount = channels
        self.quality = quality
        guard inputRate != outputRate else {
            bank = nil
            history = []
            historyCapacity = 0
            return
        }
        let divisor = Self.gcd(inputRate, outputRate)
        guard let bank = PolyphaseFilterBank(upFactor: outputRate / divisor,
                                             downFactor: inputRate / divisor,
                                             quality: quality)
        else {
            throw .invalidResampling(
                "\(inputRate) Hz → \(outputRate) Hz reduces to \(outputRate / divisor)/\(inputRate / divisor); "
                    + "its filter table (one phase per output step, \(outputRate / divisor) phases) would exceed 2^24 coefficients")
        }
        self.bank = bank
        historyCapacity = 2 * bank.halfLength + Self.blockFrames
        history = [Float](repeating: 0, count: channels * historyCapacity)
        reset()
    }

    /// The number of output frames a stream of `inputFrames` frames yields in all:
    /// `(inputFrames × outputRate + inputRate / 2) / inputRate` in integer arithmetic, i.e.
    /// the input's length in output frames rounded to the nearest frame, halves up.
    public static func outputFrameCount(forInputFrames inputFrames: Int,
                                        inputRate: Int, outputRate: Int) -> Int {
        (inputFrames * outputRate + inputRate / 2) / inputRate
    }

    /// Input frames that must arrive past an output frame's time before ``process(_:into:)``
    /// can append it: the filter's half length `K` (0 when the rates are equal). The output
    /// trails the input by this much until ``finish(into:)``.
    public var inputLookahead: Int { bank?.halfLength ?? 0 }

    /// An upper bound on the frames one ``process(_:into:)`` call with `inputFrames` frames,
    /// or the ``finish(into:)`` after it, appends: reserve this many frames (times
    /// ``channelCount``) in the output array to keep the calls free of allocation.
    public func maximumOutputFrames(forInputFrames inputFrames: Int) -> Int {
        guard let bank else { return inputFrames }
        let spanned = inputFrames + 2 * bank.halfLength + 1
        return (spanned * bank.upFactor + bank.downFactor - 1) / bank.downFactor + 1
    }

    /// Converts interleaved input frames and appends the output frames that are complete.
    ///
    /// An output frame is complete once the input reaches ``inputLookahead`` frames past its
    /// time, so the output trails the input by that much until ``finish(into:)``.
    ///
    /// - Parameters:
    ///   - input: Interleaved samples, a whole number of frames.
    ///   - output: Interleaved output samples are appended here.
    public mutating func process(_ input: UnsafeBufferPointer<Float>, into output: inout [Float]) {
        precondition(input.count % channelCount == 0,
                     "input holds \(input.count) samples, not a whole number of \(channelCount)-channel frames")
        let frames = input.count / channelCount
        inputFrames += frames
        guard bank != nil else {
            output.append(contentsOf: input)
            outputFrames += frames
            return
        }
        var consumed = 0
        while consumed < frames {
            let take = min(historyCapacity - historyCount, frames - consumed)
            appendToHistory(input, fromFrame: consumed, frames: take)
            consumed += take
            produce(upTo: Int.max, into: &output)
            discardUsedHistory()
        }
    }

    /// Ends the stream: treats the input as continuing with silence, appends the remaining
    /// output frames, so that the stream's total is
    /// ``outputFrameCount(forInputFrames:inputRate:outputRate:)``, and resets the converter
    /// for a new stream.
    public mutating func finish(into output: inout [Float]) {
        let total = Self.outputFrameCount(forInputFrames: inputFrames,
                                          inputRate: inputRate, outputRate: outputRate)
        if let bank {
            while outputFrames < total {
                // Silence up to the input frame the last output frame needs, and no further.
                let lastFrame = nextFrame
                    + (nextPhase + (total - 1 - outputFrames) * bank.downFactor) / bank.upFactor
                let needed = lastFrame + bank.halfLength + 1 - (historyStart + historyCount)
                appendSilenceToHistory(frames: min(needed, historyCapacity - historyCount))
                produce(upTo: total, into: &output)
                discardUsedHistory()
            }
        }
        reset()
    }

    /// Forgets the stream so far: the next ``process(_:into:)`` starts a new one.
    public mutating func reset() {
        inputFrames = 0
        outputFrames = 0
        nextFrame = 0
        nextPhase = 0
        guard let bank else { return }
        // The K − 1 frames of silence before frame 0 that the first output frames reach back to.
        historyStart = 1 - bank.halfLength
        historyCount = 0
        appendSilenceToHistory(frames: bank.halfLength - 1)
    }

    // MARK: - Streaming internals

    /// Copies `frames` interleaved frames, from `fromFrame` on, to the end of each channel's history.
    private mutating func appendToHistory(_ input: UnsafeBufferPointer<Float>, fromFrame: Int, frames: Int) {
        let channels = channelCount
        let capacity = historyCapacity
        let end = historyCount
        history.withUnsafeMutableBufferPointer { history in
            for channel in 0..<channels {
                let destination = history.baseAddress! + channel * capacity + end
                var source = fromFrame * channels + channel
                for frame in 0..<frames {
                    destination[frame] = input[source]
                    source += channels
                }
            }
        }
        historyCount += frames
    }

    private mutating func appendSilenceToHistory(frames: Int) {
        guard frames > 0 else { return }
        let channels = channelCount
        let capacity = historyCapacity
        let end = historyCount
        history.withUnsafeMutableBufferPointer { history in
            for channel in 0..<channels {
                (history.baseAddress! + channel * capacity + end).update(repeating: 0, count: frames)
            }
        }
        historyCount += frames
    }

    /// Appends every output frame whose input is all in the history, stopping at absolute
    /// output frame `limit`.
    private mutating func produce(upTo limit: Int, into output: inout [Float]) {
        guard let bank else { return }
        let upFactor = bank.upFactor
        let downFactor = bank.downFactor
        let halfLength = bank.halfLength
        let taps = bank.tapCount
        // Output k is complete when its last input frame, nextFrame + K, is held: count the
        // k whose whole part is ≤ lastUsable, i.e. whose position (in 1/L frames) is below
        // (lastUsable + 1)·L.
        let lastUsable = historyStart + historyCount - 1 - halfLength
        let span = (lastUsable + 1 - nextFrame) * upFactor - nextPhase
        guard span > 0 else { return }
        let count = min((span + downFactor - 1) / downFactor, limit - outputFrames)
        guard count > 0 else { return }

        let channels = channelCount
        let capacity = historyCapacity
        let firstSample = output.count
        output.append(contentsOf: repeatElement(0, count: count * channels))
        var frame = nextFrame
        var phase = nextPhase
        let wholeStep = downFactor / upFactor
        let phaseStep = downFactor % upFactor
        let start = historyStart
        history.withUnsafeBufferPointer { history in
            bank.coefficients.withUnsafeBufferPointer { coefficients in
                output.withUnsafeMutableBufferPointer { output in
                    var sample = firstSample
                    for _ in 0..<count {
                        let phaseTaps = coefficients.baseAddress! + phase * taps
                        let window = history.baseAddress! + (frame + 1 - halfLength - start)
                        if channels == 2 {
                            (output[sample], output[sample + 1]) =
                                dotProducts(phaseTaps, window, window + capacity, count: taps)
                            sample += 2
                        } else {
                            for channel in 0..<channels {
                                output[sample] = dotProduct(phaseTaps, window + channel * capacity, count: taps)
                                sample += 1
                            }
                        }
                        frame += wholeStep
                        phase += phaseStep
                        if phase >= upFactor {
                            phase -= upFactor
                            frame += 1
                        }
                    }
                }
            }
        }
        nextFrame = frame
        nextPhase = phase
        outputFrames += count
    }

    /// Drops the frames no future output reaches back to and moves the rest to the front.
    private mutating func discardUsedHistory() {
        guard let bank else { return }
        let firstNeeded = nextFrame + 1 - bank.halfLength
        let drop = min(firstNeeded - historyStart, historyCount)
        guard drop > 0 else { return }
        // The filter is at least one output step long, so the next output never starts past
        // the frames received.
        assert(firstNeeded <= historyStart + historyCount)
        let kept = historyCount - drop
        let channels = channelCount
        let capacity = historyCapacity
        if kept > 0 {
            history.withUnsafeMutableBufferPointer { history in
                for channel in 0..<channels {
                    let base = history.baseAddress! + channel * capacity
                    base.update(from: base + drop, count: kept)
                }
            }
        }
        historyStart += drop
        historyCount = kept
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }
}
