import TapAudio

/// Listens again around chosen instants of a recording, more sensitively than its detection
/// did: where a touch says a tap sounded and the detection heard nothing there (a tap a few
/// decibels over music, speech or a codec's noise, under the detector's threshold or its
/// mask). The detector runs on a stretch around the instant with the click probe's settings
/// (``OnsetDetectorConfiguration/clickProbe``: 3 dB more sensitive, quicker to retrigger), so
/// its onsets are measured as the detection's are; only those near the instant are returned.
public struct NearbyOnsets {
    /// How much of the recording before an instant the detector reads, seconds: half its
    /// noise window, so that the floor under the instant is the recording's, not the stretch's
    /// edge.
    public static let contextBefore: Seconds = 0.5
    /// How much after, seconds: the floor's look-ahead and the decay read after a start. (On
    /// the robustness corpus, 1.0 s before and 0.6 s after found the same taps, at twice the
    /// cost.)
    public static let contextAfter: Seconds = 0.3

    private let reader: AudioFileReader
    private let configuration: OnsetDetectorConfiguration

    /// A search in the recording at `path` (channel `channel`) with the detection's
    /// `configuration`, its band included.
    public init(path: String, channel: ChannelSelection = .mix, configuration: OnsetDetectorConfiguration = .standard)
        throws(AudioError) {
        reader = try AudioFileReader(path: path, channel: channel)
        self.configuration = configuration.clickProbe
    }

    /// The onsets the more sensitive detector finds within `reach` of `time`, timed in the
    /// recording. Their kind and score are the detector's defaults: judging them is the caller's.
    public func onsets(near time: Seconds, within reach: Seconds) throws(AudioError) -> [Onset] {
        let rate = reader.info.sampleRate
        let first = max(0, Int(((time - Self.contextBefore) * rate).rounded(.down)))
        let last = min(reader.info.frameCount, Int(((time + Self.contextAfter) * rate).rounded(.up)))
        guard last > first else { return [] }
        try reader.seek(toFrame: first)
        var samples = [Float](repeating: 0, count: last - first)
        var filled = 0
        while filled < samples.count {
            let got = try samples.withUnsafeMutableBufferPointer { buffer throws(AudioError) in
                try reader.read(into: UnsafeMutableBufferPointer(rebasing: buffer[filled...]))
            }
            if got == 0 { break }
            filled += got
        }
        let offset = Double(first) / rate
        return detectOnsets(in: Signal(samples: Array(samples[0..<filled]), sampleRate: rate), configuration: configuration)
            .map { onset in
                var placed = onset
                placed.time += offset
                placed.frame += first
                placed.peakTime += offset
                placed.precursorTime = onset.precursorTime.map { $0 + offset }
                return placed
            }
            .filter { abs($0.time - time) <= reach }
    }
}
