import Foundation
import TapAudio

/// Streaming detector of tap onsets in a microphone recording.
///
/// Pipeline (see Docs/algorithms.md):
/// 1. a causal 4th-order Butterworth high-pass removes hum and rumble;
/// 2. the short-time power of the filtered signal is taken every hop over a short window;
/// 3. the noise floor is a running quantile of that power (in dB) over a centred window, so
///    the threshold follows the local background instead of the file's loudest sound;
/// 4. an event starts where the power rises `thresholdDB` above the floor (or rises again by
///    `retriggerRiseDB` on the tail of a previous event), and its peak is confirmed;
/// 5. the start of the transient is picked on the filtered samples before the peak with the
///    AIC picker, which locates the noise-to-signal change point to a sample.
///
/// Memory is constant in the recording's length: the detector keeps about one noise window of
/// history. Feed blocks with `process(_:into:)` and end with ``finish(into:)``.
public struct OnsetDetector: Sendable {
    /// The sample rate the detector was built for.
    public let sampleRate: Double
    /// Its parameters.
    public let configuration: OnsetDetectorConfiguration

    // Derived sizes, in samples or hops (shared by all trackers).
    private let hop: Int
    private let windowHops: Int
    private let lookaheadHops: Int

    // Stage 1–2: filtering and short-time power.
    private var filter: HighPassFilter?
    private var history: [Float]          // filtered samples, ring buffer
    private let historyMask: Int
    /// How far back the history is read: half the ring, so that samples of the hops ahead
    /// can be stored before the hops behind them are finished.
    private let historyLength: Int
    private var samplesSeen = 0
    private var hopCountdown = 0
    private var hopEnergy = 0.0
    private var hopEnergies: [Double]     // last `windowHops` hop energies, ring
    private var hopEnergySlot = 0         // where the next one goes (hopsSeen mod windowHops)
    private var windowEnergy = 0.0

    // Stage 3: power per hop in dB (ring of lookahead + window) and the floor estimator.
    private var powerDB: [Double]
    /// The masking level earlier sounds leave behind, per decided hop (same ring as `powerDB`).
    private var maskDB: [Double]
    /// The sound the mask currently follows: its peak and how fast the mask falls from it.
    private var maskSource: (hop: Int, level: Double, fallPerHop: Double)?
    private let slowestMaskFallPerHop: Double
    /// Where, after a peak, its decay is read: 20–40 ms later, in hops.
    private let decayReadHops: ClosedRange<Int>
    private let powerMask: Int
    private var hopsSeen = 0
    private var floor: SlidingQuantile
    /// How much the power changes from one window to the next (|dB difference| between
    /// non-overlapping neighbours, same ring as `powerDB`), and its median over the noise
    /// window: how much the floor itself fluctuates. Slow changes of level (an automatic gain
    /// control) leave it alone; a gated or denoised background's blips raise it.
    private var changeDB: [Double]
    private var fluctuation: SlidingQuantile

    // Stage 4: one event tracker per threshold setting, over the same power and floor, each
    // evaluated `lookaheadHops` behind the newest hop.
    private enum EventState: Sendable {
        case idle
        case rising(searchStart: Int, peakHop: Int, peakDB: Double, peakSNR: Double)
        case decaying(minimumHop: Int, minimumDB: Double, peakDB: Double)
    }
    /// What a tracker's onsets are for.
    private enum TrackerRole: Sendable {
        /// Tap onsets: measured for the tap score, and started after a precursor (a codec's
        /// pre-echo, a subtracted click's residue).
        case taps
        /// The click probe's onsets, which only serve to find a click grid: timed at the first
        /// change point, where the grid the bleed template is aligned on was measured.
        case clickProbe
    }
    private struct Tracker: Sendable {
        let configuration: OnsetDetectorConfiguration
        let confirmHops: Int
        let searchSamples: Int
        let refractorySamples: Int
        /// The first configuration's tracker finds taps, any other one probes for clicks.
        let role: TrackerRole
        var state = EventState.idle
        /// No start may be placed before this sample (the previous onset's peak).
        var earliestStart = 0
        /// Where the picker put the last onset's start (for the refractory period): before any
        /// move past a suppressor's spread, so the move changes no judgement of whether a
        /// sound is the last one again.
        var lastOnsetFrame = Int.min / 2
        /// The frame of the last onset reported (moved or not), to find it in the list.
        var lastReportedFrame = Int.min / 2
        /// Peak power of the last onset reported, dB: a far louder sound inside its refractory
        /// period replaces it (a blip of noise just before a tap is not the tap).
        var lastOnsetPeakDB = -Double.infinity
    }
    private var trackers: [Tracker]
    /// Where the metronome clicks subtracted from the input (bleed cancellation) start, frames,
    /// oldest first; those the history no longer reaches are dropped.
    private var subtractedClicks: [Int] = []
    /// How close to a subtracted click's start an onset's start is taken to be at it, frames
    /// (`clickResidueWindow`).
    private let clickStartTolerance: Int
    /// ``heardClickSeparationDuration`` in frames.
    private let heardClickSeparation: Int

    /// Creates a detector for audio at `sampleRate`.
    public init(sampleRate: Double, configuration: OnsetDetectorConfiguration = .standard) {
        self.init(sampleRate: sampleRate, configuration: configuration, input: .raw)
    }

    /// What the detector is fed.
    enum Input { case raw, highPassed }

