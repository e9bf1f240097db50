import Foundation
import TapAudio

/// The smallest power of two at least `n`.
func nextPowerOfTwo(_ n: Int) -> Int {
    var power = 1
    while power < n { power <<= 1 }
    return power
}

/// One segment's delay: where the stimulus correlates best with the recording.
struct DelayPoint: Sendable, Equatable {
    /// The segment's centre, recording frames.
    var frame: Double
    /// The delay there, frames (stimulus frame = recording frame − delay).
    var delay: Double
    /// The correlation peak over the RMS of the correlation across the searched lags.
    var quality: Double
}

/// The acoustic path from the stimulus to the microphone, as finite impulse responses of
/// ``StimulusBleedConfiguration/filterDuration`` seconds, one per segment of the recording;
/// nil where subtracting would not lower the residual.
struct BleedFilterSet: Sendable {
    /// Taps before the delay line's instant (the path's response may start a little early).
    let lead: Int
    /// Taps per filter.
    let length: Int
    /// Frames per segment (the last segment runs to the end).
    let segmentLength: Int
    let frameCount: Int
    /// Per segment: the taps (tap `i` is lag `i − lead`), or nil when not subtracted.
    var taps: [[Float]?]
    /// Per segment: how much the filter lowered the (robustly weighted) residual power in the
    /// estimation, dB; nil where there was nothing to estimate from.
    var reductions: [Double?]
    /// Per segment: how much later than the delay line the stimulus arrives, relative to the
    /// first segment that heard it, frames (from the phase of the segment's own response).
    var offsets: [Double?]
    /// The spectrum of the last filter kept (at the estimation's block size, lead wrapped).
    var lastResponse: [Float]?

    var segmentCount: Int { taps.count }

    func segment(ofFrame frame: Int) -> Int { min(max(frame, 0) / segmentLength, segmentCount - 1) }

    func centre(ofSegment j: Int) -> Double {
        let start = j * segmentLength
        let end = j == segmentCount - 1 ? frameCount : start + segmentLength
        return Double(start + end) / 2
    }
}

enum StimulusBleedEstimation {
    // MARK: Delay and drift

