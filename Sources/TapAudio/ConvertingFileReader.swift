/// Streams chosen channels of an audio file as interleaved frames at a chosen sample rate,
/// converting with a ``Resampler`` when the file's rate differs. Memory stays constant in the
/// file's length: it is what plays an hour-long stimulus, or converts a file to another rate.
///
/// Not thread-safe: one reader per thread.
public final class ConvertingFileReader {
    /// The channels delivered, in order (one reader per selection).
    public let channelCount: Int
    /// Frames per second of the output.
    public let outputRate: Int
    /// Frames it delivers in all: the file's length at ``outputRate``
    /// (``Resampler/outputFrameCount(forInputFrames:inputRate:outputRate:)``).
    public let frameCount: Int
    private let files: [AudioFileReader]
    private var resampler: Resampler?
    private var planar: [[Float]]
    private var interleaved: [Float]
    /// Converted frames (interleaved) not yet delivered, from `pendingStart` on.
    private var pending: [Float] = []
    private var pendingStart = 0
    private var sourceFinished = false
    private var delivered = 0
    private let blockFrames = 4_096

    /// Opens `path` once per entry of `channels` and prepares the conversion to `outputRate`.
    /// - Throws: ``AudioError`` for an unreadable file, a missing channel or an invalid rate.
    public init(path: String, channels: [ChannelSelection], outputRate: Int,
                quality: Resampler.Quality = .standard) throws(AudioError) {
        precondition(!channels.isEmpty, "at least one channel")
        files = try channels.map { (channel: ChannelSelection) throws(AudioError) in try AudioFileReader(path: path, channel: channel) }
        let info = files[0].info
        let inputRate = Int(info.sampleRate)
        channelCount = channels.count
        self.outputRate = outputRate
        frameCount = Resampler.outputFrameCount(forInputFrames: info.frameCount, inputRate: inputRate, outputRate: outputRate)
        planar = Array(repeating: [Float](repeating: 0, count: blockFrames), count: channels.count)
        interleaved = [Float](repeating: 0, count: blockFrames * channels.count)
        if inputRate != outputRate {
            let resampler = try Resampler(inputRate: inputRate, outputRate: outputRate, channels: channels.count,
                                          quality: quality)
            // Room for what is left over plus one more block's output: no reallocation later.
            pending.reserveCapacity(2 * resampler.maximumOutputFrames(forInputFrames: blockFrames) * channels.count)
            self.resampler = resampler
        }
    }

    /// Writes up to `maximumFrames` interleaved frames into `output`; returns how many (0 at
    /// the end).
    public func read(into output: UnsafeMutablePointer<Float>, maximumFrames: Int) throws(AudioError) -> Int {
        let wanted = min(maximumFrames, frameCount - delivered)
        guard wanted > 0 else { return 0 }
        let got = resampler == nil ? try readSource(into: output, frames: min(wanted, blockFrames))
                                   : try readConverted(into: output, frames: wanted)
        delivered += got
        return got
    }

    /// Goes back to the file's first frame: the next ``read(into:maximumFrames:)`` delivers
    /// the same frames as a new reader's would, bit for bit, without opening or decoding the
    /// file again (for an MP3, opening decodes it once to count its frames).
    /// - Throws: ``AudioError/readFailed(path:reason:)`` when the file cannot seek.
    public func rewind() throws(AudioError) {
        for file in files { try file.seek(toFrame: 0) }
        resampler?.reset()
        pending.removeAll(keepingCapacity: true)
        pendingStart = 0
        sourceFinished = false
        delivered = 0
    }

    /// Frames at the file's rate, interleaved.
    private func readSource(into output: UnsafeMutablePointer<Float>, frames: Int) throws(AudioError) -> Int {
        let channels = channelCount
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
        return count
    }

    /// Converted frames: file blocks go through the resampler until enough are pending.
    private func readConverted(into output: UnsafeMutablePointer<Float>, frames: Int) throws(AudioError) -> Int {
        let channels = channelCount
        while (pending.count - pendingStart) / channels < frames && !sourceFinished {
            if pendingStart > 0 {
                pending.removeFirst(pendingStart)
                pendingStart = 0
            }
            let count = try interleaved.withUnsafeMutableBufferPointer { buffer throws(AudioError) in
                try readSource(into: buffer.baseAddress!, frames: blockFrames)
            }
            if count == 0 {
                sourceFinished = true
                resampler!.finish(into: &pending)
            } else {
                interleaved.withUnsafeBufferPointer { buffer in
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
