import Foundation
import TapTestSupport
import TapMatching

/// How a simulated tapping session is generated.
///
/// A participant taps to a metronome, typically ahead of the beat. Each tap makes a sound
/// (an acoustic onset at the tap time) and a touch the device logs late by the latency,
/// with jitter, and quantized up to the next audio-buffer boundary. The microphone also
/// picks up metronome clicks leaking from the headphones (bleed) and random noises.
struct SessionSpec {
    var tapCount = 600
    /// Mean inter-beat interval (s).
    var interval = 0.5
    /// Latency of the touch clock (s) at time zero.
    var latency = 0.015
    /// SD of the touch jitter (s).
    var jitterSD = 0.005
    /// Audio-buffer length range (s); one length per session, nil for no quantization.
    var bufferRange: ClosedRange<Double>? = 0.003 ... 0.012
    /// Tap-to-beat asynchrony mean and SD (s): bleed sits at tap + N(mean, SD).
    var bleedDelayMean = 0.030
    var bleedDelaySD = 0.020
    /// Share of beats whose click leaks into the microphone.
    var bleedProbability = 1.0
    /// Distractor onsets (knocks, coughs) as a share of all other onsets.
    var distractorFraction = 0.10
    /// Share of taps whose touch the device misses (onset without touch).
    var missedTouchFraction = 0.03
    /// Touches at random times without any sound, as a share of taps.
    var spuriousTouchFraction = 0.02
    /// Share of taps whose own sound the detector misses (touch without onset; the
    /// beat's bleed, if any, remains).
    var silentTapFraction = 0.0
    /// Skew of the touch clock (ppm): latency grows by ppm × 1e-6 per second.
    var driftPPM = 0.0
    /// Onset-detector timing noise (s).
    var onsetNoiseSD = 0.0003
    /// Onsets closer than this (s) are one onset to the detector. A tap's sound is the
    /// louder event and keeps its time; of two other events the earlier is kept.
    /// Zero resolves every event, however close.
    var detectorResolution = 0.0
}

/// A generated session with its ground truth.
struct SyntheticSession {
    var touches: [Double]
    var onsets: [Double]
    /// For each touch index, the index of the onset of the same tap, if it exists.
    var truth: [Int: Int]
    /// The audio-buffer length used (s), 0 when none.
    var buffer: Double

    /// Expected reported latency at time zero: quantizing up adds half a buffer on average.
    func expectedLatency(_ spec: SessionSpec) -> Double { spec.latency + buffer / 2 }

    init(_ spec: SessionSpec, seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let buffer = spec.bufferRange.map { rng.uniform($0) } ?? 0
        // Events carry the tap id they belong to (−1 for none), sorted later.
        var touchEvents: [(time: Double, tap: Int)] = []
        var onsetEvents: [(time: Double, tap: Int)] = []
        var beat = 1.0
        for tap in 0..<spec.tapCount {
            beat += spec.interval * (1 + 0.02 * rng.gaussian())
            let bleedDelay = rng.gaussian(mean: spec.bleedDelayMean, sd: spec.bleedDelaySD)
            let tapTime = beat - bleedDelay
            if rng.chance(spec.bleedProbability) {
                onsetEvents.append((beat + rng.gaussian(sd: spec.onsetNoiseSD), -1))
            }
            if !rng.chance(spec.silentTapFraction) {
                onsetEvents.append((tapTime + rng.gaussian(sd: spec.onsetNoiseSD), tap))
            }
            if !rng.chance(spec.missedTouchFraction) {
                let latency = spec.latency + spec.driftPPM * 1e-6 * tapTime
                var touch = tapTime + latency + rng.gaussian(sd: spec.jitterSD)
                if buffer > 0 { touch = (touch / buffer).rounded(.up) * buffer }
                touchEvents.append((touch, tap))
            }
        }
        let end = beat + spec.interval
        let distractors = Int((spec.distractorFraction * Double(onsetEvents.count)).rounded())
        for _ in 0..<distractors { onsetEvents.append((rng.uniform(1 ... end), -1)) }
        let spurious = Int((spec.spuriousTouchFraction * Double(spec.tapCount)).rounded())
        for _ in 0..<spurious { touchEvents.append((rng.uniform(1 ... end), -1)) }

        touchEvents.sort { $0.time < $1.time }
        onsetEvents.sort { $0.time < $1.time }
        onsetEvents = Self.merge(onsetEvents, resolution: spec.detectorResolution)
        var onsetOfTap: [Int: Int] = [:]
        for (index, event) in onsetEvents.enumerated() where event.tap >= 0 {
            onsetOfTap[event.tap] = index
        }
        var truth: [Int: Int] = [:]
        for (index, event) in touchEvents.enumerated() where event.tap >= 0 {
            truth[index] = onsetOfTap[event.tap]
        }
        self.touches = touchEvents.map(\.time)
        self.onsets = onsetEvents.map(\.time)
        self.truth = truth
        self.buffer = buffer
    }

    /// Merges events closer than `resolution`, as an onset detector with that time
    /// resolution would report them.
    static func merge(_ events: [(time: Double, tap: Int)], resolution: Double)
        -> [(time: Double, tap: Int)]
    {
        guard resolution > 0 else { return events }
        var kept: [(time: Double, tap: Int)] = []
        for event in events {
            guard let last = kept.last, event.time - last.time < resolution else {
                kept.append(event)
                continue
            }
            if last.tap < 0 && event.tap >= 0 { kept[kept.count - 1] = event }
        }
        return kept
    }

    /// For each touch index with a tap, the time of that tap's onset, if detected.
    func trueOnsetTime(ofTouch touch: Int) -> Double? { truth[touch].map { onsets[$0] } }
}

/// How well a result recovers the ground truth.
struct PairingScore: CustomStringConvertible {
    /// Pairs reported.
    var reported: Int
    /// Reported pairs that are a tap's touch with the same tap's onset.
    var correct: Int
    /// Genuine pairs present in the data (touch and onset of one tap both exist).
    var genuine: Int
    /// Reported pairs whose onset is the tap's own or lies within `nearWindow` of it
    /// (an unresolvable bleed onset: same latency to within that window).
    var nearlyCorrect: Int

    /// An empty score, to pool sessions with ``add(_:)``.
    init() { reported = 0; correct = 0; genuine = 0; nearlyCorrect = 0 }

    mutating func add(_ other: PairingScore) {
        reported += other.reported
        correct += other.correct
        genuine += other.genuine
        nearlyCorrect += other.nearlyCorrect
    }

    init(_ result: MatchResult, session: SyntheticSession, nearWindow: Double = 0.020) {
        reported = result.pairs.count
        correct = result.pairs.filter { session.truth[$0.touchIndex] == $0.onsetIndex }.count
        nearlyCorrect = result.pairs.filter { pair in
            guard let t = session.trueOnsetTime(ofTouch: pair.touchIndex) else { return false }
            return abs(pair.onsetTime - t) <= nearWindow
        }.count
        genuine = session.truth.count
    }

    /// Share of reported pairs that are nearly correct.
    var nearPrecision: Double { reported == 0 ? 1 : Double(nearlyCorrect) / Double(reported) }

    /// Share of reported pairs that are correct.
    var precision: Double { reported == 0 ? 1 : Double(correct) / Double(reported) }
    /// Share of genuine pairs that were found.
    var recall: Double { genuine == 0 ? 1 : Double(correct) / Double(genuine) }

    var description: String {
        "reported \(reported), correct \(correct), genuine \(genuine), "
            + String(format: "precision %.4f, recall %.4f, within 20 ms %.4f",
                     precision, recall, nearPrecision)
    }
}