    /// A detector for input that is either raw or already high-passed with
    /// `configuration.highPassCutoff` (when another stage, bleed cancellation, works on the
    /// filtered signal first).
    init(sampleRate: Double, configuration: OnsetDetectorConfiguration, input: Input) {
        self.init(sampleRate: sampleRate, configurations: [configuration], input: input)
    }

    /// A detector that runs one event tracker per configuration over one filter, power
    /// envelope and noise floor (the configurations must agree on those; they may differ in
    /// thresholds, release, retrigger, confirmation, search and refractory settings). Onsets
    /// come out per configuration, through ``process(_:into:)-(_,[[Onset]])``.
    init(sampleRate: Double, configurations: [OnsetDetectorConfiguration], input: Input) {
        let configuration = configurations[0]
        for other in configurations {
            precondition(other.highPassCutoff == configuration.highPassCutoff && other.hopDuration == configuration.hopDuration
                         && other.windowDuration == configuration.windowDuration
                         && other.noiseWindowDuration == configuration.noiseWindowDuration
                         && other.noiseQuantile == configuration.noiseQuantile, "trackers must share the power envelope")
        }
        self.sampleRate = sampleRate
        self.configuration = configuration
        hop = max(1, Int((configuration.hopDuration * sampleRate).rounded()))
        hopCountdown = hop
        windowHops = max(1, Int((configuration.windowDuration / configuration.hopDuration).rounded()))
        lookaheadHops = max(1, Int((configuration.noiseWindowDuration / 2 * sampleRate / Double(hop)).rounded()))
        let hop = self.hop
        trackers = configurations.enumerated().map { index, c in
            Tracker(configuration: c, confirmHops: max(1, Int((c.peakConfirmDuration * sampleRate / Double(hop)).rounded())),
                    searchSamples: Int((c.startSearchDuration * sampleRate).rounded()),
                    refractorySamples: Int((c.refractoryPeriod * sampleRate).rounded()), role: index == 0 ? .taps : .clickProbe)
        }
        let confirmHops = trackers.map(\.confirmHops).max()!
        let searchSamples = trackers.map(\.searchSamples).max()!
        filter = input == .raw ? HighPassFilter(cutoff: configuration.highPassCutoff, sampleRate: sampleRate) : nil
        // History must reach back past the lookahead, a long event and the start search.
        let historyNeeded = (lookaheadHops + 4 * confirmHops + windowHops) * hop + searchSamples + 4 * Int(sampleRate * 0.05)
        let historySize = 1 << Int(ceil(log2(Double(max(historyNeeded, 1024)))))
        historyLength = historySize
        history = [Float](repeating: 0, count: 2 * historySize)
        historyMask = 2 * historySize - 1
        hopEnergies = [Double](repeating: 0, count: windowHops)
        let powerSize = 1 << Int(ceil(log2(Double(2 * lookaheadHops + 4 * confirmHops + 16))))
        powerDB = [Double](repeating: -300, count: powerSize)
        maskDB = [Double](repeating: -300, count: powerSize)
        slowestMaskFallPerHop = configuration.slowestMaskReleaseDBPerSecond * Double(hop) / sampleRate
        decayReadHops = max(1, Int((0.020 * sampleRate / Double(hop)).rounded()))...max(2, Int((0.040 * sampleRate / Double(hop)).rounded()))
        powerMask = powerSize - 1
        floor = SlidingQuantile(quantile: configuration.noiseQuantile)
        changeDB = [Double](repeating: 0, count: powerSize)
        fluctuation = SlidingQuantile(quantile: 0.5, lowest: 0, highest: 120)
        clickStartTolerance = Int((clickResidueWindow * sampleRate).rounded())
        heardClickSeparation = Int((Self.heardClickSeparationDuration * sampleRate).rounded())
    }

    /// Notes where clicks subtracted from the input before it was fed start (frames, in time
    /// order), so that a tap sounding on a click's residue starts where the tap does.
    mutating func noteSubtractedClicks(_ clicks: [Int]) {
        guard !clicks.isEmpty else { return }
        let oldestKept = samplesSeen - historyLength
        if let firstKept = subtractedClicks.firstIndex(where: { $0 > oldestKept }) {
            subtractedClicks.removeFirst(firstKept)
        } else {
            subtractedClicks.removeAll(keepingCapacity: true)
        }
        subtractedClicks += clicks
    }

    /// How long before a subtracted click's start its sound may already be in the input,
    /// frames: 0 where the clicks were timed where the recording first rose (the click grid),
    /// or where the recording keeps the clicks' shape; a lossy codec's pre-echo where they
    /// were timed on a clean prediction of the bleed (a stimulus file) that the codec never
    /// touched, in a recording that leaves residues of them (`StimulusBleedRemoval`).
    var subtractedClickLead = 0

    /// The first start of a click heard in the first pass or subtracted in this one within
    /// `frames`, if any (both lists ascend: a binary search in each); a subtracted click
    /// starts ``subtractedClickLead`` early.
    private func firstClickStart(in frames: Range<Int>) -> Int? {
        [(heardClicks, 0), (subtractedClicks, subtractedClickLead)].compactMap { clicks, lead in
            let next = clicks.firstIndex(notBelow: frames.lowerBound + lead)
            return next < clicks.count && frames.contains(clicks[next] - lead) ? clicks[next] - lead : nil
        }.min()
    }

    private func isAtSubtractedClick(_ frame: Int) -> Bool {
        subtractedClicks.contains(frame, within: clickStartTolerance)
    }

