/// The matching pipeline over sorted, finite times (positions, not caller indices).
struct TouchMatcher {
    let touches: [Double]
    let onsets: [Double]
    let configuration: MatchingConfiguration
    let maximumTolerance: Double
    let minimumTolerance: Double

    /// Fewest first-pass pairs from which the adaptive tolerance is estimated.
    static let minimumPairsForAdaptiveTolerance = 8
    /// Most assignment passes after the first.
    static let maximumRefinements = 3

    init(touches: [Double], onsets: [Double], configuration: MatchingConfiguration) {
        self.touches = touches
        self.onsets = onsets
        self.configuration = configuration
        maximumTolerance = max(configuration.maximumTolerance, 0)
        minimumTolerance = min(max(configuration.minimumTolerance, 0), maximumTolerance)
    }

    struct Outcome {
        var pairs: [(touch: Int, onset: Int)]
        var latencyEstimate: Double?
        var tolerance: Double
        var drift: ClockDrift?
    }

    func run() -> Outcome {
        let searchesDrift = configuration.estimatesDrift
            && touches.count >= configuration.minimumPairsForDrift
            && onsets.count >= configuration.minimumPairsForDrift
            && (onsets.last ?? 0) - (onsets.first ?? 0) >= configuration.minimumSpanForDrift
        guard let searched = LatencySearch.find(
            touches: touches, onsets: onsets, configuration: configuration,
            searchesDrift: searchesDrift)
        else {
            return Outcome(pairs: [], latencyEstimate: nil, tolerance: maximumTolerance, drift: nil)
        }

        var pairs = assign(model: searched, tolerance: maximumTolerance)
        var fit = refit(pairs, start: searched)
        let tolerance = adaptiveTolerance(pairs, model: fit.model)
        var converged = false
        for _ in 0..<Self.maximumRefinements {
            let next = assign(model: fit.model, tolerance: tolerance)
            if next.elementsEqual(pairs, by: ==) {
                converged = true
                break
            }
            pairs = next
            fit = refit(pairs, start: fit.model)
        }
        // Every reported pair must lie within the tolerance of the reported model.
        if !converged { pairs = assign(model: fit.model, tolerance: tolerance) }
        return Outcome(
            pairs: pairs, latencyEstimate: fit.latencyEstimate, tolerance: tolerance,
            drift: fit.drift)
    }

    func assign(model: LatencyModel, tolerance: Double) -> [(touch: Int, onset: Int)] {
        let candidates = CandidatePairs(
            touches: touches, onsets: onsets, model: model, tolerance: tolerance)
        return OrderPreservingAssignment(candidates: candidates, onsetCount: onsets.count).pairs
    }

    struct Fit {
        var model: LatencyModel
        var latencyEstimate: Double
        var drift: ClockDrift?
    }

    /// The latency model of `pairs`: a robust line when drift may be estimated, else the
    /// median latency. Without pairs, `start` is kept.
    func refit(_ pairs: [(touch: Int, onset: Int)], start: LatencyModel) -> Fit {
        let times = pairs.map { onsets[$0.onset] }
        let latencies = pairs.map { touches[$0.touch] - onsets[$0.onset] }
        let span = (times.last ?? 0) - (times.first ?? 0)
        if configuration.estimatesDrift, pairs.count >= max(configuration.minimumPairsForDrift, 3),
           span >= configuration.minimumSpanForDrift, span > 0,
           let line = RobustLineFit(x: times, y: latencies, start: start), line.slope > -1
        {
            let drift = ClockDrift(
                ppm: line.slope * 1e6,
                latencyAtZero: line.offset - line.slope * line.referenceTime,
                standardError: line.slopeStandardError * 1e6)
            let middle = median(times) ?? line.referenceTime
            return Fit(model: line.model, latencyEstimate: line.model.latency(at: middle), drift: drift)
        }
        guard let centre = median(latencies) else {
            return Fit(model: start, latencyEstimate: start.offset, drift: nil)
        }
        return Fit(model: .constant(centre), latencyEstimate: centre, drift: nil)
    }

    /// `clamp(k × 1.4826 × MAD, minimum, maximum)` of the residuals about `model`, or the
    /// maximum tolerance when there are too few pairs to judge the spread.
    func adaptiveTolerance(_ pairs: [(touch: Int, onset: Int)], model: LatencyModel) -> Double {
        guard pairs.count >= Self.minimumPairsForAdaptiveTolerance else { return maximumTolerance }
        let residuals = pairs.map {
            touches[$0.touch] - onsets[$0.onset] - model.latency(at: onsets[$0.onset])
        }
        guard let centre = median(residuals) else { return maximumTolerance }
        let spread = configuration.toleranceFactor * scaledMAD(residuals, center: centre)
        guard spread.isFinite else { return maximumTolerance }
        return min(max(spread, minimumTolerance), maximumTolerance)
    }
}

extension TouchMatcher.Outcome {
    /// Translates sorted positions back to the caller's indices.
    func result(touchList: EventList, onsetList: EventList, touchCount: Int, onsetCount: Int)
        -> MatchResult
    {
        var touchUsed = [Bool](repeating: false, count: touchCount)
        var onsetUsed = [Bool](repeating: false, count: onsetCount)
        let matched = pairs.map { pair -> MatchedPair in
            let touchIndex = touchList.originalIndex[pair.touch]
            let onsetIndex = onsetList.originalIndex[pair.onset]
            touchUsed[touchIndex] = true
            onsetUsed[onsetIndex] = true
            return MatchedPair(
                touchIndex: touchIndex, onsetIndex: onsetIndex,
                touchTime: touchList.times[pair.touch], onsetTime: onsetList.times[pair.onset])
        }
        return MatchResult(
            pairs: matched,
            unmatchedTouchIndices: touchUsed.indices.filter { !touchUsed[$0] },
            unmatchedOnsetIndices: onsetUsed.indices.filter { !onsetUsed[$0] },
            latencyEstimate: latencyEstimate, tolerance: tolerance, drift: drift)
    }
}
