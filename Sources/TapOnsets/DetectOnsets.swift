import TapAudio

/// Detects the onsets in a signal held in memory, with no treatment of metronome bleed (for
/// files, and for bleed, see ``detectTapOnsets(inFile:channel:configuration:bleed:stimulus:stimulusConfiguration:)``).
public func detectOnsets(in signal: Signal, configuration: OnsetDetectorConfiguration = .standard) -> [Onset] {
    var detector = OnsetDetector(sampleRate: signal.sampleRate, configuration: configuration)
    var onsets: [Onset] = []
    detector.process(signal.samples, into: &onsets)
    detector.finish(into: &onsets)
    return onsets
}
