import TapAudio

/// Listens again around chosen instants of a recording, more sensitively than its detection
/// did: where a touch says a tap sounded and the detection heard nothing there (a tap a few
/// decibels over music, speech or a codec's noise, under the detector's threshold or the mask
/// of the sound before it).
///
/// The detector runs on the stretch around an instant with the click probe's settings
/// (``OnsetDetectorConfiguration/clickProbe``: for the standard settings, a threshold 3 dB
/// lower, the floor's spread weighed at 0.75, release at 2 dB, a retrigger on a 3 dB rise) and
/// measures its onsets' features as the detection does, with three differences the caller
/// must weigh: it hears the recording as it is (no click or stimulus subtracted, no click
/// noted at a tap's tail), its height over the mask is read against the lower threshold, and
/// its starts are not re-timed as the detection's quiet taps are (`QuietTapCalibration`).
/// Only the onsets near the instant are returned, with the detector's default kind and score.
/// One reader, read from one instant at a time: not for use from several threads at once.
public final class NearbyOnsets {
    /// How much of the recording before an instant the detector reads, seconds: half the
    /// standard noise window, so that the floor under the instant is the recording's, not the
    /// stretch's edge.
    public static let contextBefore: Seconds = 0.5
    /// How much after, seconds: more than the decay read after a start (50 ms), and enough of
    /// the floor's look-ahead to set it. (On the robustness corpus, 1.0 s before and 0.6 s after
    /// found the same taps within six in 32 400, at twice the reading.)
    public static let contextAfter: Seconds = 0.3

    private let source: FileSource
    private let configuration: OnsetDetectorConfiguration

    /// A search in the recording at `path` (channel `channel`) with the detection's
    /// `configuration`, its band included.
    public init(path: String, channel: ChannelSelection = .mix, configuration: OnsetDetectorConfiguration = .standard)
        throws(AudioError) {
        source = FileSource(reader: try AudioFileReader(path: path, channel: channel))
        self.configuration = configuration.clickProbe
    }

    /// The onsets the more sensitive detector finds within `reach` of `time`, timed in the
    /// recording; none for an instant that is not finite.
    public func onsets(near time: Seconds, within reach: Seconds) throws(AudioError) -> [Onset] {
        guard time.isFinite, reach.isFinite else { return [] }
        let rate = source.sampleRate
        let frames = source.reader.info.frameCount
        let first = Int((min(max(time - Self.contextBefore, 0), Double(frames) / rate) * rate).rounded(.down))
        let last = min(Int((min(max(time + Self.contextAfter, 0), Double(frames) / rate) * rate).rounded(.up)), frames)
        guard last > first, let samples = try source.segment(start: first, length: last - first) else { return [] }
        let offset = Double(first) / rate
        return detectOnsets(in: Signal(samples: samples, sampleRate: rate), configuration: configuration)
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