    /// Where the clicks heard in the first pass (the click grid's members) start, frames,
    /// ascending, and their usual peak power (dBFS): a tap that sounds a few milliseconds
    /// after a click left in place (the tap spoiled the click's fit, and it was not between
    /// clicks heard) starts where it rises over that click, not where the click does.
    private var heardClicks: [Int] = []
    private var heardClickLevel = -Double.infinity

    /// Notes the heard clicks' start frames (any order) and their median peak power, dBFS.
    mutating func noteHeardClicks(_ clicks: [Int], level: Double) {
        heardClicks = clicks.sorted()
        heardClickLevel = level
    }

    /// How a tap whose first change point lies at `frame` steps over a click starting there:
    /// the rise the tap needs over what precedes it, the shortest stretch stepped over, frames,
    /// and how loud that stretch may peak (nil: any). Tried in order until one steps; empty
    /// when no click starts there.
    ///
    /// - A subtracted click leaves a residue 15–20 dB under a tap on it: 10 dB suffices
    ///   (``StartPicker/residueJumpDB``), past the residue window (one within it is timed at
    ///   the click, as close as the picker can tell them).
    /// - A heard click left in place sounds in full: the retrigger rise suffices, at least
    ///   ``heardClickSeparationDuration`` on, and what is stepped over must peak no more than
    ///   ``heardClickMarginDB`` over the clicks' usual power (louder, it is the tap's own
    ///   contact burst on the click). A subtracted click that was heard is tried this way too
    ///   when the residue's rule finds no step: a subtraction that took little of it (a
    ///   template off by a fraction of a sample at 8 kHz) leaves it as loud as a click left in
    ///   place, and one that took part of it leaves a residue a tap may rise only 6–10 dB over.
    ///   (A quiet tap whose first change point falls inside the click's window can then be
    ///   stepped to its own later burst: Docs/algorithms.md, "A subtraction that took little
    ///   of a click".)
    private func clickSteps(at frame: Int, configuration: OnsetDetectorConfiguration)
        -> [(jumpDB: Double, minimumGap: Int, loudestSkippedDB: Double?)] {
        var steps: [(jumpDB: Double, minimumGap: Int, loudestSkippedDB: Double?)] = []
        if isAtSubtractedClick(frame) { steps.append((StartPicker.residueJumpDB, clickStartTolerance + 1, nil)) }
        if heardClicks.contains(frame, within: clickStartTolerance) {
            steps.append((configuration.retriggerRiseDB, heardClickSeparation, heardClickLevel + Self.heardClickMarginDB))
        }
        return steps
    }

    /// How many samples past `frame` a tap begins past a suppressor's spread
    /// (`StartPicker.pastSpread`), read on the filtered history from `frame` on; 0 where it
    /// begins at `frame`. The history holds half a second past any start while the stream
    /// runs; at its end the span is what is left.
    private func spreadMove(from frame: Int) -> Int {
        let sizes = StartPicker.spreadFrames(sampleRate: sampleRate)
        let last = min(frame + sizes.span, samplesSeen)
        guard last - frame > 2 * sizes.window else { return 0 }
        let stretch = (frame..<last).map { history[$0 & historyMask] }
        return stretch.withUnsafeBufferPointer { StartPicker.pastSpread($0, window: sizes.window, minimumMove: sizes.minimumMove) } ?? 0
    }

    /// The highest short-time power (dB, as ``Onset/strength`` is measured) among the
    /// windows that end inside `frames`, from the power ring; nil when none does or the ring
    /// no longer holds them.
    private func peakPowerDB(endingIn frames: Range<Int>) -> Double? {
        let hops = (frames.lowerBound / hop)..<(frames.upperBound / hop)
        guard !hops.isEmpty, hops.lowerBound > hopsSeen - powerDB.count, hops.upperBound <= hopsSeen else { return nil }
        return hops.map { powerDB[$0 & powerMask] }.max()
    }

    /// How much louder than the heard clicks' usual peak power what a tap's start steps over
    /// may be, dB: more, and it is the tap's own contact burst on the click, not the click.
    static let heardClickMarginDB = 3.0
    /// How long a click left in place sounds alone, at least, before a tap on it is told
    /// apart, seconds: a sharper rise sooner is the click's own build-up or the tap's.
    static let heardClickSeparationDuration: Seconds = 0.002

    /// Feeds the next block of mono samples; appends every onset that became certain.
    public mutating func process(_ block: UnsafeBufferPointer<Float>, into onsets: inout [Onset]) {
        var perTracker = [onsets]
        onsets = []   // so perTracker[0] owns its buffer and appends do not copy it
        process(block, into: &perTracker)
        onsets = perTracker[0]
    }

    /// Feeds the next block; appends each tracker's certain onsets to its own list.
    mutating func process(_ block: UnsafeBufferPointer<Float>, into onsets: inout [[Onset]]) {
        var index = 0
        while index < block.count {
            // Already filtered input, four whole hops at once: their energies are summed side
            // by side (each in the same order as on its own, so to the same bits), four
            // independent chains of additions where one hop alone waits on each addition.
            // Their four levels are taken next, one after the other, so that the four
            // logarithms overlap in the processor instead of each waiting for a hop's work.
            // Their samples are stored at once, ahead of the hops still to be finished.
            if filter == nil && hopCountdown == hop && block.count - index >= 4 * hop {
                let energies = Self.energiesOfFourHops(block.baseAddress! + index, hop: hop)
                var levels = SIMD4<Double>()
                for lane in 0..<4 { levels[lane] = windowLevel(adding: energies[lane]) }
                storeAhead(UnsafeBufferPointer(rebasing: block[index..<(index + 4 * hop)]))
                for lane in 0..<4 {
                    samplesSeen += hop
                    index += hop
                    finishHop(level: levels[lane], into: &onsets)
                }
                continue
            }
            // Up to the end of the current hop in a tight loop, then the per-hop work.
            let chunk = min(hopCountdown, block.count - index)
            var energy = 0.0
            var seen = samplesSeen
            let mask = historyMask
            var stage = filter
            history.withUnsafeMutableBufferPointer { history in
                for offset in index..<(index + chunk) {
                    let value = stage?.process(block[offset]) ?? block[offset]
                    history[seen & mask] = value
                    seen += 1
                    energy += Double(value) * Double(value)
                }
            }
            filter = stage
            samplesSeen = seen
            hopEnergy += energy
            hopCountdown -= chunk
            index += chunk
            if hopCountdown == 0 {
                hopCountdown = hop
                finishHop(into: &onsets)
            }
        }
    }