    /// The delay of the stimulus in the recording, per segment of about
    /// ``StimulusBleedConfiguration/delaySegmentDuration`` seconds: generalized cross-correlation
    /// (Knapp & Carter 1976) of the high-passed signals over the searched lags, each bin weighted by
    /// its coherence (|G|/√(PxxPss))² and normalised to unit magnitude, so that the peak is as
    /// sharp as with PHAT while bins where only the recording's noise or taps sound count for little.
    static func delayPoints(recording: any FrameReadable, stimulus: any FrameReadable, offsetFrames: Int,
                            cutoff: Double, configuration: StimulusBleedConfiguration) throws(AudioError) -> [DelayPoint] {
        let rate = recording.sampleRate
        let lagLow = Int((configuration.delaySearch.lowerBound * rate).rounded(.down))
        let lagHigh = Int((configuration.delaySearch.upperBound * rate).rounded(.up))
        let span = lagHigh - lagLow
        let length = nextPowerOfTwo(Int(0.3 * rate))
        // Linear (not circular) correlation over the searched lags: room for the block and the span.
        let size = nextPowerOfTwo(length + span + 1)
        let blocksPerSegment = max(1, Int((configuration.delaySegmentDuration * rate / Double(length)).rounded()))
        let bins = size / 2 + 1
        let fft = RealFFT(count: size)
        var cross = [Double](repeating: 0, count: 2 * bins)
        var powerX = [Double](repeating: 0, count: bins)
        var powerS = [Double](repeating: 0, count: bins)
        var spectrumX = [Float](repeating: 0, count: 2 * bins)
        // The recording's blocks fade in and out (raised cosine, `blockTaper`): a sound cut by a
        // block's edge is a step, whose broadband spectrum the whitening weighs as much as a
        // tonal sound's own few bins. Unfaded, quiet 50 ms beeps correlated best at an end of
        // the searched lags: corpus seed 1 `beep-dev-2` (path 1.8 ms) had three of five segments
        // peak at −20 ms, at 13, 55 and 8 times the correlation's RMS (the 13 and 55 are gone
        // faded); seed 113 `beep-dev-1`'s delay went from −8.4 ms to its path's 2.2 ms.
        let taper = blockTaper(length: length, ramp: Int((blockTaperDuration * rate).rounded()))
        var x = HighPassedStream(source: recording, cutoff: cutoff, firstFrame: 0)
        var s = HighPassedStream(source: stimulus, cutoff: cutoff, firstFrame: -offsetFrames - lagHigh)
        var points: [DelayPoint] = []
        var blocks = 0, segmentStart = 0, start = 0, heard = 0
        let signal = fft.signal, spectrum = fft.spectrum
        while start + length <= recording.frameCount {
            try x.withFrames(from: start, count: length) { block in
                for index in 0..<length { signal[index] = block[index] * taper[index] }
            }
            for index in length..<size { signal[index] = 0 }
            fft.forward()
            for index in 0..<(2 * bins) { spectrumX[index] = spectrum[index] }
            // Stimulus frames that reach recording frames start … start + length over the lags.
            var energy: Float = 0
            try s.withFrames(from: start - offsetFrames - lagHigh, count: length + span) { block in
                for index in 0..<(length + span) {
                    signal[index] = block[index]
                    energy += block[index] * block[index]
                }
            }
            for index in (length + span)..<size { signal[index] = 0 }
            if energy > 0 {
                fft.forward()
                heard += 1
                for k in 0..<bins {
                    let xr = Double(spectrumX[2 * k]), xi = Double(spectrumX[2 * k + 1])
                    let sr = Double(spectrum[2 * k]), si = Double(spectrum[2 * k + 1])
                    // X·conj(S)
                    cross[2 * k] += xr * sr + xi * si
                    cross[2 * k + 1] += xi * sr - xr * si
                    powerX[k] += xr * xr + xi * xi
                    powerS[k] += sr * sr + si * si
                }
            }
            blocks += 1
            start += length
            if blocks == blocksPerSegment || start + length > recording.frameCount {
                if heard > 0, let (lag, quality) = correlationPeak(fft: fft, cross: cross, powerX: powerX, powerS: powerS,
                                                                   span: span) {
                    points.append(DelayPoint(frame: Double(segmentStart + start) / 2,
                                             delay: Double(offsetFrames + lagHigh) + lag, quality: quality))
                }
                for index in cross.indices { cross[index] = 0 }
                for index in powerX.indices { powerX[index] = 0; powerS[index] = 0 }
                blocks = 0
                heard = 0
                segmentStart = start
            }
        }
        return points
    }

    /// How long the recording's blocks fade in and out in ``delayPoints``, seconds: five
    /// cycles of a 500 Hz beep, a 34th of a block at 48 kHz.
    static let blockTaperDuration: Seconds = 0.010

    /// A raised cosine's rise at `position` of `length`: 0 at 0, 1 at `length`.
    static func raisedCosine(_ position: Double, over length: Double) -> Double {
        0.5 - 0.5 * cos(Double.pi * position / length)
    }

    /// A block's weights: 1, but a raised cosine over the first and last `ramp` frames.
    static func blockTaper(length: Int, ramp: Int) -> [Float] {
        (0..<length).map { index in
            let edge = min(index, length - 1 - index)
            guard edge < ramp else { return 1 }
            return Float(raisedCosine(Double(edge) + 0.5, over: Double(ramp)))
        }
    }

