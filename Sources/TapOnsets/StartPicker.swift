import Foundation

/// Finds where a transient starts inside a short stretch of signal with the Akaike
/// Information Criterion picker: the split point that best explains the stretch as
/// low-variance noise followed by higher-variance signal (Maeda 1985, "A method for reading
/// and checking phase times in autoprocessing system of seismic wave data"; Sleeman & van
/// Eck 1999, Phys. Earth Planet. Inter. 113). Unlike a threshold crossing, its answer does
/// not move later as the transient gets quieter.
enum StartPicker {
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