    /// The energy (sum of squares, from the first sample on) of each of the four hops that
    /// follow `samples`.
    private static func energiesOfFourHops(_ samples: UnsafePointer<Float>, hop: Int) -> SIMD4<Double> {
        var energies = SIMD4<Double>()
        for offset in 0..<hop {
            let values = SIMD4<Double>(Double(samples[offset]), Double(samples[offset + hop]),
                                       Double(samples[offset + 2 * hop]), Double(samples[offset + 3 * hop]))
            energies += values * values
        }
        return energies
    }

    /// Stores the samples that follow the last one seen in the history (as one or, where the
    /// ring wraps, two copies), without counting them as seen.
    private mutating func storeAhead(_ samples: UnsafeBufferPointer<Float>) {
        let start = samplesSeen & historyMask
        let first = min(samples.count, history.count - start)
        history.withUnsafeMutableBufferPointer { history in
            let base = history.baseAddress!, source = samples.baseAddress!
            (base + start).update(from: source, count: first)
            base.update(from: source + first, count: samples.count - first)
        }
    }

    /// Convenience for arrays.
    public mutating func process(_ block: [Float], into onsets: inout [Onset]) {
        block.withUnsafeBufferPointer { process($0, into: &onsets) }
    }

    /// Ends the stream: decides the remaining hops and appends their onsets.
    public mutating func finish(into onsets: inout [Onset]) {
        var perTracker = [onsets]
        onsets = []
        finish(into: &perTracker)
        onsets = perTracker[0]
    }

    /// Ends the stream for every tracker.
    mutating func finish(into onsets: inout [[Onset]]) {
        // Remaining hops have a one-sided noise window: shrink it by removing old values.
        let lastHop = hopsSeen - 1
        var decided = hopsSeen - lookaheadHops
        while decided <= lastHop {
            if decided >= 0 {
                let oldest = decided - lookaheadHops - 1
                if oldest >= 0 {
                    floor.remove(powerDB[oldest & powerMask])
                    fluctuation.remove(changeDB[oldest & powerMask])
                }
                decide(hop: decided, into: &onsets)
            }
            decided += 1
        }
        for index in trackers.indices {
            var tracker = trackers[index]
            if case .rising(let searchStart, let peakHop, let peakDB, let peakSNR) = tracker.state {
                emit(&tracker, searchStart: searchStart, peakHop: peakHop, peakDB: peakDB, peakSNR: peakSNR, floorDB: peakDB - peakSNR,
                     into: &onsets[index])
            }
            tracker.state = .idle
            trackers[index] = tracker
        }
    }

    private mutating func finishHop(into onsets: inout [[Onset]]) {
        let level = windowLevel(adding: hopEnergy)
        hopEnergy = 0
        finishHop(level: level, into: &onsets)
    }

    /// The power (dB) of the window that the next hop, of energy `energy`, completes.
    private mutating func windowLevel(adding energy: Double) -> Double {
        // A counter rather than `hopsSeen % windowHops`: a division every hop costs more than
        // the rest of the ring's bookkeeping.
        let slot = hopEnergySlot
        hopEnergySlot = slot + 1 == windowHops ? 0 : slot + 1
        windowEnergy += energy - hopEnergies[slot]
        hopEnergies[slot] = energy
        let meanSquare = max(windowEnergy, 0) / Double(windowHops * hop)
        return 10 * log10(meanSquare + 1e-30)
    }

    /// The per-hop work on the next hop's window power: noise floor, fluctuation, and the
    /// decision on the hop whose centred window is now complete.
    private mutating func finishHop(level: Double, into onsets: inout [[Onset]]) {
        powerDB[hopsSeen & powerMask] = level
        floor.insert(level)
        let change = hopsSeen >= windowHops ? abs(level - powerDB[(hopsSeen - windowHops) & powerMask]) : 0
        changeDB[hopsSeen & powerMask] = change
        fluctuation.insert(change)
        // Keep the floor window centred on the hop being decided: [k − L, k + L].
        let newest = hopsSeen
        let decided = newest - lookaheadHops
        let expired = newest - 2 * lookaheadHops - 1
        if expired >= 0 {
            floor.remove(powerDB[expired & powerMask])
            fluctuation.remove(changeDB[expired & powerMask])
        }
        hopsSeen += 1
        if decided >= 0 { decide(hop: decided, into: &onsets) }
    }