    /// The peak of the weighted cross-correlation at lags −span … 0 (the lag relative to the
    /// stimulus block's start), refined between frames by a parabola, and its quality.
    private static func correlationPeak(fft: RealFFT, cross: [Double], powerX: [Double], powerS: [Double],
                                        span: Int) -> (lag: Double, quality: Double)? {
        let size = fft.count
        let bins = size / 2 + 1
        let spectrum = fft.spectrum, signal = fft.signal
        var largest = 0.0
        for k in 0..<bins { largest = max(largest, powerX[k] * powerS[k]) }
        guard largest > 0 else { return nil }
        for k in 0..<bins {
            let re = cross[2 * k], im = cross[2 * k + 1]
            let magnitude = (re * re + im * im).squareRoot()
            // G·|G|/(Pxx·Pss): the coherence-weighted phase of G.
            let weight = magnitude / (powerX[k] * powerS[k] + largest * 1e-12)
            spectrum[2 * k] = k == 0 || k == bins - 1 ? 0 : Float(re * weight)
            spectrum[2 * k + 1] = k == 0 || k == bins - 1 ? 0 : Float(im * weight)
        }
        fft.inverse()
        func value(_ m: Int) -> Double { Double(signal[(m + size) % size]) }
        var best = 0, bestMagnitude = -1.0, sumSquares = 0.0
        for m in -span...0 {
            let v = value(m)
            sumSquares += v * v
            if abs(v) > bestMagnitude {
                bestMagnitude = abs(v)
                best = m
            }
        }
        let rms = (sumSquares / Double(span + 1)).squareRoot()
        guard rms > 0 else { return nil }
        let sign = value(best) < 0 ? -1.0 : 1.0
        let left = sign * value(best - 1), centre = sign * value(best), right = sign * value(best + 1)
        let curvature = left - 2 * centre + right
        let shift = curvature < 0 ? min(max(0.5 * (left - right) / curvature, -0.5), 0.5) : 0
        return (Double(best) + shift, bestMagnitude / rms)
    }

