import TapAudio

/// Where a metronome's clicks lie in a recording, found from their energy envelopes: the
/// line `phase + k × period` (frames) through the instants at which each click's envelope
/// best matches the clicks' median envelope.
///
/// ``BleedTemplate`` aligns clicks by their waveforms, to the frame, within a few frames of
/// the grid the onsets gave. A click that rings (a woodblock, a sine burst) correlates with
/// itself one cycle later almost as well as in place, so a click further off than that
/// aligns to the nearest cycle instead. The envelope has no cycles: its match is broad but
/// unambiguous over several milliseconds, enough to fix the line, on which the waveforms
/// then align.
enum ClickEnvelopeLine {
    /// How far from the instant the onsets' grid gives a click's envelope is sought, seconds:
    /// a grid fitted to smeared starts can put the clicks 1 ms off at the ends of 20 s (50
    /// frames on seed 109's `loudspeaker-aac-held-1`) and more over a longer recording; 5 ms
    /// leaves room, and stays well inside a beat.
    static let reach: Seconds = 0.005
    /// The envelope's smoothing: the energy over this long a stretch, seconds.
    static let smoothing: Seconds = 0.001
    /// How much of the click the envelopes are compared over after its instant, seconds: the
    /// attack and the first of the decay, where a click's energy lies.
    static let span: Seconds = 0.030
    /// The step between the shifts tried, frames (the waveforms align to the frame afterwards).
    static let step = 2

    /// The line through the clicks `clicks` (indices k), each sought around `instant(k)`
    /// (frames); nil when fewer than six clicks can be read or placed. A click whose place
    /// lies off the line the others fit (a tap that sounded over it drew the match) is left
    /// out of the fit.
    /// - Parameter segment: reads `length` high-passed frames from a start frame; nil past the end.
    static func fit(clicks: [Int], at instant: (Int) -> Int, leadFrames: Int, sampleRate rate: Double,
                    segment: (_ start: Int, _ length: Int) -> [Float]?) -> StimulusLockedOnsets.Grid? {
        let reachFrames = Int((reach * rate).rounded()), window = max(1, Int((smoothing * rate).rounded()))
        let spanFrames = leadFrames + Int((span * rate).rounded())
        let count = spanFrames + 2 * reachFrames
        var envelopes: [(k: Int, origin: Int, energy: [Double])] = []
        for k in clicks {
            let origin = instant(k) - leadFrames - reachFrames
            guard origin >= 0, let samples = segment(origin, count + window), samples.count == count + window else { continue }
            envelopes.append((k, origin, movingEnergy(samples, window: window, count: count)))
        }
        guard envelopes.count >= 6 else { return nil }
        // Each click aligned to the median of the others as they lie, then to the median of the
        // aligned ones.
        var shifts = [Int](repeating: 0, count: envelopes.count)
        for _ in 0..<2 {
            let reference = medianEnvelope(envelopes.map(\.energy), shifts: shifts, reach: reachFrames, length: spanFrames)
            shifts = envelopes.map { bestShift(of: reference, in: $0.energy, reach: reachFrames) }
        }
        var points = zip(envelopes, shifts).map { envelope, shift in
            (k: Double(envelope.k), time: Double(envelope.origin + reachFrames + leadFrames + shift))
        }
        let first = StimulusLockedOnsets.fitLine(points)
        let residuals = points.map { abs($0.time - first.phase - $0.k * first.period) }
        let spread = residuals.sorted()[residuals.count / 2]
        points = zip(points, residuals).filter { $0.1 <= max(Double(2 * step), 3 * spread) }.map(\.0)
        guard points.count >= 6 else { return nil }
        return StimulusLockedOnsets.fitLine(points)
    }

    /// The energy of `samples` over `window` frames from each of the first `count` frames on.
    private static func movingEnergy(_ samples: [Float], window: Int, count: Int) -> [Double] {
        var sum = 0.0
        for index in 0..<window { sum += Double(samples[index]) * Double(samples[index]) }
        var energy = [Double](repeating: 0, count: count)
        for index in 0..<count {
            energy[index] = sum
            let leaving = Double(samples[index]), entering = Double(samples[index + window])
            sum += entering * entering - leaving * leaving
        }
        return energy
    }

    /// The median of the envelopes at every ``step``-th of `length` frames, each read from
    /// `reach + shift`. (The envelope is a 1 ms moving sum: read every second frame it loses
    /// nothing the match needs, at a quarter of the cost.)
    private static func medianEnvelope(_ envelopes: [[Double]], shifts: [Int], reach: Int, length: Int) -> [Double] {
        var column = [Double](repeating: 0, count: envelopes.count)
        return stride(from: 0, to: length, by: step).map { index in
            for (e, envelope) in envelopes.enumerated() { column[e] = envelope[reach + shifts[e] + index] }
            column.sort()
            return column[column.count / 2]
        }
    }

    /// The shift in −reach…reach (in steps of ``step``) at which `envelope`, read from
    /// `reach + shift` at every ``step``-th frame, is most nearly proportional to `reference`
    /// (largest cosine).
    private static func bestShift(of reference: [Double], in envelope: [Double], reach: Int) -> Int {
        var best = 0, bestCosine = -Double.infinity
        for shift in stride(from: -(reach / step) * step, through: reach, by: step) {
            var dot = 0.0, energy = 0.0
            for index in reference.indices {
                let value = envelope[reach + shift + index * step]
                dot += value * reference[index]
                energy += value * value
            }
            let cosine = energy > 0 ? dot / energy.squareRoot() : 0
            if cosine > bestCosine {
                bestCosine = cosine
                best = shift
            }
        }
        return best
    }
}
