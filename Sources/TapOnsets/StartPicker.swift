import Foundation

/// Finds where a transient starts inside a short stretch of signal with the Akaike
/// Information Criterion picker: the split point that best explains the stretch as
/// low-variance noise followed by higher-variance signal (Maeda 1985, "A method for reading
/// and checking phase times in autoprocessing system of seismic wave data"; Sleeman & van
/// Eck 1999, Phys. Earth Planet. Inter. 113). Unlike a threshold crossing, its answer does
/// not move later as the transient gets quieter.
enum StartPicker {
    /// How much more power the stretch after a second change point must carry than the stretch
    /// between the two points for the first to count as a precursor, dB.
    static let precursorJumpDB = 20.0

    /// The start of the transient, stepping over what leads it at a far lower level: when the
    /// stretch after the first change point holds a second one, and the power there is at
    /// least ``precursorJumpDB`` over the power between the two, the sound begins at the
    /// second. A lossy codec (AAC, MP3, Opus) or an FFT denoiser smears quantisation noise up
    /// to one transform block ahead of a transient (pre-echo), 20–40 dB under it; the first
    /// change point finds where that noise starts, milliseconds early.
    /// Returns the start and, when one was stepped over, where the precursor began.
    static func pickSkippingPrecursor(_ samples: UnsafeBufferPointer<Float>) -> (start: Int, precursor: Int?) {
        let first = pick(samples)
        let rest = UnsafeBufferPointer(rebasing: samples[first...])
        guard rest.count >= 16 else { return (first, nil) }
        let second = pick(rest)
        guard second > 0 else { return (first, nil) }
        func meanSquare(_ range: Range<Int>) -> Double {
            var sum = 0.0
            for index in range { sum += Double(rest[index]) * Double(rest[index]) }
            return sum / Double(max(range.count, 1)) + 1e-30
        }
        // The same length on both sides of the second point (at least 8 samples after it).
        let after = meanSquare(second..<min(rest.count, second + max(second, 8)))
        return 10 * log10(after / meanSquare(0..<second)) >= precursorJumpDB ? (first + second, first) : (first, nil)
    }

    /// Returns the index (into `samples`) of the first sample of the higher-variance segment.
    /// - Parameter minimumSegment: the least number of samples on either side.
    static func pick(_ samples: UnsafeBufferPointer<Float>, minimumSegment: Int = 4) -> Int {
        let count = samples.count
        guard count >= 2 * minimumSegment + 1 else { return count / 2 }
        var total = 0.0
        for sample in samples { total += Double(sample) * Double(sample) }
        // Mean-zero variances (the input is high-passed), with a floor so digital silence
        // does not produce log(0).
        let epsilon = 1e-20
        var before = 0.0
        for index in 0..<minimumSegment { before += Double(samples[index]) * Double(samples[index]) }
        var best = minimumSegment
        var bestScore = Double.infinity
        for split in minimumSegment...(count - minimumSegment) {
            let n1 = Double(split), n2 = Double(count - split)
            let score = n1 * log(before / n1 + epsilon) + n2 * log(max(total - before, 0) / n2 + epsilon)
            if score < bestScore {
                bestScore = score
                best = split
            }
            if split < count { before += Double(samples[split]) * Double(samples[split]) }
        }
        return best
    }
}
