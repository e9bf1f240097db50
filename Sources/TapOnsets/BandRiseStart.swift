import Foundation
import TapAudio

/// Where a soft hit starts inside the ring of louder ones, found by the bands it adds: the
/// start picker reads the broadband samples, in which such a hit may not rise at all, while in
/// a few frequency bands it still rises by several dB. Short-time spectra a fine step apart,
/// summed into log-spaced bands in dB, are compared with those a few milliseconds earlier;
/// the frame whose bands rise the most on average holds the start at a fixed place
/// (``startInFrame``).
///
/// Measured on the flux onsets of `Scripts/drum-synth` kits whose picked start rose under
/// 3 dB (`DensePercussion.leastPickedRiseDB`), against each hit's first sample: seeds 1–3
/// (where the constants were chosen) 61 % within 10 ms at the flux frame's centre (a median
/// 8.1 ms early), 89 % here (a median 0.7 ms early); seeds 8–9, untouched, 69 % → 92 %. On the
/// drum-proxy renders, whose note-ons sound 0–4 ms late, 98 % → 97 %.
enum BandRiseStart {
    /// Frame length, seconds (the even number of samples nearest: 1024 at 44.1 kHz, 1114 at
    /// 48 kHz, 372 at 16 kHz).
    static let frameDuration: Seconds = 0.0232
    /// Step between frames, seconds (32 samples at 44.1 kHz).
    static let hopDuration: Seconds = 0.000726
    /// Each frame's bands are compared with those of the frame this long before, seconds (256
    /// samples at 44.1 kHz).
    static let lagDuration: Seconds = 0.0058
    /// Bands, evenly spaced in log frequency from ``lowestFrequency`` to Nyquist.
    static let bandCount = 16
    /// The lowest band's lower edge, Hz.
    static let lowestFrequency = 300.0
    /// Where in the frame that rises the most the hit starts, a fraction of its length: its
    /// new bands then weigh enough in the Hann window to lift them over the frame before.
    static let startInFrame = 0.6

    /// The frame length in samples at `sampleRate`.
    static func frameLength(sampleRate: Double) -> Int {
        max(16, 2 * Int((frameDuration * sampleRate / 2).rounded()))
    }

    /// The step between frames in samples at `sampleRate`.
    static func hop(sampleRate: Double) -> Int {
        max(1, Int((hopDuration * sampleRate).rounded()))
    }

    /// The lag in frames at `sampleRate`.
    static func lagFrames(sampleRate: Double) -> Int {
        max(1, Int((lagDuration * sampleRate / Double(hop(sampleRate: sampleRate))).rounded()))
    }

    /// How far into `samples` the earliest start can lie: a frame needs the frame ``lagDuration``
    /// before it, and the start lies ``startInFrame`` into it.
    static func earliestStart(sampleRate: Double) -> Int {
        lagFrames(sampleRate: sampleRate) * hop(sampleRate: sampleRate) + Int(startInFrame * Double(frameLength(sampleRate: sampleRate)))
    }

    /// The offset into `samples` (high-passed) where the bands rise the most, among the starts
    /// in `allowed` (offsets into `samples`); nil when none of them can be read. The band
    /// levels and their mean rise are the spectral flux's (``SpectralFlux``), on these bands,
    /// with its floor under the loudest band level of the segment.
    static func start(in samples: [Float], sampleRate: Double, allowed: Range<Int>) -> Int? {
        let length = frameLength(sampleRate: sampleRate)
        let hop = hop(sampleRate: sampleRate), lag = lagFrames(sampleRate: sampleRate)
        let place = Int(startInFrame * Double(length))
        let frameCount = samples.count >= length ? (samples.count - length) / hop + 1 : 0
        // The frames whose start lies in `allowed` and that have their lagged frame.
        let candidates = (lag..<max(lag, frameCount)).filter { allowed.contains($0 * hop + place) }
        guard let first = candidates.first, let last = candidates.last else { return nil }
        let fft = RealFFT.perThread(count: length)
        let window = fft.hannWindow
        let bands = logBands(frameLength: length, sampleRate: sampleRate)
        // Band levels of the frames from the first candidate's lagged frame to the last one.
        var levels = (first - lag...last).map { frame in
            var frameLevels = [Float](repeating: 0, count: bands.count)
            SpectralFlux.bandLevels(of: samples, from: frame * hop, window: window, fft: fft, bands: bands, into: &frameLevels)
            return frameLevels
        }
        let floor = (levels.compactMap { $0.max() }.max() ?? 0) - SpectralFlux.levelRangeDB
        levels = levels.map { $0.map { max($0, floor) } }
        let rises = candidates.map { SpectralFlux.meanRise(levels[$0 - first + lag], over: levels[$0 - first]) }
        guard let steepest = rises.indices.max(by: { rises[$0] < rises[$1] }) else { return nil }
        return candidates[steepest] * hop + place
    }

    /// ``bandCount`` bands evenly spaced in log frequency from ``lowestFrequency`` to Nyquist,
    /// each bin weighted 1 in the band it falls in.
    static func logBands(frameLength: Int, sampleRate: Double) -> SpectralFlux.Bands {
        let nyquist = sampleRate / 2, binWidth = sampleRate / Double(frameLength)
        let logSpan = log(nyquist / lowestFrequency)
        var binsOfBand = [[Int]](repeating: [], count: bandCount)
        for bin in 0...(frameLength / 2) {
            let frequency = Double(bin) * binWidth
            guard frequency >= lowestFrequency, frequency < nyquist else { continue }
            binsOfBand[min(bandCount - 1, Int(Double(bandCount) * log(frequency / lowestFrequency) / logSpan))].append(bin)
        }
        // Bins of a band are consecutive; a band too narrow to hold one is left out.
        return binsOfBand.compactMap { bins in
            bins.first.map { (firstBin: $0, weights: [Float](repeating: 1, count: bins.count)) }
        }
    }
}
