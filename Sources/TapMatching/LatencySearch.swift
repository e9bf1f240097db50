/// Finds the latency model that the most touch–onset differences agree on.
///
/// Every difference `touch − onset` inside the latency range is a vote. Genuine pairs vote
/// for nearly the same latency; stimulus bleed, distractor onsets and neighbouring taps
/// vote for latencies spread over tens of milliseconds. The search therefore takes the mode
/// of an Epanechnikov kernel density estimate of the differences (a narrow cluster beats a
/// broad one of the same size; Silverman 1986, "Density Estimation", ch. 3), computed on a
/// fine histogram so that its cost is linear in the number of differences.
///
/// With drift, genuine differences lie on a line rather than at one value. The search then
/// also scans the slope (a Hough-style transform, Duda & Hart 1972): for each slope on a
/// grid fine enough that the correction at the session's ends moves by one histogram bin,
/// the differences are de-trended and their density mode taken. Ties go to the smaller
/// |slope| and, within a slope, to the larger latency: a tap's own sound comes before its
/// echoes and usually before the stimulus bleed (people tap ahead of the beat), so it
/// gives the larger `touch − onset`.
struct LatencySearch {
    /// Bins per kernel half-width: fine enough that binning moves the mode by ≤ 5 % of it.
    static let binsPerHalfWidth = 10

    /// Returns the model, or `nil` when no difference lies in the range.
    static func find(
        touches: [Double], onsets: [Double], configuration: MatchingConfiguration,
        searchesDrift: Bool
    ) -> LatencyModel? {
        let range = configuration.latencyRange
        let halfWidth = max(configuration.searchHalfWidth, 1e-6)
        guard let firstOnset = onsets.first, let lastOnset = onsets.last else { return nil }
        let referenceTime = 0.5 * (firstOnset + lastOnset)
        let centre = 0.5 * (range.lowerBound + range.upperBound)
        let span = 0.5 * (range.upperBound - range.lowerBound)
        let votes = CandidatePairs(
            touches: touches, onsets: onsets, model: .constant(centre),
            tolerance: span + halfWidth)
        guard votes.count > 0 else { return nil }
        let differences = votes.residual.map { $0 + centre }
        let times = votes.onset.map { onsets[$0] - referenceTime }

        let binWidth = halfWidth / Double(binsPerHalfWidth)
        let slopes = slopeGrid(
            configuration: configuration, halfSpan: 0.5 * (lastOnset - firstOnset),
            binWidth: binWidth, enabled: searchesDrift)
        let histogram = KernelHistogram(
            lower: range.lowerBound - halfWidth, upper: range.upperBound + halfWidth,
            binWidth: binWidth)
        var scratch = histogram.makeCounts()
        var best: (score: Double, latency: Double, slope: Double)?
        for slope in slopes {
            histogram.fill(&scratch, differences: differences, times: times, slope: slope)
            guard let mode = histogram.mode(of: scratch, within: range) else { continue }
            if best == nil || mode.score > best!.score {
                best = (mode.score, mode.latency, slope)
            }
        }
        guard let best else { return nil }
        let offset = refine(
            differences: differences, times: times, slope: best.slope, start: best.latency,
            halfWidth: halfWidth)
        return LatencyModel(offset: offset, slope: best.slope, referenceTime: referenceTime)
    }

    /// Slopes 0, +δ, −δ, +2δ, … (ascending |slope|, so ties favour no drift), with δ the
    /// slope that moves the session's ends by one bin.
    static func slopeGrid(
        configuration: MatchingConfiguration, halfSpan: Double, binWidth: Double, enabled: Bool
    ) -> [Double] {
        guard enabled, halfSpan > 0 else { return [0] }
        let rangeHalf = 0.5 * (configuration.latencyRange.upperBound
            - configuration.latencyRange.lowerBound)
        // Only differences inside the latency range vote, so a line that leaves the range
        // cannot win; bounding the end shift by it keeps the grid small.
        let maxShift = min(max(configuration.maximumDriftPPM, 0) * 1e-6 * halfSpan, rangeHalf)
        let steps = Int((maxShift / binWidth).rounded(.down))
        let step = binWidth / halfSpan
        var slopes = [0.0]
        slopes.reserveCapacity(2 * steps + 1)
        for k in stride(from: 1, through: steps, by: 1) {
            slopes.append(Double(k) * step)
            slopes.append(-Double(k) * step)
        }
        return slopes
    }

    /// Re-centres on the median of the de-trended differences within ±halfWidth, twice,
    /// removing the bin quantization and the kernel's pull toward nearby clutter.
    static func refine(
        differences: [Double], times: [Double], slope: Double, start: Double, halfWidth: Double
    ) -> Double {
        var centre = start
        var window: [Double] = []
        for _ in 0..<2 {
            window.removeAll(keepingCapacity: true)
            for k in differences.indices {
                let d = differences[k] - slope * times[k]
                if abs(d - centre) <= halfWidth { window.append(d) }
            }
            guard let m = median(window) else { break }
            centre = m
        }
        return centre
    }
}
