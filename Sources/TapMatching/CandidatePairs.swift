/// Every touch–onset combination whose latency lies within `tolerance` of a model.
///
/// Stored as parallel arrays ordered by touch, then onset, which is the order the
/// assignment needs. Positions index the sorted ``EventList`` arrays.
struct CandidatePairs {
    var touch: [Int] = []
    var onset: [Int] = []
    /// `touchTime − onsetTime − model(onsetTime)`.
    var residual: [Double] = []

    var count: Int { touch.count }

    /// Collects the candidates with a two-pointer sweep in O(n + m + pairs).
    ///
    /// The sweep relies on `onsetTime + model(onsetTime)` increasing with the onset time,
    /// true for any slope above −1 (a clock cannot run backwards).
    init(touches: [Double], onsets: [Double], model: LatencyModel, tolerance: Double) {
        precondition(model.slope > -1, "latency slope must exceed -1")
        var first = 0
        for (i, t) in touches.enumerated() {
            // Expected touch time of onset j is onsets[j] + model(onsets[j]).
            while first < onsets.count,
                  onsets[first] + model.latency(at: onsets[first]) < t - tolerance {
                first += 1
            }
            var j = first
            while j < onsets.count {
                let r = t - onsets[j] - model.latency(at: onsets[j])
                if r < -tolerance { break }
                touch.append(i)
                onset.append(j)
                residual.append(r)
                j += 1
            }
        }
    }
}
