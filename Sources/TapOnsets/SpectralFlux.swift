import Foundation
import TapAudio
import TapStatistics

/// Onsets found by the spectral change they bring: the spectral flux of a log-power mel
/// spectrogram, with peaks picked over a moving mean (Dixon 2006, "Onset detection revisited",
/// DAFx; Bello et al. 2005, "A tutorial on onset detection in music signals", IEEE Trans. Speech
/// Audio Process. 13). librosa's `onset_detect` works this way, and its frame, hop, band count,
/// level range and peak threshold are the defaults here too; here the mel scale is the HTK
/// formula, the peak windows are rounded to whole frames rather than floored, the level range
/// is held under the loudest band level so far (one pass does), and the peak threshold is
/// taken against a robust top of the flux (``rangeQuantile``) rather than its maximum.
///
/// A new drum hit under the ring of a louder one hardly raises the total power, but it raises
/// the power of the bands it sounds in: a hi-hat over a kick's decay, a ghost note after a
/// snare. Each frame's power spectrum is summed into ``bandCount`` triangular bands on the mel
/// scale, in dB; the flux is the mean over the bands of each band's rise from the frame
/// before. Peaks of the flux that stand over its local mean are onsets.
///
/// The flux is streamed; what is kept is one value per frame (4 bytes every 11.6 ms, 1.2 MB
/// for an hour), since the peaks are picked against the envelope's whole range; picking them
/// takes about 16 bytes per frame more for a moment.
struct SpectralFlux {
    /// Frame length, seconds: the power of two of samples nearest this (2048 at 44.1 and 48 kHz,
    /// 1024 at 16 kHz: 64 ms).
    static let frameDuration: Seconds = 0.0464
    /// Frame hop, seconds.
    static let hopDuration: Seconds = 0.0116
    /// Triangular mel bands from 0 Hz to the Nyquist frequency.
    static let bandCount = 128
    /// Band levels are held at least at the loudest band level so far less this, dB, so that
    /// the faint bands of a quiet stretch do not swing by tens of dB from frame to frame.
    static let levelRangeDB: Float = 80
    /// A peak of the flux must stand this far over its mean in ``averagingWindow``, as a
    /// fraction of the flux's range over the recording (librosa's default).
    static let peakDelta: Float = 0.07
    /// The top of that range is this quantile of the flux, not its maximum: the first sound
    /// after a silent lead-in rises out of nothing in every band, twice as far as any later
    /// hit, and against it the threshold doubles (with the maximum as the top, recall on the
    /// dry `Scripts/drum-proxy` renders of seeds 1–3 was 0.885–0.911, and 0.814–0.840 with
    /// 0.5 s of silence in front; with this quantile, 0.935–0.949 and 0.951–0.953).
    static let rangeQuantile = 0.99
    /// A peak must be the largest value within this time before it.
    static let peakWindow: Seconds = 0.03
    /// The mean a peak is compared with extends this far before and after it.
    static let averagingWindow: Seconds = 0.1
    /// Two peaks are more than this far apart, in whole frames (four frames, 46 ms, at
    /// 11.6 ms a frame).
    static let leastInterval: Seconds = 0.03

    /// Per band: the first FFT bin it takes and the weights of its bins from there.
    typealias Bands = [(firstBin: Int, weights: [Float])]

    let sampleRate: Double
    let frameLength: Int
    let hop: Int
    private let bands: Bands

    init(sampleRate: Double) {
        self.sampleRate = sampleRate
        frameLength = 1 << max(4, Int((log2(Self.frameDuration * sampleRate)).rounded()))
        hop = max(1, Int((Self.hopDuration * sampleRate).rounded()))
        bands = Self.melBands(frameLength: frameLength, sampleRate: sampleRate)
    }

    /// The flux of every frame, frame `k` centred on sample `k` · ``hop`` (the recording is
    /// padded with half a frame of silence at both ends); 0 for the first frames, whose frame
    /// before reaches into the padding.
    func envelope(of source: some AudioSource) throws(AudioError) -> [Float] {
        let fft = RealFFT.perThread(count: frameLength)
        let window = fft.hannWindow
        var pending = [Float](repeating: 0, count: frameLength / 2)
        var consumed = 0   // samples of `pending` already behind the next frame's start
        var previous = [Float](repeating: 0, count: bands.count)
        var current = previous
        var loudest = -Float.infinity
        var flux: [Float] = []
        func frames() {
            while pending.count - consumed >= frameLength {
                Self.bandLevels(of: pending, from: consumed, window: window, fft: fft, bands: bands, into: &current)
                loudest = max(loudest, current.max() ?? loudest)
                for band in bands.indices { current[band] = max(current[band], loudest - Self.levelRangeDB) }
                // A frame is compared with the one before only when that one lies wholly in the
                // recording: against the padding's silence, any recording's first sound rises.
                let previousInRecording = flux.count >= 1 && (flux.count - 1) * hop >= frameLength / 2
                flux.append(previousInRecording ? Self.meanRise(current, over: previous) : 0)
                swap(&previous, &current)
                consumed += hop
            }
            // Keep what the next frames still need, moving it to the front now and then.
            if consumed > 1 << 16 {
                pending.removeFirst(consumed)
                consumed = 0
            }
        }
        try source.forEachBlock { block in
            pending.append(contentsOf: block)
            frames()
        }
        pending.append(contentsOf: repeatElement(0, count: frameLength / 2))
        frames()
        return flux
    }

