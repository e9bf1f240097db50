extension Signal {
    /// This signal at another sample rate, band-limited and with exact timing (see
    /// ``Resampler``): the same event happens at the same time in seconds, and the result
    /// has ``Resampler/outputFrameCount(forInputFrames:inputRate:outputRate:)`` frames.
    ///
    /// - Parameters:
    ///   - rate: The new sample rate in frames per second (> 0).
    ///   - quality: The filter preset.
    /// - Throws: ``AudioError/invalidResampling(_:)`` when this signal's rate is not a whole
    ///   number of frames per second or `rate` is not positive.
    public func resampled(to rate: Int, quality: Resampler.Quality = .standard) throws(AudioError) -> Signal {
        let inputRate = try Resampler.wholeRate(sampleRate)
        let output = try Resampler.resample([samples], from: inputRate, to: rate, quality: quality)
        return Signal(samples: output[0], sampleRate: Double(rate))
    }
}

extension Resampler {
    /// Converts whole channels at once, one array per channel, all the same length.
    ///
    /// - Parameters:
    ///   - channels: The samples of each channel.
    ///   - inputRate: Their sample rate in frames per second (> 0).
    ///   - outputRate: The new sample rate (> 0).
    ///   - quality: The filter preset.
    /// - Returns: One array per channel, each
    ///   ``outputFrameCount(forInputFrames:inputRate:outputRate:)`` long.
    /// - Throws: ``AudioError/invalidResampling(_:)`` for invalid rates, no channels, or
    ///   channels of unequal length.
    public static func resample(_ channels: [[Float]], from inputRate: Int, to outputRate: Int,
                                quality: Quality = .standard) throws(AudioError) -> [[Float]] {
        guard let frames = channels.first?.count else {
            throw .invalidResampling("no channels to resample")
        }
        guard channels.allSatisfy({ $0.count == frames }) else {
            throw .invalidResampling("channels differ in length: \(channels.map(\.count))")
        }
        var resampler = try Resampler(inputRate: inputRate, outputRate: outputRate,
                                      channels: channels.count, quality: quality)
        let outputCount = outputFrameCount(forInputFrames: frames, inputRate: inputRate, outputRate: outputRate)
        let channelCount = channels.count
        var interleavedInput = [Float](repeating: 0, count: frames * channelCount)
        for (channel, samples) in channels.enumerated() {
            for frame in 0..<frames { interleavedInput[frame * channelCount + channel] = samples[frame] }
        }
        var interleavedOutput: [Float] = []
        interleavedOutput.reserveCapacity(outputCount * channelCount)
        interleavedInput.withUnsafeBufferPointer { resampler.process($0, into: &interleavedOutput) }
        resampler.finish(into: &interleavedOutput)
        return (0..<channelCount).map { channel in
            (0..<outputCount).map { interleavedOutput[$0 * channelCount + channel] }
        }
    }

    /// A sample rate held as a `Double` (``Signal/sampleRate``, ``AudioFileInfo/sampleRate``)
    /// as the whole number of frames per second a ``Resampler`` converts from or to.
    ///
    /// - Parameter rate: Frames per second.
    /// - Returns: `rate` as an `Int`, exactly.
    /// - Throws: ``AudioError/invalidResampling(_:)``, naming `rate`, when it is not positive,
    ///   not a whole number, or beyond `Int32.max` (the largest rate a file header holds).
    public static func wholeRate(_ rate: Double) throws(AudioError) -> Int {
        guard rate > 0, rate.rounded() == rate, rate <= Double(Int32.max) else {
            throw .invalidResampling("the sample rate \(rate) Hz is not a positive whole number")
        }
        return Int(rate)
    }
}