    /// Runs every tracker's event state machine for one hop whose centred noise window is
    /// complete.
    private mutating func decide(hop k: Int, into onsets: inout [[Onset]]) {
        let level = powerDB[k & powerMask]
        let median = floor.value()
        let spread = fluctuation.value() ?? 0
        updateMask(hop: k, level: level, floorDB: max(median ?? configuration.absoluteFloorDB, configuration.absoluteFloorDB))
        // The trackers are moved out of the detector while they run, so that each is updated
        // in place instead of copied out and back every hop (its state machine reads the
        // detector, which holds them).
        var trackers: [Tracker] = []
        swap(&trackers, &self.trackers)
        for index in trackers.indices {
            decide(&trackers[index], hop: k, level: level, median: median, spread: spread, into: &onsets[index])
        }
        swap(&trackers, &self.trackers)
    }

    private mutating func decide(_ tracker: inout Tracker, hop k: Int, level: Double, median: Double?, spread: Double,
                                 into onsets: inout [Onset]) {
        let configuration = tracker.configuration
        let floorDB = max(median ?? configuration.absoluteFloorDB, configuration.absoluteFloorDB)
        let snr = level - floorDB
        // Where the floor itself fluctuates (a gated or processed background), the threshold
        // rises with the fluctuation, so the background's own excursions do not start events.
        let threshold = max(configuration.thresholdDB, configuration.floorSpreadFactor * spread)
        switch tracker.state {
        case .idle:
            // A quiet tap can dip under the release level and come back within milliseconds:
            // still the same tap, so no new event inside the refractory period.
            if snr >= threshold && (isPastRefractory(tracker, hop: k, eventStart: nil)
                                                    || level >= tracker.lastOnsetPeakDB + Self.replacingRiseDB) {
                // The window of hop k reaches back `windowHops` hops; search before that.
                let windowStart = (k + 1 - windowHops) * hop
                tracker.state = .rising(searchStart: windowStart - tracker.searchSamples, peakHop: k, peakDB: level, peakSNR: snr)
            }
        case .rising(let searchStart, let peakHop, let peakDB, let peakSNR):
            if k - peakHop >= windowHops && level > peakDB && isFastRise(at: k, rise: configuration.retriggerRiseDB)
                && isPastRefractory(tracker, hop: k, eventStart: searchStart) && snr >= threshold {
                // A second transient on an event that had already peaked (a tap right after
                // a click): the first keeps its own onset, the second starts a new event.
                emit(&tracker, searchStart: searchStart, peakHop: peakHop, peakDB: peakDB, peakSNR: peakSNR, floorDB: peakDB - peakSNR, into: &onsets)
                tracker.state = .rising(searchStart: (k + 1 - 2 * windowHops) * hop, peakHop: k, peakDB: level, peakSNR: snr)
            } else if level > peakDB {
                tracker.state = .rising(searchStart: searchStart, peakHop: k, peakDB: level, peakSNR: snr)
            } else if k - peakHop >= tracker.confirmHops || snr < configuration.releaseDB {
                emit(&tracker, searchStart: searchStart, peakHop: peakHop, peakDB: peakDB, peakSNR: peakSNR, floorDB: peakDB - peakSNR, into: &onsets)
                tracker.state = snr < configuration.releaseDB ? .idle : .decaying(minimumHop: k, minimumDB: level, peakDB: peakDB)
            }
        case .decaying(let minimumHop, let minimumDB, let previousPeakDB):
            if snr < configuration.releaseDB {
                tracker.state = .idle
            } else if level < minimumDB {
                tracker.state = .decaying(minimumHop: k, minimumDB: level, peakDB: previousPeakDB)
            } else if level - minimumDB >= configuration.retriggerRiseDB && isFastRise(at: k, rise: configuration.retriggerRiseDB)
                        && isPastRefractory(tracker, hop: k, eventStart: nil)
                        && (level > previousPeakDB - configuration.retriggerRiseDB || risesOverMask(at: k, level: level))
                        && snr >= threshold {
                // A new sound on the tail of the previous one: search from the trough's window.
                let troughWindowStart = (minimumHop + 1 - windowHops) * hop
                tracker.state = .rising(searchStart: troughWindowStart, peakHop: k, peakDB: level, peakSNR: snr)
            }
        }
    }

    /// Whether `level` at hop `k` stands ``maskFollowDB`` over the mask as it was a window
    /// earlier, before the rise: a new sound on a long tail, not the tail's own beating, even
    /// when it peaks far under the sound that left the tail (a tap 270 ms into a cough).
    private func risesOverMask(at k: Int, level: Double) -> Bool {
        let before = k - windowHops
        guard before >= 0, before > hopsSeen - powerDB.count else { return false }
        return level >= maskDB[before & powerMask] + Self.maskFollowDB
    }

    /// How far under the mask a sound's power may be and still count as the masking sound's
    /// own decay, dB.
    static let maskFollowDB = 3.0

    /// How much louder than the last onset a sound inside its refractory period must peak to
    /// replace it, dB.
    static let replacingRiseDB = 10.0

    /// How soon after a sound's start the next click must start to have the sound's decay read
    /// again before it (see `measure`), at most, seconds; at least, it leaves two halves of
    /// ``decayBeforeClickLeastHalf`` before ``decayBeforeClickGuard`` (8 ms). Chosen on the
    /// robustness corpus's dev splits (Docs/robustness.md, "A tap just before a loud click"):
    /// to 15 ms kept fewer taps, to 50 ms let more false onsets through.
    static let decayBeforeClickReach: Seconds = 0.040
    /// How much before a click's start is left out of that reading, seconds: AAC's pre-echo of
    /// a loudspeaker's click rises milliseconds ahead of it.
    static let decayBeforeClickGuard: Seconds = 0.004
    /// The shortest half of that reading, seconds.
    static let decayBeforeClickLeastHalf: Seconds = 0.002

