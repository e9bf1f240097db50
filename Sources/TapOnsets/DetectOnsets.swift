import TapAudio

/// Detects the onsets in a signal held in memory.
public func detectOnsets(in signal: Signal, configuration: OnsetDetectorConfiguration = .standard) -> [Onset] {
    var detector = OnsetDetector(sampleRate: signal.sampleRate, configuration: configuration)
    var onsets: [Onset] = []
    detector.process(signal.samples, into: &onsets)
    detector.finish(into: &onsets)
    return onsets
}

/// Detects the onsets in an audio file, streaming it block by block so memory stays constant.
/// - Throws: ``AudioError`` naming the file when it cannot be decoded.
public func detectOnsets(inFile path: String, channel: ChannelSelection = .mix,
                         configuration: OnsetDetectorConfiguration = .standard) throws(AudioError) -> [Onset] {
    let reader = try AudioFileReader(path: path, channel: channel)
    var detector = OnsetDetector(sampleRate: reader.info.sampleRate, configuration: configuration)
    var onsets: [Onset] = []
    var block = [Float](repeating: 0, count: 65_536)
    while true {
        let count = try block.withUnsafeMutableBufferPointer { buffer throws(AudioError) in try reader.read(into: buffer) }
        if count == 0 { break }
        block.withUnsafeBufferPointer { detector.process(UnsafeBufferPointer(rebasing: $0[0..<count]), into: &onsets) }
    }
    detector.finish(into: &onsets)
    return onsets
}
