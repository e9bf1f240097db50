import Foundation
import TapAudio

/// Predicts the stimulus's bleed in the recording, block by block: the warped stimulus
/// (``WarpedStimulus``) through each segment's filter (``BleedFilterSet``), by overlap-save
/// fast convolution (Oppenheim & Schafer, *Discrete-Time Signal Processing*, §8.7). Between
/// segment centres the filter's spectrum is interpolated linearly, so it changes smoothly.
/// Memory is a few blocks, whatever the recording's length.
struct StimulusBleedPredictor {
    /// Frames per block.
    let blockLength: Int
    private let filters: BleedFilterSet
    private var stimulus: WarpedStimulus
    private let fft: RealFFT
    private var responses: [Int: [Float]] = [:]
    private var mixed: [Float]

    init(filters: BleedFilterSet, stimulus source: any FrameReadable, line: StimulusDelayLine, cutoff: Double) {
        self.filters = filters
        blockLength = max(8_192, nextPowerOfTwo(filters.length))
        fft = RealFFT(count: 2 * blockLength)
        mixed = [Float](repeating: 0, count: 2 * blockLength + 2)
        let first = -(filters.length - 1 - filters.lead)
        stimulus = WarpedStimulus(stimulus: source, cutoff: cutoff, line: line, firstFrame: first)
    }

    /// The filter spectrum of segment `j` at the FFT's size (the taps from index 0: the lead is
    /// taken care of by where the stimulus is read); nil when the segment subtracts nothing.
    private mutating func response(ofSegment j: Int) -> [Float]? {
        guard let taps = filters.taps[j] else { return nil }
        if let cached = responses[j] { return cached }
        let signal = fft.signal
        for index in 0..<fft.count { signal[index] = 0 }
        for index in taps.indices { signal[index] = taps[index] }
        fft.forward()
        let response = Array(fft.spectrum)
        // Blocks move forward: only the two segments around the current block are needed.
        responses = responses.filter { $0.key >= j - 1 }
        responses[j] = response
        return response
    }

    /// Writes the predicted bleed at recording frames `start ..< start + output.count`
    /// (at most ``blockLength``); returns false (and writes zeros) where nothing is subtracted.
    mutating func predict(start: Int, into output: UnsafeMutableBufferPointer<Float>) throws(AudioError) -> Bool {
        let count = output.count
        precondition(count <= blockLength)
        let centre = Double(start) + Double(count) / 2
        // The segments whose centres surround the block, and the weight of the later one.
        var j = filters.segment(ofFrame: Int(centre))
        if centre < filters.centre(ofSegment: j) && j > 0 { j -= 1 }
        let next = min(j + 1, filters.segmentCount - 1)
        let c0 = filters.centre(ofSegment: j), c1 = filters.centre(ofSegment: next)
        let alpha = next == j ? 0 : min(max((centre - c0) / (c1 - c0), 0), 1)
        let first = alpha < 1 ? response(ofSegment: j) : nil
        let second = alpha > 0 ? response(ofSegment: next) : nil
        guard first != nil || second != nil else {
            for index in 0..<count { output[index] = 0 }
            return false
        }
        let size = fft.count
        let bins = size / 2 + 1
        for index in 0..<(2 * bins) {
            mixed[index] = Float(1 - alpha) * (first?[index] ?? 0) + Float(alpha) * (second?[index] ?? 0)
        }
        // Overlap-save: the block's stimulus with the filter's length − 1 frames before it.
        let history = filters.length - 1
        let signal = fft.signal, spectrum = fft.spectrum
        try stimulus.withFrames(from: start - history + filters.lead, count: size) { block in
            for index in 0..<size { signal[index] = block[index] }
        }
        fft.forward()
        for k in 0..<bins {
            let sr = spectrum[2 * k], si = spectrum[2 * k + 1]
            let hr = mixed[2 * k], hi = mixed[2 * k + 1]
            spectrum[2 * k] = sr * hr - si * hi
            spectrum[2 * k + 1] = sr * hi + si * hr
        }
        fft.inverse()
        for index in 0..<count { output[index] = signal[history + index] }
        return true
    }
}