    /// The mask at decided hop `k`: the power of the last sound above the threshold that rose
    /// over the mask, falling at that sound's own rate of decay — the drop from its peak to its
    /// loudest point 20–40 ms later, read ahead in the power ring — but never slower than
    /// ``OnsetDetectorConfiguration/slowestMaskReleaseDBPerSecond``. A tap's ringing, whose
    /// beating re-rises under that line, stays masked; a new sound rises above it.
    private mutating func updateMask(hop k: Int, level: Double, floorDB: Double) {
        var mask = maskSource.map { $0.level - $0.fallPerHop * Double(k - $0.hop) } ?? -300
        // A sound over the mask restarts it; one just under it is the masking sound's own decay
        // going on (a reverberant tail decays slower than the direct sound did), so the mask
        // follows it from there at the rate it decays from there.
        if level > mask - Self.maskFollowDB && level >= floorDB + configuration.thresholdDB {
            let newest = hopsSeen - 1
            var later = -Double.infinity, laterHop = k
            for h in (k + decayReadHops.lowerBound)...(k + decayReadHops.upperBound) where h <= newest {
                if powerDB[h & powerMask] > later { later = powerDB[h & powerMask]; laterHop = h }
            }
            let fall = laterHop > k ? (level - later) / Double(laterHop - k) : slowestMaskFallPerHop
            let restarted = (hop: k, level: level, fallPerHop: max(fall, slowestMaskFallPerHop))
            if level >= mask || restarted.fallPerHop < (maskSource?.fallPerHop ?? 0) {
                maskSource = (k, max(level, mask), restarted.fallPerHop)
                mask = max(level, mask)
            }
        }
        maskDB[k & powerMask] = mask
    }

    /// Whether a new onset at hop `k` is far enough from the last onset (and from the start of
    /// the current event): a tap's contact click and the build-up of its resonances must not
    /// count as two taps.
    private func isPastRefractory(_ tracker: Tracker, hop k: Int, eventStart: Int?) -> Bool {
        let windowStart = (k + 1 - windowHops) * hop
        let reference = max(tracker.lastOnsetFrame, (eventStart ?? Int.min) &+ tracker.searchSamples)
        return windowStart - reference >= tracker.refractorySamples
    }

    /// Whether the power at hop `k` rose by `retriggerRiseDB` within one window length: a new
    /// transient, not the slow beating of a decaying resonance.
    private func isFastRise(at k: Int, rise: Double) -> Bool {
        guard k >= windowHops else { return false }
        return powerDB[k & powerMask] - powerDB[(k - windowHops) & powerMask] >= rise
    }

    private func emit(_ tracker: inout Tracker, searchStart: Int, peakHop: Int, peakDB: Double, peakSNR: Double,
                      floorDB: Double, into onsets: inout [Onset]) {
        let end = min((peakHop + 1) * hop, samplesSeen)
        if Double(end) < tracker.configuration.settleDuration * sampleRate { return }
        let oldestKept = samplesSeen - historyLength
        let start = max(searchStart, tracker.earliestStart, oldestKept, 0)
        guard end > start else { return }
        var stretch = [Float](repeating: 0, count: end - start)
        for index in start..<end { stretch[index - start] = history[index & historyMask] }
        tracker.earliestStart = end
        let peakTime = (Double(end) - Double(windowHops * hop) / 2) / sampleRate
        // Taps step over a codec's pre-echo; the click probe keeps the first change point, where
        // the grid of clicks, which the bleed template is aligned on, was measured.
        let points = tracker.role == .taps ? stretch.withUnsafeBufferPointer(StartPicker.changePoints) : nil
        var picked = points.map { StartPicker.skippingPrecursor($0) }
            ?? (start: stretch.withUnsafeBufferPointer { StartPicker.pick($0) }, precursor: nil)
        // A start where a metronome click started is where the click starts, or what its
        // subtraction left: a tap sounding on it later is stepped to at a smaller jump (see
        // `clickSteps(at:configuration:)`).
        let knownClickSteps = tracker.role == .taps ? clickSteps(at: start + picked.start, configuration: tracker.configuration) : []
        if tracker.role == .taps, picked.precursor == nil {
            for step in knownClickSteps {
                let stepped = stretch.withUnsafeBufferPointer { StartPicker.pickSkippingPrecursor($0, jumpDB: step.jumpDB) }
                guard let skipped = stepped.precursor, stepped.start - skipped >= step.minimumGap else { continue }
                // What is stepped over may peak no louder than the limit, when there is one (a
                // peak the ring no longer holds counts as over it).
                let underLimit = step.loudestSkippedDB.map { limit in
                    (peakPowerDB(endingIn: (start + skipped)..<(start + stepped.start)) ?? .infinity) <= limit
                } ?? true
                // What was stepped over is the click, another sound, not a lead-in of this
                // one: the onset is compared with the clicks where it starts.
                if underLimit { picked = (stepped.start, nil); break }
            }
        }
        // A tap a few milliseconds after a click nobody heard as one rises out of the click's
        // steady tone: it starts where it rises (`StartPicker.pastSteadyLead`). Only where no
        // click is known at the start: where one is, the steps above decide, and one they
        // refused (what it would skip is louder than the clicks: the tap's own contact burst)
        // stays refused. A precursor stepped over first (a codec's pre-echo ahead of the
        // click) is kept, as the first rise of what sounds there.
        if tracker.role == .taps, knownClickSteps.isEmpty {
            let sizes = StartPicker.steadyLeadFrames(sampleRate: sampleRate)
            let move = stretch.withUnsafeBufferPointer { stretch in
                let fromStart = UnsafeBufferPointer(rebasing: stretch[picked.start...])
                // Where nothing was stepped over, the picker has found this rise already.
                let rise = picked.start == points?.first ? points?.second : StartPicker.riseAtChangePoint(fromStart)
                return StartPicker.pastSteadyLead(fromStart, rise: rise, window: sizes.window, shortest: sizes.shortest,
                                                  longest: tracker.refractorySamples)
            }
            if let move { picked = (picked.start + move, picked.precursor) }
        }
        let pickedFrame = start + picked.start
        // A start picked inside the previous onset's refractory period is that tap again (a
        // quiet tap's power can dip under the release level and come back)...
        if pickedFrame - tracker.lastOnsetFrame < tracker.refractorySamples {
            // ...unless this sound is far louder: then the previous onset was its precursor.
            guard peakDB >= tracker.lastOnsetPeakDB + Self.replacingRiseDB, onsets.last?.frame == tracker.lastReportedFrame else { return }
            onsets.removeLast()
        }
        tracker.lastOnsetFrame = pickedFrame
        tracker.lastOnsetPeakDB = peakDB
        // A tap far over a suppressed background starts past the suppressor's spread.
        let frame = pickedFrame
            + (tracker.role == .taps && peakSNR >= StartPicker.spreadMinimumSNRDB ? spreadMove(from: pickedFrame) : 0)
        tracker.lastReportedFrame = frame
        let features = tracker.role == .taps
            ? measure(onsetFrame: frame, peakTime: peakTime, peakDB: peakDB, floorDB: floorDB, threshold: tracker.configuration.thresholdDB)
            : nil
        var onset = Onset(time: Double(frame) / sampleRate, frame: frame, peakTime: peakTime,
                          strength: peakDB, snrDB: peakSNR, features: features)
        // A start moved past a suppressor's spread keeps where the spread began, as a start
        // stepped over a precursor does: the stimulus onsets (the click probe's, which keeps
        // first change points) are matched on it.
        onset.precursorTime = picked.precursor.map { Double(start + $0) / sampleRate }
            ?? (frame != pickedFrame ? Double(pickedFrame) / sampleRate : nil)
        onsets.append(onset)
    }

