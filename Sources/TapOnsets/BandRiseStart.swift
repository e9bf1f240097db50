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
    /// in `allowed` (offsets into `samples`); nil when none of them can be read.
    static func start(in samples: [Float], sampleRate: Double, allowed: Range<Int>) -> Int? {
        let length = frameLength(sampleRate: sampleRate)
        let hop = hop(sampleRate: sampleRate), lag = lagFrames(sampleRate: sampleRate)
        let place = Int(startInFrame * Double(length))
        let frameCount = samples.count >= length ? (samples.count - length) / hop + 1 : 0
        // The frames whose start lies in `allowed` and that have their lagged frame.
        let candidates = (lag..<max(lag, frameCount)).filter { allowed.contains($0 * hop + place) }
        guard let firstCandidate = candidates.first else { return nil }
        let fft = RealFFT.perThread(count: length)
        let window = fft.hannWindow
        let nyquist = sampleRate / 2
        let logSpan = log(nyquist / lowestFrequency)
        // The band of each bin, or nil outside 300 Hz … Nyquist.
        let bandOfBin: [Int?] = (0...(length / 2)).map { bin in
            let frequency = Double(bin) * sampleRate / Double(length)
            guard frequency >= lowestFrequency, frequency < nyquist else { return nil }
            return min(bandCount - 1, Int(Double(bandCount) * log(frequency / lowestFrequency) / logSpan))
        }
        // Band levels of the frames from the first candidate's lagged frame to the last candidate.
        let firstFrame = firstCandidate - lag
        let levels: [[Double]] = (firstFrame...candidates.last!).map { frame in
            let start = frame * hop
            for index in 0..<length { fft.signal[index] = samples[start + index] * window[index] }
            fft.forward()
            var power = [Double](repeating: 1e-12, count: bandCount)
            for (bin, band) in bandOfBin.enumerated() {
                guard let band else { continue }
                let real = Double(fft.spectrum[2 * bin]), imaginary = Double(fft.spectrum[2 * bin + 1])
                power[band] += real * real + imaginary * imaginary
            }
            return power.map { 10 * log10($0) }
        }
        /// The mean over the bands of each band's rise over the frame `lag` before.
        func rise(_ frame: Int) -> Double {
            zip(levels[frame - firstFrame], levels[frame - lag - firstFrame])
                .reduce(0) { $0 + max(0, $1.0 - $1.1) } / Double(bandCount)
        }
        let rises = candidates.map(rise)
        guard let steepest = rises.indices.max(by: { rises[$0] < rises[$1] }) else { return nil }
        return candidates[steepest] * hop + place
    }
}