    /// The delay line through the segments' delays: Theil–Sen (the median of the pairwise
    /// slopes; Sen 1968) for a start that outliers cannot move, then least squares on the
    /// points within four robust SDs (at least one frame) of it, twice. Nil when fewer than
    /// half of the segments that heard the stimulus agree, or the drift exceeds 0.1 %.
    static func fitDelayLine(_ points: [DelayPoint], minimumQuality: Double, smallestLimit: Double = 1) -> StimulusDelayLine? {
        let heard = points.filter { $0.quality >= minimumQuality }
        guard !heard.isEmpty else { return nil }
        func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            let middle = sorted.count / 2
            return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        }
        // Too short to see a drift: a constant delay.
        let span = (heard.map(\.frame).max() ?? 0) - (heard.map(\.frame).min() ?? 0)
        var slope = 0.0
        if heard.count >= 3 && span > 0 {
            var slopes: [Double] = []
            for i in heard.indices {
                for j in (i + 1)..<heard.count where heard[j].frame != heard[i].frame {
                    slopes.append((heard[j].delay - heard[i].delay) / (heard[j].frame - heard[i].frame))
                }
            }
            if !slopes.isEmpty { slope = median(slopes) }
        }
        var line = StimulusDelayLine(intercept: median(heard.map { $0.delay - slope * $0.frame }), slope: slope)
        var used = heard
        for _ in 0..<3 {
            let residuals = heard.map { abs($0.delay - line.delay(atFrame: $0.frame)) }
            let limit = max(4 * 1.4826 * median(residuals), smallestLimit)
            used = heard.indices.filter { residuals[$0] <= limit }.map { heard[$0] }
            guard !used.isEmpty else { return nil }
            if used.count >= 3 && span > 0 {
                let n = Double(used.count)
                let meanFrame = used.map(\.frame).reduce(0, +) / n
                let meanDelay = used.map(\.delay).reduce(0, +) / n
                var sxx = 0.0, sxy = 0.0
                for point in used {
                    sxx += (point.frame - meanFrame) * (point.frame - meanFrame)
                    sxy += (point.frame - meanFrame) * (point.delay - meanDelay)
                }
                let fitted = sxx > 0 ? sxy / sxx : 0
                line = StimulusDelayLine(intercept: meanDelay - fitted * meanFrame, slope: fitted)
            } else {
                line = StimulusDelayLine(intercept: median(used.map(\.delay)), slope: 0)
            }
        }
        guard used.count * 2 > heard.count, abs(line.slope) <= 1e-3 else { return nil }
        return line
    }

    // MARK: The path's response

    /// Per-bin sums over one segment's blocks: the recording's and the warped stimulus's
    /// cross-spectrum and powers, each block weighted by its robustness weight.
    struct SegmentStatistics {
        var cross: [Double]     // Σ w·X·conj(S), interleaved
        var powerX: [Double]    // Σ w·|X|²
        var powerS: [Double]    // Σ w·|S|²
        var blocks = 0

        init(bins: Int) {
            cross = [Double](repeating: 0, count: 2 * bins)
            powerX = [Double](repeating: 0, count: bins)
            powerS = [Double](repeating: 0, count: bins)
        }

        /// The segment's own response H = Σ X·S*/(Σ |S|² + ε), interleaved, and the bleed's
        /// power per bin, |H|²·Σ |S|².
        func response() -> (response: [Double], bleed: [Double]) {
            let bins = powerS.count
            let epsilon = max(powerS.reduce(0, +) / Double(bins) * 1e-6, 1e-30)
            var response = [Double](repeating: 0, count: 2 * bins)
            var power = [Double](repeating: 0, count: bins)
            for k in 0..<bins {
                response[2 * k] = cross[2 * k] / (powerS[k] + epsilon)
                response[2 * k + 1] = cross[2 * k + 1] / (powerS[k] + epsilon)
                power[k] = (response[2 * k] * response[2 * k] + response[2 * k + 1] * response[2 * k + 1]) * powerS[k]
            }
            return (response, power)
        }

        /// Adds one block's spectra (interleaved) with a weight.
        mutating func add(x: UnsafeMutableBufferPointer<Float>, s: UnsafeMutableBufferPointer<Float>, weight: Double) {
            blocks += 1
            let bins = powerX.count
            cross.withUnsafeMutableBufferPointer { cross in
                powerX.withUnsafeMutableBufferPointer { powerX in
                    powerS.withUnsafeMutableBufferPointer { powerS in
                        for k in 0..<bins {
                            let xr = Double(x[2 * k]), xi = Double(x[2 * k + 1])
                            let sr = Double(s[2 * k]), si = Double(s[2 * k + 1])
                            cross[2 * k] += weight * (xr * sr + xi * si)
                            cross[2 * k + 1] += weight * (xi * sr - xr * si)
                            powerX[k] += weight * (xr * xr + xi * xi)
                            powerS[k] += weight * (sr * sr + si * si)
                        }
                    }
                }
            }
        }
    }

    /// The path's response per segment, by least squares in the frequency domain (the Wiener
    /// solution): over the segment and its neighbours, H = Σ X·S* / (Σ |S|² + ε), X and S the
    /// spectra of Hann-windowed blocks of the high-passed recording and of the stimulus warped
    /// onto the recording's clock (``WarpedStimulus``), half-overlapping. A block whose residual
    /// under the previous estimate is more than three times the typical one (a loud tap, a
    /// knock) is down-weighted in proportion. The response is cut to the filter's taps (lead
    /// before the delay line's instant, the rest after, tapered at both ends), which also drops
    /// most of the estimate's noise. A segment's filter is kept only when it lowers that
    /// segment's weighted residual power by ``StimulusBleedConfiguration/minimumReductionDB``.
    static func estimateFilters(recording: any FrameReadable, stimulus: any FrameReadable, line: StimulusDelayLine,
                                cutoff: Double, configuration: StimulusBleedConfiguration,
                                initialResponse: [Float]? = nil) throws(AudioError) -> BleedFilterSet {
        let rate = recording.sampleRate
        let frameCount = recording.frameCount
        let size = nextPowerOfTwo(Int(configuration.estimationBlockDuration * rate))
        let hop = size / 2
        let bins = size / 2 + 1
        let lead = Int((configuration.filterLead * rate).rounded())
        let length = min(max(lead + 2, Int((configuration.filterDuration * rate).rounded())), size / 2)
        let segmentLength = max(hop, Int((configuration.segmentDuration * rate).rounded()))
        let segmentCount = max(1, Int((Double(frameCount) / Double(segmentLength)).rounded()))
        var filters = BleedFilterSet(lead: lead, length: length, segmentLength: segmentLength, frameCount: frameCount,
                                     taps: [[Float]?](repeating: nil, count: segmentCount),
                                     reductions: [Double?](repeating: nil, count: segmentCount),
                                     offsets: [Double?](repeating: nil, count: segmentCount))
        let fftX = RealFFT(count: size), fftS = RealFFT(count: size)
        let window = fftX.hannWindow
        var x = HighPassedStream(source: recording, cutoff: cutoff, firstFrame: 0)
        var w = WarpedStimulus(stimulus: stimulus, cutoff: cutoff, line: line, firstFrame: 0)
        // Statistics of the segments not yet finalised (a segment's filter needs its neighbours).
        var statistics: [Int: SegmentStatistics] = [:]
        var current = SegmentStatistics(bins: bins), currentSegment = 0
        var previousResponse = initialResponse   // the latest filter's spectrum, for the weights
        var recentResiduals: [Double] = []
        var finalised = 0
        var reference: (response: [Double], bleed: [Double])?

        func finalise(_ j: Int) {
            let neighbours = [j - 1, j, j + 1].compactMap { statistics[$0] }
            guard let own = statistics[j], own.blocks > 0 else { return }
            let response = own.response()
            if let reference {
                filters.offsets[j] = relativeDelay(response, reference: reference, fft: fftS)
            } else if response.bleed.reduce(0, +) > 0 {
                reference = response
                filters.offsets[j] = 0
            }
            guard let (taps, response) = filter(from: neighbours, fft: fftS, lead: lead, length: length) else { return }
            // The residual power of this segment's blocks under the filter, from its sums:
            // Σ|X − H·S|² = Σ|X|² − 2·Re(H·conj(Σ X·S*)) + |H|²·Σ|S|².
            var before = 0.0, after = 0.0
            for k in 0..<bins {
                let hr = Double(response[2 * k]), hi = Double(response[2 * k + 1])
                let cr = own.cross[2 * k], ci = own.cross[2 * k + 1]
                before += own.powerX[k]
                after += own.powerX[k] - 2 * (hr * cr + hi * ci) + (hr * hr + hi * hi) * own.powerS[k]
            }
            guard before > 0 else { return }
            let reduction = 10 * log10(before / max(after, before * 1e-12))
            filters.reductions[j] = reduction
            if reduction >= configuration.minimumReductionDB {
                filters.taps[j] = taps
                filters.lastResponse = response
                previousResponse = response
            }
        }

        func close(_ j: Int) {
            statistics[j] = current
            current = SegmentStatistics(bins: bins)
            // A provisional filter from what is known so far weights the next segment's blocks.
            if previousResponse == nil,
               let (_, response) = filter(from: [statistics[j - 1], statistics[j]].compactMap { $0 }, fft: fftS,
                                          lead: lead, length: length) {
                previousResponse = response
            }
            if j >= 1 {
                finalise(j - 1)
                finalised = j
                statistics[j - 2] = nil
            }
        }

        var start = 0
        let signalX = fftX.signal, signalS = fftS.signal, spectrumX = fftX.spectrum, spectrumS = fftS.spectrum
        while start + size <= frameCount {
            let segment = filters.segment(ofFrame: start + size / 2)
            if segment != currentSegment {
                close(currentSegment)
                currentSegment = segment
            }
            try x.withFrames(from: start, count: size) { block in
                for index in 0..<size { signalX[index] = block[index] * window[index] }
            }
            var energy: Float = 0
            try w.withFrames(from: start, count: size) { block in
                for index in 0..<size {
                    signalS[index] = block[index] * window[index]
                    energy += block[index] * block[index]
                }
            }
            start += hop
            guard energy > 0 else { continue }
            fftX.forward()
            fftS.forward()
            var weight = 1.0
            if let response = previousResponse {
                var residual = 0.0
                for k in 0..<bins {
                    let hr = response[2 * k], hi = response[2 * k + 1]
                    let sr = spectrumS[2 * k], si = spectrumS[2 * k + 1]
                    let er = Double(spectrumX[2 * k] - (hr * sr - hi * si))
                    let ei = Double(spectrumX[2 * k + 1] - (hr * si + hi * sr))
                    residual += er * er + ei * ei
                }
                recentResiduals.append(residual)
                if recentResiduals.count > 64 { recentResiduals.removeFirst() }
                let typical = recentResiduals.sorted()[recentResiduals.count / 2]
                if residual > 3 * typical { weight = 3 * typical / residual }
            }
            current.add(x: spectrumX, s: spectrumS, weight: weight)
        }
        close(currentSegment)
        for j in finalised..<segmentCount where statistics[j] != nil { finalise(j) }
        return filters
    }

    /// How much later than `reference` a segment's response is, frames: the whole frames from
    /// the peak of the phase-only cross-correlation of the two responses (within ±16), the
    /// fraction from the slope of the remaining phase against frequency (least squares, each
    /// bin weighted by the bleed's power in both).
    static func relativeDelay(_ response: (response: [Double], bleed: [Double]),
                              reference: (response: [Double], bleed: [Double]), fft: RealFFT) -> Double? {
        let size = fft.count
        let bins = size / 2 + 1
        var product = [Double](repeating: 0, count: 2 * bins)
        var weights = [Double](repeating: 0, count: bins)
        let spectrum = fft.spectrum, signal = fft.signal
        for k in 1..<(bins - 1) {
            let ar = response.response[2 * k], ai = response.response[2 * k + 1]
            let br = reference.response[2 * k], bi = reference.response[2 * k + 1]
            let pr = ar * br + ai * bi, pi = ai * br - ar * bi
            let magnitude = (pr * pr + pi * pi).squareRoot()
            guard magnitude > 0 else { continue }
            product[2 * k] = pr / magnitude
            product[2 * k + 1] = pi / magnitude
            // The bleed's power in this segment and in the reference.
            weights[k] = min(response.bleed[k], reference.bleed[k])
        }
        let total = weights.reduce(0, +)
        guard total > 0 else { return nil }
        for k in 0..<bins {
            spectrum[2 * k] = Float(weights[k] / total * product[2 * k])
            spectrum[2 * k + 1] = Float(weights[k] / total * product[2 * k + 1])
        }
        fft.inverse()
        var whole = 0
        for m in -16...16 where signal[(m + size) % size] > signal[(whole + size) % size] { whole = m }
        var numerator = 0.0, denominator = 0.0
        for k in 1..<(bins - 1) where weights[k] > 0 {
            let omega = 2 * Double.pi * Double(k) / Double(size)
            // The phase left after taking out the whole frames.
            let c = cos(omega * Double(whole)), s = sin(omega * Double(whole))
            let re = product[2 * k] * c - product[2 * k + 1] * s
            let im = product[2 * k] * s + product[2 * k + 1] * c
            let phase = atan2(im, re)
            numerator += weights[k] * omega * phase
            denominator += weights[k] * omega * omega
        }
        guard denominator > 0 else { return nil }
        return Double(whole) - numerator / denominator
    }

    /// The filter taps (and their spectrum at the FFT's size, lead wrapped to the end) from the
    /// summed statistics. Nil when the stimulus had no power.
    private static func filter(from statistics: [SegmentStatistics], fft: RealFFT, lead: Int,
                               length: Int) -> (taps: [Float], response: [Float])? {
        let size = fft.count
        let bins = size / 2 + 1
        var cross = [Double](repeating: 0, count: 2 * bins)
        var powerS = [Double](repeating: 0, count: bins)
        for part in statistics {
            for index in 0..<(2 * bins) { cross[index] += part.cross[index] }
            for k in 0..<bins { powerS[k] += part.powerS[k] }
        }
        let mean = powerS.reduce(0, +) / Double(bins)
        guard mean > 0 else { return nil }
        // ε keeps bins where the stimulus is all but silent from blowing up.
        let epsilon = mean * 1e-6
        let spectrum = fft.spectrum, signal = fft.signal
        for k in 0..<bins {
            let denominator = powerS[k] + epsilon
            spectrum[2 * k] = Float(cross[2 * k] / denominator)
            spectrum[2 * k + 1] = Float(cross[2 * k + 1] / denominator)
        }
        fft.inverse()
        // Lags −lead … length − lead − 1; raised-cosine fades over the first half of the lead
        // and the last eighth of the filter.
        let fadeIn = max(1, lead / 2), fadeOut = max(1, length / 8)
        var taps = [Float](repeating: 0, count: length)
        for index in 0..<length {
            var gain = 1.0
            if index < fadeIn { gain = raisedCosine(Double(index + 1), over: Double(fadeIn + 1)) }
            let fromEnd = length - 1 - index
            if fromEnd < fadeOut { gain = min(gain, raisedCosine(Double(fromEnd + 1), over: Double(fadeOut + 1))) }
            taps[index] = Float(gain) * signal[(index - lead + size) % size]
        }
        for index in 0..<size { signal[index] = 0 }
        for index in 0..<length { signal[(index - lead + size) % size] = taps[index] }
        fft.forward()
        return (taps, Array(spectrum))
    }
}
