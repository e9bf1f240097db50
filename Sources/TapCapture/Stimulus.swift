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
    /// The whole file is decoded once first, so that a corrupt sample (NaN, infinite, far
    /// beyond full scale) is refused before anything plays rather than sent to the outputs.
    /// - Throws: `AudioError` when the file cannot be opened, holds nothing or holds a
    ///   corrupt sample.
    public static func file(_ path: String, outputChannels: Int = 2) throws(AudioError) -> Stimulus {
        let reader = try AudioFileReader(path: path)
        let info = reader.info
        do { try reader.forEachBlock { _ in } } catch { throw error as? AudioError ?? .readFailed(path: path, reason: "\(error)") }
        let channels = (0..<outputChannels).map { ChannelSelection.channel(min($0, info.channelCount - 1)) }
        return Stimulus(source: .file(path: path, channels: channels), sampleRate: info.sampleRate,
                        frameCount: info.frameCount)
    }

    /// Frames it lasts when played at `rate` (after sample-rate conversion; the same at its own rate).
    public func frameCount(atRate rate: Double) -> Int {
        Resampler.outputFrameCount(forInputFrames: frameCount, inputRate: Int(sampleRate), outputRate: Int(rate))
    }
}

/// Delivers a stimulus as interleaved frames at the server's rate, block by block, on the
/// feeder (writer) thread: from memory (converted in one go when its rate differs), or
/// streamed from its file.
final class StimulusReader {
    let channelCount: Int
    /// Frames it will deliver in all.
    let frameCount: Int
    private var memory: [[Float]] = []
    private var position = 0
    private let file: ConvertingFileReader?
    /// For each output, the file channel it plays (a mono file on two outputs is decoded once).
    private var sourceOfOutput: [Int] = []
    private var sourceFrames: [Float] = []

    init(_ stimulus: Stimulus, outputRate: Double) throws(AudioError) {
        channelCount = stimulus.channelCount
        switch stimulus.source {
        case .samples(let channels):
            memory = stimulus.sampleRate == outputRate ? channels
                : try Resampler.resample(channels, from: Int(stimulus.sampleRate), to: Int(outputRate))
            file = nil
            frameCount = memory[0].count
        case .file(let path, let channels):
            var sources: [ChannelSelection] = []
            for channel in channels where !sources.contains(channel) { sources.append(channel) }
            sourceOfOutput = channels.map { sources.firstIndex(of: $0)! }
            let file = try ConvertingFileReader(path: path, channels: sources, outputRate: Int(outputRate))
            self.file = file
            frameCount = file.frameCount
        }
    }

    /// Writes up to `maximumFrames` interleaved frames into `output`; returns how many
    /// (0 at the end).
    func read(into output: UnsafeMutablePointer<Float>, maximumFrames: Int) throws(AudioError) -> Int {
        if let file {
            guard file.channelCount < channelCount else { return try file.read(into: output, maximumFrames: maximumFrames) }
            let sources = file.channelCount
            if sourceFrames.count < maximumFrames * sources {
                sourceFrames = [Float](repeating: 0, count: maximumFrames * sources)
            }
            let count = try sourceFrames.withUnsafeMutableBufferPointer { buffer throws(AudioError) in
                try file.read(into: buffer.baseAddress!, maximumFrames: maximumFrames)
            }
            for frame in 0..<count {
                for (channel, source) in sourceOfOutput.enumerated() {
                    output[frame * channelCount + channel] = sourceFrames[frame * sources + source]
                }
            }
            return count
        }
        let count = min(maximumFrames, frameCount - position)
        for channel in 0..<channelCount {
            memory[channel].withUnsafeBufferPointer { samples in
                for frame in 0..<count { output[frame * channelCount + channel] = samples[position + frame] }
            }
        }
        position += count
        return count
    }
}
