import CSndFile

/// Writes audio files block by block through libsndfile.
///
/// Samples outside −1 … 1 are clipped (not wrapped) in integer formats. In WAV and AIFF the
/// header is rewritten after every block, so a file whose writer dies part-way (even killed
/// with SIGKILL) stays valid and holds everything written so far. FLAC and Ogg Vorbis have no
/// such header: their length is known only once the file is closed.
public final class AudioFileWriter {
    /// The file being written.
    public let path: String
    /// Channels per frame.
    public let channelCount: Int
    private let handle: OpaquePointer
    private var isClosed = false
    /// Data bytes the container's 32-bit size fields can count (WAV, AIFF), or nil.
    private let byteLimit: Int?
    private let bytesPerFrame: Int
    private var framesWritten = 0

    /// Creates (or truncates) `path`.
    ///
    /// WAV and AIFF count their size in 32 bits, so they hold at most 4 GiB. When
    /// `expectedFrames` says a WAV file will be larger, it is written as RF64 (the 64-bit WAV
    /// that libsndfile, sox and ffmpeg read); otherwise a write that would pass 4 GiB fails
    /// with a message, never wrapping the sizes into a corrupt file.
    public convenience init(path: String, format: AudioFileFormat, sampleRate: Double,
                            channelCount: Int = 1, expectedFrames: Int? = nil) throws(AudioError) {
        try self.init(path: path, format: format, sampleRate: sampleRate, channelCount: channelCount,
                      expectedFrames: expectedFrames, sizeLimit: Int(UInt32.max) - 4_096)
    }

    /// `sizeLimit`: the data bytes a 32-bit size field can count, less room for the header
    /// chunks; smaller only in tests, which cannot write 4 GiB.
    init(path: String, format: AudioFileFormat, sampleRate: Double, channelCount: Int,
         expectedFrames: Int?, sizeLimit limit: Int) throws(AudioError) {
        var sfInfo = SF_INFO()
        sfInfo.samplerate = Int32(sampleRate.rounded())
        sfInfo.channels = Int32(channelCount)
        sfInfo.format = format.code
        bytesPerFrame = format.bytesPerSample * channelCount
        let container = Int(format.code) & SF_FORMAT_TYPEMASK
        let hasSmallSizes = container == SF_FORMAT_WAV || container == SF_FORMAT_AIFF
        if hasSmallSizes, container == SF_FORMAT_WAV, let expectedFrames, expectedFrames * bytesPerFrame > limit {
            sfInfo.format = Int32(SF_FORMAT_RF64) | (format.code & Int32(SF_FORMAT_SUBMASK))
            byteLimit = nil
        } else {
            byteLimit = hasSmallSizes ? limit : nil
        }
        guard sf_format_check(&sfInfo) != 0 else {
            throw .unsupportedOutput(path: path,
                                     reason: "\(format) cannot hold \(channelCount) channel(s) at \(Int(sampleRate)) Hz")
        }
        guard let handle = sf_open(path, Int32(SFM_WRITE), &sfInfo) else {
            throw .writeFailed(path: path, reason: String(cString: sf_strerror(nil)))
        }
        // Both switches take their value in `datasize` (SF_TRUE), not through the pointer.
        sf_command(handle, Int32(SFC_SET_CLIPPING), nil, 1)
        if format.headerHoldsLength {
            // libsndfile then rewrites the header after every `sf_writef_*` call.
            sf_command(handle, Int32(SFC_SET_UPDATE_HEADER_AUTO), nil, 1)
        }
        self.path = path
        self.channelCount = channelCount
        self.handle = handle
    }

    deinit { if !isClosed { sf_close(handle) } }

    /// Appends interleaved frames (`samples.count` must be a multiple of ``channelCount``).
    public func write(interleaved samples: UnsafeBufferPointer<Float>) throws(AudioError) {
        precondition(samples.count % channelCount == 0, "partial frame")
        let frames = samples.count / channelCount
        guard frames > 0 else { return }
        if let byteLimit, (framesWritten + frames) * bytesPerFrame > byteLimit {
            throw .writeFailed(path: path, reason: "a WAV or AIFF file holds at most 4 GiB of audio; write FLAC, or WAV with a known length (RF64)")
        }
        let written = Int(sf_writef_float(handle, samples.baseAddress, sf_count_t(frames)))
        framesWritten += max(written, 0)
        if written != frames {
            throw .writeFailed(path: path, reason: String(cString: sf_strerror(handle)))
        }
    }

    /// Appends mono samples, duplicated to every channel.
    public func write(mono samples: [Float]) throws(AudioError) {
        if channelCount == 1 {
            try samples.withUnsafeBufferPointer { buffer throws(AudioError) in try write(interleaved: buffer) }
            return
        }
        let blockFrames = 16_384
        var interleaved = [Float](repeating: 0, count: blockFrames * channelCount)
        var start = 0
        while start < samples.count {
            let frames = min(blockFrames, samples.count - start)
            for frame in 0..<frames {
                for channel in 0..<channelCount { interleaved[frame * channelCount + channel] = samples[start + frame] }
            }
            try interleaved.withUnsafeBufferPointer { buffer throws(AudioError) in
                try write(interleaved: UnsafeBufferPointer(rebasing: buffer[0..<(frames * channelCount)]))
            }
            start += frames
        }
    }

    /// Finishes the file. Further writes are a programming error.
    public func close() throws(AudioError) {
        guard !isClosed else { return }
        isClosed = true
        if sf_close(handle) != 0 {
            throw .writeFailed(path: path, reason: "closing failed")
        }
    }
}

extension Signal {
    /// Writes the signal to `path`, the mono samples copied to `channelCount` channels.
    /// - Parameters:
    ///   - path: the file to create (or truncate).
    ///   - format: the file format; by default inferred from the path's extension (16-bit WAV
    ///     when unknown).
    ///   - channelCount: channels written, each a copy of the signal.
    public func write(to path: String, format: AudioFileFormat? = nil, channelCount: Int = 1) throws(AudioError) {
        let writer = try AudioFileWriter(path: path, format: format ?? AudioFileFormat(pathExtension: path) ?? .wav16,
                                         sampleRate: sampleRate, channelCount: channelCount)
        try writer.write(mono: samples)
        try writer.close()
    }
}