    /// The features of the sound starting at `onsetFrame` (``OnsetFeatures``), from the
    /// filtered history, which reaches past the onset by the floor's lookahead.
    private func measure(onsetFrame frame: Int, peakTime: Seconds, peakDB: Double, floorDB: Double,
                         threshold: Double) -> OnsetFeatures {
        let oldestKept = samplesSeen - historyLength
        func meanPowerDB(from start: Int, count: Int) -> Double? {
            let first = max(start, oldestKept), end = min(start + count, samplesSeen)
            guard end > first else { return nil }
            var sum = 0.0
            for index in first..<end { sum += Double(history[index & historyMask]) * Double(history[index & historyMask]) }
            return 10 * log10(sum / Double(end - first) + 1e-30)
        }
        let tenMilliseconds = max(1, Int((0.010 * sampleRate).rounded()))
        let head = meanPowerDB(from: frame, count: tenMilliseconds) ?? peakDB
        // A click of the stimulus starting in the tail is not the sound's own decay: the tail is
        // read up to it (a tap tens of milliseconds before a loud beep, as taps come before the
        // beat), when half of the first 10 ms of it remain.
        let tailStart = frame + tenMilliseconds
        var tailLength = 4 * tenMilliseconds
        let nextClick = firstClickStart(in: (frame + 1)..<(tailStart + tailLength))
        if let click = nextClick, click >= tailStart + tenMilliseconds / 2 {
            tailLength = click - tailStart
        }
        // A click that follows closer than 15 ms spoils the tail, and one that follows within
        // the reach may still leave its lead-in in it (a codec's pre-echo, up to a few
        // milliseconds: `Scripts/codec-smear`): the decay is read again on the stretch before
        // the click's guard, first half against second, and the sound decays by the steeper of
        // the two readings. Which of them the click spoiled is not known: where it was
        // subtracted whole, the usual tail holds the sound's own decay, longer and deeper.
        var beforeClick: (head: Double, tail: Double)?
        let frames = { (seconds: Seconds) in Int((seconds * sampleRate).rounded()) }
        let clickGuard = frames(Self.decayBeforeClickGuard), leastHalf = frames(Self.decayBeforeClickLeastHalf)
        // One nearer than two halves and the guard leaves too little of the sound to read.
        if let click = nextClick, click - frame <= frames(Self.decayBeforeClickReach),
           click - frame >= clickGuard + 2 * leastHalf {
            let half = (click - clickGuard - frame) / 2
            if let first = meanPowerDB(from: frame, count: half), let second = meanPowerDB(from: frame + half, count: half) {
                beforeClick = (first, second)
            }
        }
        let tail = meanPowerDB(from: tailStart, count: tailLength) ?? head
        // The mask just before the onset's own sound: the hop whose window ends at its start.
        let maskHop = frame / hop - 1
        var mask = floorDB + threshold
        var onEarlierSound = false
        if maskHop >= 0, maskHop > hopsSeen - powerDB.count + lookaheadHops, maskDB[maskHop & powerMask] > mask {
            mask = maskDB[maskHop & powerMask]
            onEarlierSound = true
        }
        // The decay of the sound itself: the floor's power taken out of both stretches, so a
        // quiet tap, whose tail soon sinks into the noise, is not taken for a sustained sound.
        func soundPowerDB(_ level: Double) -> Double {
            10 * log10(max(pow(10, level / 10) - pow(10, floorDB / 10), 1e-30))
        }
        // A decay deeper than the sound stands over the floor cannot be measured: a quiet tap's
        // tail sinks into the noise within 10 ms however long it rings.
        func decayDB(from first: Double, to second: Double) -> Double {
            max(-60, floorDB - first, soundPowerDB(second) - soundPowerDB(first))
        }
        var decay = decayDB(from: head, to: tail)
        if let beforeClick { decay = min(decay, decayDB(from: beforeClick.head, to: beforeClick.tail)) }
        let spectrum = spectralShape(from: frame)
        return OnsetFeatures(sustainedSNR: head - floorDB, attackDuration: max(0, peakTime - Double(frame) / sampleRate),
                             aboveMaskDB: peakDB - mask, decayDB: decay,
                             spectralCentroid: spectrum?.centroid, spectralFlatness: spectrum?.flatness,
                             soundCentroid: spectrum?.soundCentroid, bandProfile: spectrum?.bandProfile,
                             onEarlierSound: onEarlierSound)
    }

