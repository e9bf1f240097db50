import TapAudio

/// Tap onsets of a recording, with the metronome bleed dealt with: what the latency
/// analysis matches against touches.
public struct TapOnsetDetection: Sendable, Equatable {
    /// Onsets that may be taps, in time order.
    public var onsets: [Onset]
    /// Onsets of the first pass that lay on an isochronous click grid (stimulus bleed).
    public var stimulusOnsets: [Onset]
    /// How many clicks were subtracted from the recording before the final detection.
    public var cancelledClicks: Int
}

/// How ``detectTapOnsets(inFile:channel:configuration:bleed:)`` treats metronome bleed.
public enum BleedHandling: String, Sendable, CaseIterable {
    /// Keep every onset (no grid search).
    case keep
    /// Set aside onsets on an isochronous click grid.
    case reject
    /// Subtract the clicks from the recording (a second pass) and detect again; onsets still on
    /// the grid are set aside. The default.
    case cancel
}

/// Detects tap onsets in an audio file: a first streaming pass; when the onsets reveal a
/// click grid (``StimulusLockedOnsets``), the clicks' waveform is estimated and subtracted
/// (``BleedTemplate``) in a second streaming pass that detects again, so taps that started on
/// a click's tail stand on their own. Memory stays constant in the file's length.
public func detectTapOnsets(inFile path: String, channel: ChannelSelection = .mix,
                            configuration: OnsetDetectorConfiguration = .standard,
                            bleed: BleedHandling = .cancel) throws(AudioError) -> TapOnsetDetection {
    let reader = try AudioFileReader(path: path, channel: channel)
    // Pass 1: the onsets, and (more sensitive) the probe onsets in which clicks are sought.
    var detectors = [OnsetDetector(sampleRate: reader.info.sampleRate, configuration: configuration)]
    if bleed != .keep { detectors.append(OnsetDetector(sampleRate: reader.info.sampleRate, configuration: configuration.clickProbe)) }
    let passOne = try runDetectors(&detectors, reading: reader)
    let first = passOne[0]
    guard bleed != .keep else { return TapOnsetDetection(onsets: first, stimulusOnsets: [], cancelledClicks: 0) }
    let probe = passOne[1]
    var readError: AudioError?
    let template = bleed == .cancel ? bleedTemplate(for: probe, sampleRate: reader.info.sampleRate) { start, length in
        do throws(AudioError) {
            try reader.seek(toFrame: start)
            var buffer = [Float](repeating: 0, count: length)
            var filled = 0
            while filled < length {
                let got = try buffer.withUnsafeMutableBufferPointer { pointer throws(AudioError) in
                    try reader.read(into: UnsafeMutableBufferPointer(rebasing: pointer[filled...]))
                }
                if got == 0 { return nil }
                filled += got
            }
            return buffer
        } catch {
            readError = error
            return nil
        }
    } : nil
    if let readError { throw readError }
    guard let template else { return setAsideStimulus(first, cancelledClicks: 0) }

    // Pass 2: the recording with the clicks subtracted.
    try reader.seek(toFrame: 0)
    var detector = OnsetDetector(sampleRate: reader.info.sampleRate, configuration: configuration)
    var canceller = BleedCanceller(template: template, sampleRate: reader.info.sampleRate)
    var onsets: [Onset] = []
    var block = [Float](repeating: 0, count: 65_536)
    while true {
        let count = try block.withUnsafeMutableBufferPointer { buffer throws(AudioError) in try reader.read(into: buffer) }
        if count == 0 { break }
        block.withUnsafeBufferPointer { buffer in
            canceller.process(UnsafeBufferPointer(rebasing: buffer[0..<count])) { detector.process($0, into: &onsets) }
        }
    }
    canceller.finish { detector.process($0, into: &onsets) }
    detector.finish(into: &onsets)
    // The clicks are gone from what pass 2 saw: an onset on the grid now is a tap that
    // coincided with a click, so nothing more is set aside.
    let stimulus = StimulusLockedOnsets.indices(in: probe.map(\.time)).map { probe[$0] }
    return TapOnsetDetection(onsets: onsets, stimulusOnsets: stimulus, cancelledClicks: canceller.cancelledClicks)
}