    /// The level in dB (power at least 10⁻¹⁰) of each of `bands` in the frame of `fft.count`
    /// samples from `start` in `samples`, windowed by `window`, into `levels`.
    static func bandLevels(of samples: [Float], from start: Int, window: [Float], fft: RealFFT, bands: Bands,
                           into levels: inout [Float]) {
        for index in 0..<fft.count { fft.signal[index] = samples[start + index] * window[index] }
        fft.forward()
        for (band, shape) in bands.enumerated() {
            var power: Float = 0
            for (offset, weight) in shape.weights.enumerated() {
                let bin = 2 * (shape.firstBin + offset)
                power += weight * (fft.spectrum[bin] * fft.spectrum[bin] + fft.spectrum[bin + 1] * fft.spectrum[bin + 1])
            }
            levels[band] = 10 * log10(max(power, 1e-10))
        }
    }

    /// The mean over the bands of each band's rise from `previous` to `current` (falls count
    /// as 0); 0 without bands.
    static func meanRise(_ current: [Float], over previous: [Float]) -> Float {
        guard !current.isEmpty else { return 0 }
        var rise: Float = 0
        for band in current.indices { rise += max(0, current[band] - previous[band]) }
        return rise / Float(current.count)
    }

    /// The frames at which the flux peaks: the largest value over the ``peakWindow`` before,
    /// at least ``peakDelta`` of the envelope's range (its minimum to its ``rangeQuantile``)
    /// over its mean within ``averagingWindow`` on either side, and more than
    /// ``leastInterval`` after the previous peak.
    func peaks(in envelope: [Float]) -> [Int] {
        guard let low = envelope.min() else { return [] }
        let high = Float(quantile(envelope.map(Double.init).sorted(), Self.rangeQuantile))
        guard high > low else { return [] }
        let normalised = envelope.map { ($0 - low) / (high - low) }
        let hopSeconds = Double(hop) / sampleRate
        let peakFrames = Int((Self.peakWindow / hopSeconds).rounded())
        let averagingFrames = Int((Self.averagingWindow / hopSeconds).rounded())
        let leastFrames = Int((Self.leastInterval / hopSeconds).rounded())
        var before = [Double](repeating: 0, count: normalised.count + 1)
        for (index, value) in normalised.enumerated() { before[index + 1] = before[index] + Double(value) }
        var peaks: [Int] = []
        for index in normalised.indices {
            let value = normalised[index]
            if normalised[max(0, index - peakFrames)...index].contains(where: { $0 > value }) { continue }
            let first = max(0, index - averagingFrames), last = min(normalised.count - 1, index + averagingFrames)
            let mean = (before[last + 1] - before[first]) / Double(last - first + 1)
            guard Double(value) >= mean + Double(Self.peakDelta) else { continue }
            if let previous = peaks.last, index - previous <= leastFrames { continue }
            peaks.append(index)
        }
        return peaks
    }

    /// The time of frame `index`'s centre, seconds.
    func time(ofFrame index: Int) -> Seconds {
        Double(index * hop) / sampleRate
    }

    /// ``bandCount`` triangles spaced evenly on the mel scale (2595 · log10(1 + f / 700)),
    /// each from its lower neighbour's centre to its upper neighbour's; bands too narrow to
    /// hold a bin are left out.
    private static func melBands(frameLength: Int, sampleRate: Double) -> Bands {
        func mel(_ hertz: Double) -> Double { 2595 * log10(1 + hertz / 700) }
        func hertz(_ mel: Double) -> Double { 700 * (pow(10, mel / 2595) - 1) }
        let top = mel(sampleRate / 2)
        let edges = (0...(bandCount + 1)).map { hertz(top * Double($0) / Double(bandCount + 1)) }
        let binWidth = sampleRate / Double(frameLength)
        var bands: Bands = []
        for band in 0..<bandCount {
            let (low, centre, high) = (edges[band], edges[band + 1], edges[band + 2])
            let firstBin = Int((low / binWidth).rounded(.up))
            let lastBin = min(frameLength / 2, Int((high / binWidth).rounded(.down)))
            guard firstBin <= lastBin else { continue }
            let weights = (firstBin...lastBin).map { bin -> Float in
                let frequency = Double(bin) * binWidth
                return Float(max(0, min((frequency - low) / (centre - low), (high - frequency) / (high - centre))))
            }
            if weights.contains(where: { $0 > 0 }) { bands.append((firstBin, weights)) }
        }
        return bands
    }
}
