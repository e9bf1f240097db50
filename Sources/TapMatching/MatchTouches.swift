/// Pairs touch timestamps with acoustic onsets and measures the touch latency, without
/// being told the latency.
///
/// A latency is `touchTime − onsetTime`. The steps:
/// 1. **Search.** The latency model the most touch–onset differences agree on is the mode
///    of a kernel density of all differences inside ``MatchingConfiguration/latencyRange``
///    (with drift enabled and enough data, also scanning the drift slope), refined by the
///    median of the differences near the mode.
/// 2. **First pass.** A one-to-one, order-preserving assignment within
///    ``MatchingConfiguration/maximumTolerance`` of the model: the most pairs, then the
///    smallest sum of squared residuals. The model is refitted to these pairs (median, or a
///    robust line when drift is estimated).
/// 3. **Adaptive tolerance.** `clamp(k × 1.4826 × MAD(residuals), minimum, maximum)`, see
///    ``MatchingConfiguration/toleranceFactor``.
/// 4. **Final passes.** Assignment with the adaptive tolerance and refit, repeated until
///    the pairs no longer change (at most three refits); with drift the model is the line
///    `L(t) = L₀ + skew × t`. Every returned pair lies within ``MatchResult/tolerance`` of
///    the returned model (``MatchResult/modelLatency(at:)``).
///
/// Both inputs are expected in ascending order (as an onset detector and a touch log
/// produce them); unsorted input is sorted internally at O(n log n) cost, and
/// "order-preserving" then refers to time order. Non-finite times are never paired and are
/// listed as unmatched. Empty inputs give an empty result.
///
/// Cost: O((n + m)·k) to collect the k candidate onsets per touch, O(n·k) per drift slope
/// examined by the search (a few hundred at most), and O(n·k·log m) per assignment pass.
///
/// - Parameters:
///   - touches: Touch timestamps (seconds, touch clock), ascending.
///   - onsets: Acoustic onset times (seconds, audio clock), ascending.
///   - configuration: Search range, tolerances and drift settings.
/// - Returns: The pairs, the unpaired indices of each input, the latency model and the
///   tolerance used.
public func matchTouches(
    _ touches: [Double], toOnsets onsets: [Double],
    configuration: MatchingConfiguration = .default
) -> MatchResult {
    let touchList = EventList(touches)
    let onsetList = EventList(onsets)
    let matcher = TouchMatcher(
        touches: touchList.times, onsets: onsetList.times, configuration: configuration)
    let outcome = matcher.run()
    return outcome.result(
        touchList: touchList, onsetList: onsetList,
        touchCount: touches.count, onsetCount: onsets.count)
}
