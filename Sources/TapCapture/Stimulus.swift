import TapAudio

/// What a capture run plays: samples already in memory, or an audio file that is streamed from
/// disk while it plays, so an hour-long stimulus costs a few megabytes, not a gigabyte.
public struct Stimulus: Sendable {
    enum Source: Sendable {
        case samples([[Float]])
        /// One channel selection per output channel (a mono file feeds both).
        case file(path: String, channels: [ChannelSelection])
    }

    let source: Source
    /// Frames per second of the material as stored.
    public let sampleRate: Double
    /// Length in frames at ``sampleRate``.
    public let frameCount: Int
    /// Output channels it plays on.
    public var channelCount: Int {
        switch source {
        case .samples(let channels): return channels.count
        case .file(_, let channels): return channels.count
        }
    }

    /// Samples in memory, one array per output channel, all of one length.
    public static func samples(_ channels: [[Float]], sampleRate: Double) -> Stimulus {
        precondition(!channels.isEmpty && channels.allSatisfy { $0.count == channels[0].count },
                     "a stimulus needs at least one channel, all of one length")
        return Stimulus(source: .samples(channels), sampleRate: sampleRate, frameCount: channels[0].count)
    }

    /// The audio file at `path`, streamed during the run on `outputChannels` outputs: a mono
    /// file plays on all of them, a file with more channels gives its first ones.
    /// - Throws: ``AudioError`` when the file cannot be opened or holds nothing.
    public static func file(_ path: String, outputChannels: Int = 2) throws(AudioError) -> Stimulus {
        let info = try AudioFileReader(path: path).info
        let channels = (0..<outputChannels).map { ChannelSelection.channel(min($0, info.channelCount - 1)) }
        return Stimulus(source: .file(path: path, channels: channels), sampleRate: info.sampleRate,
                        frameCount: info.frameCount)
    }

    /// Frames it lasts when played at `rate` (after sample-rate conversion).
    public func frameCount(atRate rate: Double) -> Int {
        rate == sampleRate ? frameCount : Resampler.outputFrameCount(forInputFrames: frameCount,
                                                                     inputRate: Int(sampleRate), outputRate: Int(rate))
    }
}

/// Delivers a stimulus as interleaved frames at the server's rate, block by block, on the
/// feeder (writer) thread: from memory, or decoded from the file and converted to the server's
/// rate on the way.
final class StimulusReader {
    let channelCount: Int
    /// Frames it will deliver in all.
    let frameCount: Int
    private var delivered = 0
    private let memory: [[Float]]?
    private let files: [AudioFileReader]
    private var resampler: Resampler?
    /// Decoded but not yet delivered output frames (interleaved), when converting the rate.
    private var pending: [Float] = []
    private var pendingStart = 0
    private var planar: [[Float]]
    private var interleavedInput: [Float]
    private let blockFrames = 4_096

    init(_ stimulus: Stimulus, outputRate: Double) throws(AudioError) {
        channelCount = stimulus.channelCount
        frameCount = stimulus.frameCount(atRate: outputRate)
        switch stimulus.source {
        case .samples(let channels):
            memory = channels
            files = []
        case .file(let path, let channels):
            memory = nil
            files = try channels.map { (channel: ChannelSelection) throws(AudioError) in try AudioFileReader(path: path, channel: channel) }
        }
        planar = Array(repeating: [Float](repeating: 0, count: blockFrames), count: channelCount)
        interleavedInput = [Float](repeating: 0, count: blockFrames * channelCount)
        if outputRate != stimulus.sampleRate {
            let resampler = try Resampler(inputRate: Int(stimulus.sampleRate), outputRate: Int(outputRate),
                                          channels: channelCount)
            // Room for what is left over plus one more block's output: no reallocation later.
            pending.reserveCapacity(2 * resampler.maximumOutputFrames(forInputFrames: blockFrames) * channelCount)
            self.resampler = resampler
        }
    }

    /// Writes up to `maximumFrames` interleaved frames into `output`; returns how many
    /// (0 at the end).
    func read(into output: UnsafeMutablePointer<Float>, maximumFrames: Int) throws(AudioError) -> Int {
        let wanted = min(maximumFrames, frameCount - delivered)
        guard wanted > 0 else { return 0 }
        let got: Int
        if resampler != nil {
            got = try readConverted(into: output, frames: wanted)
        } else {
            got = try readSource(into: output, frames: min(wanted, blockFrames))
        }
        delivered += got
        return got
    }

    /// Source frames at the source's rate, interleaved.
    private func readSource(into output: UnsafeMutablePointer<Float>, frames: Int) throws(AudioError) -> Int {
        let channels = channelCount
        if let memory {
            let start = sourcePosition
            let count = min(frames, memory[0].count - start)
            for channel in 0..<channels {
                memory[channel].withUnsafeBufferPointer { samples in
                    for frame in 0..<count { output[frame * channels + channel] = samples[start + frame] }
                }
            }
            sourcePosition += count
            return count
        }
        var count = Int.max
        for channel in 0..<channels {
            let got = try planar[channel].withUnsafeMutableBufferPointer { buffer throws(AudioError) in
                try files[channel].read(into: UnsafeMutableBufferPointer(rebasing: buffer[0..<frames]))
            }
            count = min(count, got)
        }
        for channel in 0..<channels {
            planar[channel].withUnsafeBufferPointer { samples in
                for frame in 0..<count { output[frame * channels + channel] = samples[frame] }
            }
        }
        sourcePosition += count
        return count
    }

    private var sourcePosition = 0
    private var sourceFinished = false

    /// Converted frames: source blocks go through the resampler until enough are pending.
    private func readConverted(into output: UnsafeMutablePointer<Float>, frames: Int) throws(AudioError) -> Int {
        let channels = channelCount
        while (pending.count - pendingStart) / channels < frames && !sourceFinished {
            if pendingStart > 0 {
                pending.removeFirst(pendingStart)
                pendingStart = 0
            }
            let count = try interleavedInput.withUnsafeMutableBufferPointer { buffer throws(AudioError) in
                try readSource(into: buffer.baseAddress!, frames: blockFrames)
            }
            if count == 0 {
                sourceFinished = true
                resampler!.finish(into: &pending)
            } else {
                interleavedInput.withUnsafeBufferPointer { buffer in
                    resampler!.process(UnsafeBufferPointer(rebasing: buffer[0..<count * channels]), into: &pending)
                }
            }
        }
        let count = min(frames, (pending.count - pendingStart) / channels)
        pending.withUnsafeBufferPointer { buffer in
            output.update(from: buffer.baseAddress! + pendingStart, count: count * channels)
        }
        pendingStart += count * channels
        return count
    }
}
