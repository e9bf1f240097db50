/// A fixed-bin histogram over latencies with an Epanechnikov kernel for mode finding.
struct KernelHistogram {
    let lower: Double
    let binWidth: Double
    let binCount: Int
    /// Kernel weights for bin offsets −h…h: `1 − (offset / (h + 1))²`, all positive.
    let kernel: [Double]

    init(lower: Double, upper: Double, binWidth: Double) {
        self.lower = lower
        self.binWidth = binWidth
        self.binCount = max(1, Int(((upper - lower) / binWidth).rounded(.up)) + 1)
        let h = LatencySearch.binsPerHalfWidth
        self.kernel = (-h...h).map { offset in
            let x = Double(offset) / Double(h + 1)
            return 1 - x * x
        }
    }

    func makeCounts() -> [Double] { [Double](repeating: 0, count: binCount) }

    @inline(__always)
    func bin(of latency: Double) -> Int { Int(((latency - lower) / binWidth).rounded(.down)) }

    func latency(ofBin bin: Int) -> Double { lower + (Double(bin) + 0.5) * binWidth }

    /// Counts the de-trended differences `d − slope × t` per bin.
    func fill(_ counts: inout [Double], differences: [Double], times: [Double], slope: Double) {
        counts.withUnsafeMutableBufferPointer { c in
            c.update(repeating: 0)
            for k in differences.indices {
                let b = bin(of: differences[k] - slope * times[k])
                if b >= 0 && b < binCount { c[b] += 1 }
            }
        }
    }

    /// The bin centre inside `range` with the highest kernel density; ties go to the
    /// larger latency. `nil` when every density there is zero.
    func mode(of counts: [Double], within range: ClosedRange<Double>) -> (score: Double, latency: Double)? {
        let h = LatencySearch.binsPerHalfWidth
        let first = max(bin(of: range.lowerBound), 0)
        let last = min(bin(of: range.upperBound), binCount - 1)
        guard first <= last else { return nil }
        var best: (score: Double, bin: Int)?
        counts.withUnsafeBufferPointer { c in
            kernel.withUnsafeBufferPointer { w in
                for b in first...last {
                    var score = 0.0
                    let lo = max(b - h, 0), hi = min(b + h, binCount - 1)
                    for k in lo...hi { score += w[k - b + h] * c[k] }
                    if score > 0, best == nil || score >= best!.score { best = (score, b) }
                }
            }
        }
        return best.map { ($0.score, latency(ofBin: $0.bin)) }
    }
}