/// Streams the rest of the file through every detector; returns each one's onsets.
private func runDetectors(_ detectors: inout [OnsetDetector], reading reader: AudioFileReader) throws(AudioError) -> [[Onset]] {
    var onsets = [[Onset]](repeating: [], count: detectors.count)
    var block = [Float](repeating: 0, count: 65_536)
    while true {
        let count = try block.withUnsafeMutableBufferPointer { buffer throws(AudioError) in try reader.read(into: buffer) }
        if count == 0 { break }
        block.withUnsafeBufferPointer { buffer in
            for index in detectors.indices {
                detectors[index].process(UnsafeBufferPointer(rebasing: buffer[0..<count]), into: &onsets[index])
            }
        }
    }
    for index in detectors.indices { detectors[index].finish(into: &onsets[index]) }
    return onsets
}

/// The same for a signal in memory.
public func detectTapOnsets(in signal: Signal, configuration: OnsetDetectorConfiguration = .standard,
                            bleed: BleedHandling = .cancel) -> TapOnsetDetection {
    let first = detectOnsets(in: signal, configuration: configuration)
    guard bleed != .keep else { return TapOnsetDetection(onsets: first, stimulusOnsets: [], cancelledClicks: 0) }
    let probe = detectOnsets(in: signal, configuration: configuration.clickProbe)
    let template = bleed == .cancel ? bleedTemplate(for: probe, sampleRate: signal.sampleRate) { start, length in
        start + length <= signal.samples.count ? Array(signal.samples[start..<(start + length)]) : nil
    } : nil
    guard let template else { return setAsideStimulus(first, cancelledClicks: 0) }
    var detector = OnsetDetector(sampleRate: signal.sampleRate, configuration: configuration)
    var canceller = BleedCanceller(template: template, sampleRate: signal.sampleRate)
    var onsets: [Onset] = []
    signal.samples.withUnsafeBufferPointer { samples in
        var start = 0
        while start < samples.count {
            let end = min(start + 65_536, samples.count)
            canceller.process(UnsafeBufferPointer(rebasing: samples[start..<end])) { detector.process($0, into: &onsets) }
            start = end
        }
    }
    canceller.finish { detector.process($0, into: &onsets) }
    detector.finish(into: &onsets)
    // The clicks are gone from what pass 2 saw: an onset on the grid now is a tap that
    // coincided with a click, so nothing more is set aside.
    let stimulus = StimulusLockedOnsets.indices(in: probe.map(\.time)).map { probe[$0] }
    return TapOnsetDetection(onsets: onsets, stimulusOnsets: stimulus, cancelledClicks: canceller.cancelledClicks)
}

/// The click template of the largest grid among `onsets`, or nil without a grid.
private func bleedTemplate(for onsets: [Onset], sampleRate: Double,
                           segment: (Int, Int) -> [Float]?) -> BleedTemplate? {
    guard let main = StimulusLockedOnsets.grids(in: onsets.map(\.time)).first else { return nil }
    return BleedTemplate.estimate(grid: main.grid, clickTimes: main.members.map { onsets[$0].time },
                                  sampleRate: sampleRate, segment: segment)
}

/// Sets aside the onsets on a click grid (used when the clicks could not be subtracted).
func setAsideStimulus(_ onsets: [Onset], cancelledClicks: Int) -> TapOnsetDetection {
    let locked = Set(StimulusLockedOnsets.indices(in: onsets.map(\.time)))
    return TapOnsetDetection(onsets: onsets.indices.filter { !locked.contains($0) }.map { onsets[$0] },
                             stimulusOnsets: locked.sorted().map { onsets[$0] }, cancelledClicks: cancelledClicks)
}