    /// How much of the spectrum before a sound is taken out of the sound's: twice that
    /// spectrum averaged over nine bins. One 10 ms window's bins scatter as much as they
    /// average, so subtracting it as it is leaves half of the noise's power in; smoothed and
    /// doubled, about a sixth (the over-subtraction of spectral subtraction; Berouti, Schwartz
    /// & Makhoul 1979).
    static func noiseEstimate(_ spectrum: [Double]) -> [Double] {
        let reach = 4
        var sums = [0.0]
        for power in spectrum { sums.append(sums.last! + power) }
        return spectrum.indices.map { bin in
            let low = max(0, bin - reach), high = min(spectrum.count, bin + reach + 1)
            return 2 * (sums[high] - sums[low]) / Double(high - low)
        }
    }

    /// Centroid (Hz) and flatness of the power spectrum of the first 10 ms from `frame` (the
    /// next power of two in samples, Hann window), over the bins from the high-pass cut-off
    /// to Nyquist, and the centroid of the power the sound adds over the 10 ms before it
    /// (``noiseEstimate`` taken out; nil when the history does not reach back that far) with
    /// its spread over octave bands (``OnsetFeatures/bandProfile``). Nil when the history does
    /// not hold the stretch or it is silent.
    private func spectralShape(from frame: Int)
        -> (centroid: Double, flatness: Double, soundCentroid: Double?, bandProfile: [Double]?)? {
        let length = 1 << Int(ceil(log2(max(16, 0.010 * sampleRate))))
        guard frame >= samplesSeen - historyLength, frame + length <= samplesSeen else { return nil }
        // The detector is a value and holds no FFTW state; each thread keeps its own plan.
        let fft = RealFFT.perThread(count: length)
        let binWidth = sampleRate / Double(length)
        let firstBin = max(1, Int((configuration.highPassCutoff / binWidth).rounded(.up)))
        func powerSpectrum(from start: Int) -> [Double] {
            let window = fft.hannWindow
            for index in 0..<length { fft.signal[index] = window[index] * history[(start + index) & historyMask] }
            fft.forward()
            return (firstBin...(length / 2)).map { bin in
                let re = Double(fft.spectrum[2 * bin]), im = Double(fft.spectrum[2 * bin + 1])
                return re * re + im * im + 1e-30
            }
        }
        let sound = powerSpectrum(from: frame)
        let before = frame - length >= samplesSeen - historyLength ? Self.noiseEstimate(powerSpectrum(from: frame - length)) : nil
        var total = 0.0, weighted = 0.0, logSum = 0.0, added = 0.0, addedWeighted = 0.0
        let octaves = max(1, Int(ceil(log2(sampleRate / 2 / configuration.highPassCutoff))))
        var addedByOctave = [Double](repeating: 0, count: octaves)
        for (offset, power) in sound.enumerated() {
            let frequency = Double(firstBin + offset) * binWidth
            total += power
            weighted += power * frequency
            logSum += log(power)
            if let before {
                let excess = max(0, power - before[offset])
                added += excess
                addedWeighted += excess * frequency
                // Overlapping triangles an octave wide on each side, so a resonance that moves
                // by a fraction of an octave from tap to tap moves its power gradually between
                // bands rather than all at once across an edge.
                // The bins start at the cut-off and end at Nyquist, so `lower` runs from −1 (under
                // the first band's centre) to the last band.
                let position = log2(frequency / configuration.highPassCutoff) - 0.5
                let lower = Int(position.rounded(.down)), weight = position - Double(lower)
                if lower >= 0 { addedByOctave[lower] += excess * (1 - weight) }
                if lower + 1 < octaves { addedByOctave[lower + 1] += excess * weight }
            }
        }
        let bins = Double(sound.count)
        guard total > 1e-25 * bins else { return nil }
        // A sound that adds almost nothing over what came before has no spectrum of its own.
        let ownSpectrum = before != nil && added > 0.01 * total
        let soundCentroid = ownSpectrum ? addedWeighted / added : nil
        let banded = addedByOctave.reduce(0, +)
        let bandProfile = ownSpectrum && banded > 0 ? addedByOctave.map { 10 * log10(max($0 / banded, 1e-3)) } : nil
        return (weighted / total, exp(logSum / bins) / (total / bins), soundCentroid, bandProfile)
    }
}
