import Foundation
import TapAudio
import TapStatistics

/// The waveform of one metronome click as it leaks into the microphone, and where the clicks
/// fall: everything needed to subtract the bleed from a recording.
///
/// A click played by a digital metronome through headphones reaches the microphone as the
/// same waveform every time (a fixed acoustic path), at exact frames. Its average over many
/// clicks — a per-sample median, so taps that happen to overlap some clicks do not leak into
/// it — is subtracted at every click that is there: one whose first milliseconds fit the
/// template, or one masked by a tap between clicks that were heard; in a silence (a muted bar,
/// the continuation phase) nothing is subtracted. This is average-artefact subtraction (Allen, Josephs & Turner 2000,
/// "A method for removing imaging artifact from continuous EEG recorded during functional
/// MRI", NeuroImage 12) applied to stimulus bleed.
public struct BleedTemplate: Sendable, Equatable {
    /// The click waveform, starting `leadFrames` before the grid instant.
    public var samples: [Float]
    /// Frames of the template before the grid instant.
    public var leadFrames: Int
    /// Grid instant of click `k`: `phase + k × period`, in frames (fractional).
    public var phaseFrames: Double
    /// Distance between clicks, frames.
    public var periodFrames: Double
    /// Indices `k` of the clicks that were heard (detected on the grid).
    public var heardClicks: [Int]
    /// A click that was not heard counts as playing when heard clicks lie on both sides of
    /// it at most this many periods apart: the metronome plays on through clicks masked by
    /// taps, but a longer silence is a muted stretch or the end of the clicks (a continuation
    /// phase), where only a click that is actually there (`BleedCanceller`'s fit) is taken.
    public var playingReach = 4
    /// The grid's points repeat in a pattern of this many (1: every point is a click). When the
    /// grid search settled on a half or a third of the click period, the recording shows that
    /// only some points in each group sound (checked on the recording before subtracting).
    public var clickModulus = 1
    /// The residues `k mod clickModulus` of the points where no click sounds.
    public var silentResidues: [Int] = []
    /// How alike the clicks it was estimated from sound: the median, over those clicks, of
    /// their correlation with the template over its audible part (aligned to the frame; 1:
    /// identical). Loud clicks of one metronome reach 0.95–1; quiet ones are lowered by the
    /// noise over them (0.3–0.95 on the robustness corpus), and recurring sounds that are not
    /// one click (the drums of a kit that fall on one grid) stay near 0.3.
    public var likeness: Double = 1

    /// Whether a click can sound at grid point `k` (its residue is not a silent one).
    public func canSound(_ k: Int) -> Bool {
        guard clickModulus > 1 else { return true }
        let residue = ((k % clickModulus) + clickModulus) % clickModulus
        return !silentResidues.contains(residue)
    }

    /// The first frame of click `k`'s template.
    public func startFrame(ofClick k: Int) -> Int {
        Int((phaseFrames + Double(k) * periodFrames).rounded()) - leadFrames
    }

    /// The first click index whose template ends after `frame`.
    func firstClick(endingAfter frame: Int) -> Int {
        Int(((Double(frame + leadFrames - samples.count) - phaseFrames) / periodFrames).rounded(.down))
    }

    /// Whether click `k` lies in a run of clicks that were heard.
    public func isBetweenHeardClicks(_ k: Int) -> Bool {
        // The first heard click at or after k, and the last before it.
        var low = 0, high = heardClicks.count
        while low < high {
            let middle = (low + high) / 2
            if heardClicks[middle] < k { low = middle + 1 } else { high = middle }
        }
        if low < heardClicks.count && heardClicks[low] == k { return true }
        guard low > 0, low < heardClicks.count else { return false }
        return heardClicks[low] - heardClicks[low - 1] <= playingReach
    }
}

extension BleedTemplate {
    /// Estimates the click waveform from up to `maximumClicks` of the grid's clicks: the
    /// templates worth trying, best first (the caller takes the first the recording bears
    /// out, ``verified(segment:)``). Empty when too few clicks can be read or the period
    /// leaves no room for a template.
    /// - Parameter segment: reads `length` mono frames from a start frame; nil past the end.
    static func estimates(grid: StimulusLockedOnsets.Grid, clickTimes: [Seconds], sampleRate rate: Double,
                          maximumClicks: Int = 64, segment: (_ start: Int, _ length: Int) -> [Float]?) -> [BleedTemplate] {
        let leadFrames = Int((0.005 * rate).rounded())
        let length = min(Int(0.2 * rate), Int(grid.period * rate) - 2 * leadFrames)
        guard length > leadFrames * 2 else { return [] }
        // Evenly spread clicks, each read around its grid instant with a margin, then aligned
        // to the frame on a first mean: the grid is fitted to jittered onsets, so its period
        // is a little off and clicks drift from it by a few frames over a long recording.
        let step = max(1, clickTimes.count / maximumClicks)
        let clicks = stride(from: 0, to: clickTimes.count, by: step).map { Int(((clickTimes[$0] - grid.phase) / grid.period).rounded()) }
        let onGrid = { (k: Int) in Int(((grid.phase + Double(k) * grid.period) * rate).rounded()) }
        guard let aligned = alignedClicks(clicks, at: onGrid, leadFrames: leadFrames, length: length,
                                          sampleRate: rate, segment: segment) else { return [] }
        // A grid whose period is tens of microseconds off (onsets that a lossy codec smeared:
        // AAC's pre-echo moves a click's start 0–4 ms, click by click) lets the clicks drift
        // from it by more than the margin over a recording, and the alignment slips from
        // cycle to cycle of the click's ring instead of following them (its shifts reach the
        // margin). Their energy envelopes have no cycles to slip on: the clicks aligned on the
        // line those fit come first when that takes at least ``realignedUnlikenessShare`` off
        // what makes them unalike (1 − likeness).
        let members = Set(clickTimes.map { Int(((($0 - grid.phase) / grid.period)).rounded()) }).sorted()
        let onGridTemplate = finished(aligned, members: members, leadFrames: leadFrames, sampleRate: rate)
        guard aligned.shifts.contains(where: { abs($0) >= alignmentMargin - 1 }),
              let line = ClickEnvelopeLine.fit(clicks: clicks, at: onGrid, leadFrames: leadFrames, sampleRate: rate, segment: segment),
              clicks.contains(where: { k in
                  abs(line.phase + Double(k) * line.period - aligned.line.phase - Double(k) * aligned.line.period) > Double(alignmentMargin)
              }),
              let realigned = alignedClicks(clicks, at: { k in Int((line.phase + Double(k) * line.period).rounded()) },
                                            leadFrames: leadFrames, length: length, sampleRate: rate, segment: segment),
              1 - realigned.likeness <= (1 - realignedUnlikenessShare) * (1 - aligned.likeness)
        else { return [onGridTemplate] }
        return [finished(realigned, members: members, leadFrames: leadFrames, sampleRate: rate), onGridTemplate]
    }

    /// The template of `aligned` clicks: its audible part, then a fade over what follows; the
    /// grid's `members` (click indices) that lie near others are the heard clicks.
    private static func finished(_ aligned: AlignedClicks, members: [Int], leadFrames: Int, sampleRate rate: Double) -> BleedTemplate {
        var template = aligned.template
        let audible = aligned.audible
        // The audible part, then a fade over what follows rather than a cut: a loud click's
        // tail can still stand over the noise where the audible part ends, and subtracting up
        // to a cut leaves a step there that the detector hears as an onset.
        let fade = min(template.count - audible, Int((templateFadeDuration * rate).rounded()))
        template.removeLast(template.count - audible - fade)
        for index in 0..<fade {
            template[audible + index] *= Float(0.5 + 0.5 * cos(Double.pi * Double(index + 1) / Double(fade + 1)))
        }
        // A lone grid member far from the others is more likely a tap that fell on the grid
        // than a click: it does not make the metronome play.
        let heard = members.indices.filter { index in
            (index > 0 && members[index] - members[index - 1] <= 4)
                || (index + 1 < members.count && members[index + 1] - members[index] <= 4)
        }.map { members[$0] }
        return BleedTemplate(samples: template, leadFrames: leadFrames, phaseFrames: aligned.line.phase,
                             periodFrames: aligned.line.period, heardClicks: heard, likeness: aligned.likeness)
    }

    /// Clicks read and aligned to a first mean (``alignedClicks(_:at:leadFrames:length:sampleRate:segment:)``).
    private typealias AlignedClicks = (template: [Float], line: StimulusLockedOnsets.Grid, shifts: [Int], audible: Int, likeness: Double)

    /// The clicks `k` of `clicks` read around `instant(k)` (frames) and aligned to the frame on a
    /// first mean (within ``alignmentMargin``): their trimmed mean from `leadFrames` before
    /// the instant on (`length` frames), the line their aligned instants fit (frames), each
    /// click's shift, the template's audible length and the clicks' likeness (the median of
    /// their correlations with it over that length). Nil when fewer than six clicks can be
    /// read or the template has no audible part.
    private static func alignedClicks(_ clicks: [Int], at instant: (Int) -> Int, leadFrames: Int, length: Int,
                                      sampleRate rate: Double, segment: (_ start: Int, _ length: Int) -> [Float]?)
        -> AlignedClicks? {
        let margin = alignmentMargin
        var segments: [(k: Int, start: Int, samples: [Float])] = []
        for k in clicks {
            let start = instant(k) - leadFrames - margin
            guard start >= 0, let samples = segment(start, length + 2 * margin), samples.count == length + 2 * margin else { continue }
            segments.append((k, start + margin, samples))
        }
        guard segments.count >= 6 else { return nil }
        // Where a click carries a louder sound of its own (a tap, a knock), it is left out of
        // the mean there.
        let window = max(1, Int((0.002 * rate).rounded()))
        let setAside = louderSoundWindows(segments.map { $0.samples[margin..<(margin + length)] }, window: window)
        var template = trimmedMean(segments.map { Array($0.samples[margin..<(margin + length)]) }, length: length,
                                   setAside: setAside, window: window)
        let shifts = segments.map { bestShift(of: template, in: $0.samples, around: margin, maximumShift: margin) }
        template = trimmedMean(zip(segments, shifts).map { segment, shift in
            Array(segment.samples[(margin + shift)..<(margin + shift + length)])
        }, length: length, setAside: setAside, window: window)
        // The aligned positions fix the grid to a fraction of a frame.
        let line = StimulusLockedOnsets.fitLine(zip(segments, shifts).map { segment, shift in
            (Double(segment.k), Double(segment.start + shift + leadFrames))
        })
        guard let audible = audibleLength(of: template, sampleRate: rate) else { return nil }
        let likenesses = zip(segments, shifts).map { segment, shift in
            correlation(template[0..<audible], segment.samples[(margin + shift)..<(margin + shift + audible)])
        }.sorted()
        return (template, line, shifts, audible, likenesses[likenesses.count / 2])
    }
}

/// For each of the equally long `segments`, which of its windows of `window` frames hold a
/// sound of its own: more than ``louderSoundMarginDB`` over the median of all the segments'
/// power in that window (scaled by the segment's own level, where its click is louder than
/// the median click), and the windows on either side of such a window.
///
/// A tap 20–40 ms after some of the clicks (seed 109's `rate16k-dev-2`: taps within the
/// template's 138 ms after 27 of 44 clicks, up to 43 dB over the quiet clicks' tail) left a bump in
/// their trimmed mean, since the samples of its waveform near its zero crossings pass the trim;
/// subtracted where no tap sounds (the count-in), the bump was heard as an onset 31 ms after
/// every such click.
func louderSoundWindows(_ segments: [ArraySlice<Float>], window: Int) -> [[Bool]] {
    let windows = (segments.map(\.count).min() ?? 0) / window
    guard windows > 0 else { return [] }
    let powers = segments.map { windowPowers($0, window: window, count: windows) }
    let medians = (0..<windows).map { w in quantile(powers.map { $0[w] }.sorted(), 0.5) }
    // Each click at its own level: a gain control scales a click as a whole (by 20 dB and
    // more through a phone's chain), a tap raises some windows. The level is the click's
    // lowest power against the median in the windows where the clicks are loudest (within
    // 6 dB of the loudest window), which a tap after the click leaves as they were; the median
    // over a body taken 10 dB down rose with a tap ringing 50–70 ms after a quiet click (seed 1's
    // `baseline-dev-2`).
    let loudest = medians.max() ?? 0
    let body = (0..<windows).filter { medians[$0] > 0 && medians[$0] >= loudest / 4 }
    let margin = pow(10, louderSoundMarginDB / 10)
    return powers.map { power in
        let level = body.map { power[$0] / medians[$0] }.min() ?? 1
        let loud = (0..<windows).map { power[$0] > margin * max(level, 1) * medians[$0] }
        return (0..<windows).map { w in loud[max(0, w - 1)...min(windows - 1, w + 1)].contains(true) }
    }
}

/// How far over the clicks' median power in a window a click's power may lie before it is
/// taken to carry a sound of its own there, dB: a tap after a quiet click stands up to 43 dB
/// over its tail (seed 109's `rate16k-dev-2`).
let louderSoundMarginDB = 10.0

/// Frames a click read for the template may be moved to align it with the others.
let alignmentMargin = 8
/// The share of the clicks' unlikeness (1 − ``BleedTemplate/likeness``) that aligning them on
/// their envelopes' line must take off to come first: less is within what a different reading
/// of the same clicks gives.
let realignedUnlikenessShare = 0.25

/// The normalised correlation of two equally long stretches (0 when either is silent).
func correlation(_ a: ArraySlice<Float>, _ b: ArraySlice<Float>) -> Double {
    precondition(a.count == b.count, "equally long stretches")
    var dot = 0.0, aa = 0.0, bb = 0.0
    for (x, y) in zip(a, b) {
        dot += Double(x) * Double(y)
        aa += Double(x) * Double(x)
        bb += Double(y) * Double(y)
    }
    return aa > 0 && bb > 0 ? dot / (aa * bb).squareRoot() : 0
}

/// How long the click template fades out after its audible part (a raised-cosine half), at
/// most to the end of what was read, seconds. A loud click (a woodblock through a loudspeaker,
/// 40–50 dB over the noise) is still audible where ``audibleLength(of:sampleRate:)`` ends it,
/// judged against its own tail; a cut there left an onset 140 ms after every click. Over 50 ms
/// what the fade leaves of the tail swells too slowly to score as a tap (20 ms left 4 of them
/// on the loudspeaker probe of Docs/robustness.md).
let templateFadeDuration: Seconds = 0.050

/// How much of a median click template stands above what is left of the noise in it: up to
/// the last 2 ms window whose power is 6 dB over the residual level (the median power of
/// the template's last third, where the click has died away), plus one window. Nil when no
/// window stands out: the "click" is noise, and subtracting it would only add noise.
func audibleLength(of template: [Float], sampleRate: Double) -> Int? {
    let window = max(1, Int(0.002 * sampleRate))
    let windows = template.count / window
    guard windows >= 6 else { return nil }
    let powers = windowPowers(template[...], window: window, count: windows)
    let tail = powers[(2 * windows / 3)...].sorted()
    let residual = tail[tail.count / 2]
    guard let last = powers.lastIndex(where: { $0 > 4 * residual }), powers.max()! > 16 * residual else { return nil }
    return min(template.count, (last + 2) * window)
}

/// Frames a click may sit off the fitted grid.
let maximumShift = 3

/// The per-sample trimmed mean of equally long segments: the outer quarter on each side is
/// dropped (a tap's loud sound in a few segments), the middle half averaged (tap tails in many
/// segments have random phase and average out, which a median does not do as well).
///
/// Where `setAside` (per segment, per window of `window` frames) marks a segment's window, the
/// segment is left out of the mean over it, unless fewer than half of the segments would be
/// left there.
func trimmedMean(_ segments: [[Float]], length: Int, setAside: [[Bool]] = [], window: Int = 1) -> [Float] {
    precondition(window > 0 && segments.allSatisfy { $0.count >= length }, "a positive window, segments at least `length` long")
    typealias Columns = SIMD8<Float>
    let lanes = Columns.scalarCount
    // The segments averaged over each window (all of them past the last window marked).
    let everySegment = Array(segments.indices)
    let averaged = (0..<(setAside.map(\.count).min() ?? 0)).map { w in
        let kept = segments.indices.filter { !setAside[$0][w] }
        return 2 * kept.count < segments.count ? everySegment : kept
    }
    var networks: [Int: SortingNetwork] = [:]
    var result = [Float](repeating: 0, count: length)
    var columns = [Columns](repeating: .zero, count: max(1, segments.count))
    columns.withUnsafeMutableBufferPointer { columns in
        var index = 0
        while index < length {
            // A run of frames over which the same segments are averaged.
            let w = index / window
            let used = w < averaged.count ? averaged[w] : everySegment
            let end = w < averaged.count ? min(length, (w + 1) * window) : length
            let count = used.count
            let network = networks[count] ?? SortingNetwork(count: count)
            networks[count] = network
            let trim = count / 4
            let kept = count - 2 * trim
            // Eight frames at a time, each sorted in its lane (the middle half in the order a
            // sort of each column leaves it, so it is summed to the same bits).
            while index < end {
                let width = min(lanes, end - index)
                for (position, s) in used.enumerated() {
                    columns[position] = segments[s].withUnsafeBufferPointer { segment in
                        let frames = segment.baseAddress! + index
                        if width == lanes { return UnsafeRawPointer(frames).loadUnaligned(as: Columns.self) }
                        var column = Columns.zero
                        for lane in 0..<width { column[lane] = frames[lane] }
                        return column
                    }
                }
                network.sortLanes(columns.baseAddress!)
                var sum = Columns.zero
                for position in trim..<(trim + kept) { sum += columns[position] }
                let mean = sum / Float(kept)
                for lane in 0..<width { result[index + lane] = mean[lane] }
                index += width
            }
        }
    }
    return result
}

/// The shift in −maximumShift…maximumShift at which `template` best matches `samples` placed
/// at `origin` (largest dot product).
func bestShift(of template: [Float], in samples: [Float], around origin: Int, maximumShift: Int) -> Int {
    var best = 0
    var bestDot = -Double.infinity
    for shift in -maximumShift...maximumShift {
        let start = origin + shift
        guard start >= 0, start + template.count <= samples.count else { continue }
        var dot = 0.0
        for index in template.indices { dot += Double(template[index]) * Double(samples[start + index]) }
        if dot > bestDot {
            bestDot = dot
            best = shift
        }
    }
    return best
}

/// Subtracts a ``BleedTemplate`` from a stream of samples, block by block.
///
/// Holds back one template length of samples, so that each click is fitted (its gain) on the
/// whole of its segment before anything of it is released: memory stays constant.
struct BleedCanceller {
    let template: BleedTemplate
    /// A click whose fitted gain is in this range is there (and aligned); outside it, the
    /// click is absent, disturbed by another sound, or scaled (below).
    let acceptedGains: ClosedRange<Double> = 0.5...1.5
    /// An automatic gain control (a phone's, a laptop's) scales the clicks by up to this much
    /// and keeps their shape: a click outside ``acceptedGains`` but in this range whose first
    /// part correlates at least ``scaledClickCorrelation`` with the template is there, scaled.
    let scaledGains: ClosedRange<Double> = 0.25...4
    let scaledClickCorrelation = 0.9
    /// Frames a click may be moved, from where the last clean click sat, to fit.
    let cancelShift = 2
    /// Where clean clicks sat relative to the grid, frames.
    private var trackedShift = 0
    /// A click is there when its first part correlates at least this well with the template.
    let minimumCorrelation = 0.7
    /// Frames after the grid instant on which presence and alignment are judged.
    let fitFrames: Int
    private var pending: [Float] = []
    private var pendingStart = 0       // frame of pending[0]
    private var nextClick: Int
    /// Clicks subtracted so far.
    private(set) var cancelledClicks = 0
    /// Grid points where a click sounded in the template's shape (its first part correlating
    /// at least ``scaledClickCorrelation`` with it) but was left in place, its gain outside
    /// what is subtracted: a gate or a gain control changed it. Their grid instants, as
    /// aligned, frames.
    private(set) var clicksLeftInPlace: [Int] = []
    /// Where the clicks subtracted since samples were last released start, frames.
    private var subtractedSinceRelease: [Int] = []
    /// The clicks subtracted where they fit the template: their grid instants, as aligned
    /// (frames), and what the fit left of each against the template's level, dB: the click's
    /// level against the template's, 20 log10(gain / r), plus the share of its energy the
    /// template did not explain, 10 log10(1 − r²), r the correlation of the click's first part
    /// with the template at the best shift and gain the least-squares gain there
    /// (`separateSmearedResidues`).
    private(set) var fittedClicks: [(frame: Int, unexplainedDB: Double)] = []

    init(template: BleedTemplate, sampleRate: Double) {
        self.template = template
        fitFrames = Int((0.008 * sampleRate).rounded())
        // Clicks before the grid's origin too: the search may have started its chain later.
        nextClick = template.firstClick(endingAfter: 0)
        while template.startFrame(ofClick: nextClick) + template.samples.count + maximumShift <= 0 { nextClick += 1 }
    }

    /// Appends `block`; calls `emit` with every sample that no later click can change and the
    /// frames where the clicks subtracted since the last call start (their grid instants, as
    /// aligned; each before or within what it releases).
    mutating func process(_ block: UnsafeBufferPointer<Float>, emit: (UnsafeBufferPointer<Float>, [Int]) -> Void) {
        pending.append(contentsOf: block)
        let pendingEnd = pendingStart + pending.count
        while template.startFrame(ofClick: nextClick) + template.samples.count + maximumShift <= pendingEnd {
            cancel(click: nextClick)
            nextClick += 1
        }
        release(upTo: min(template.startFrame(ofClick: nextClick) - maximumShift, pendingEnd), emit: emit)
    }

    /// Cancels the clicks that the end of the stream cut short and releases the rest, with
    /// where the clicks subtracted since the last release start.
    mutating func finish(emit: (UnsafeBufferPointer<Float>, [Int]) -> Void) {
        let pendingEnd = pendingStart + pending.count
        while template.startFrame(ofClick: nextClick) - maximumShift < pendingEnd {
            cancel(click: nextClick)
            nextClick += 1
        }
        release(upTo: pendingEnd, emit: emit)
    }

    /// Σx·t, Σt² and Σx² over frames `first ..< last` of the pending signal x and the template
    /// t placed to start at frame `start`.
    private func overlap(templateAt start: Int, from first: Int, to last: Int) -> (dot: Double, energy: Double, signalEnergy: Double) {
        var dot = 0.0, energy = 0.0, signalEnergy = 0.0
        for frame in first..<last {
            let t = Double(template.samples[frame - start]), x = Double(pending[frame - pendingStart])
            dot += x * t
            energy += t * t
            signalEnergy += x * x
        }
        return (dot, energy, signalEnergy)
    }

    /// Notes a click not subtracted whose first part, at its best fit, keeps the template's shape.
    private mutating func noteLeftInPlace(_ best: (start: Int, gain: Double, fit: Double, correlation: Double)?) {
        if let best, best.correlation >= scaledClickCorrelation { clicksLeftInPlace.append(best.start + template.leadFrames) }
    }

    private mutating func cancel(click k: Int) {
        let gridStart = template.startFrame(ofClick: k)
        // Align on the click's first part only (a tap that starts on the click's tail must not
        // sway it). The whole click is subtracted at gain 1: a digital click through a fixed
        // acoustic path arrives the same every time, unless a gain control scales it.
        let fitLength = min(template.samples.count, template.leadFrames + fitFrames)
        var best: (start: Int, gain: Double, fit: Double, correlation: Double)?
        for shift in (trackedShift - cancelShift)...(trackedShift + cancelShift) {
            let start = gridStart + shift
            let first = max(start, pendingStart)
            let last = min(start + fitLength, pendingStart + pending.count)
            guard last - first > fitLength / 2 else { continue }
            let (dot, partialEnergy, signalEnergy) = overlap(templateAt: start, from: first, to: last)
            guard partialEnergy > 0, signalEnergy > 0 else { continue }
            // The residual energy falls by dot²/energy: the best shift maximises that.
            let fit = dot * dot / partialEnergy
            if dot > 0 && fit > (best?.fit ?? 0) {
                best = (start, dot / partialEnergy, fit, dot / (partialEnergy * signalEnergy).squareRoot())
            }
        }
        // A grid point the recording showed no click at (BleedGridCheck) is never subtracted;
        // a click there in the template's shape is noted as left in place.
        guard template.canSound(k) else {
            noteLeftInPlace(best)
            return
        }
        let isScaled = best.map { !acceptedGains.contains($0.gain) && scaledGains.contains($0.gain)
            && $0.correlation >= scaledClickCorrelation } ?? false
        let fits = isScaled || (best.map { acceptedGains.contains($0.gain) && $0.correlation >= minimumCorrelation } ?? false)
        // Subtract where the click is evidently there, or where the metronome was evidently
        // playing (a click masked by a loud tap); never invent a click in a silence. A click
        // that does not fit cleanly is placed where the last clean one was, relative to the grid.
        guard fits || template.isBetweenHeardClicks(k) else {
            noteLeftInPlace(best)
            return
        }
        let start = gridStart + (fits ? best!.start - gridStart : trackedShift)
        let first = max(start, pendingStart)
        let last = min(start + template.samples.count, pendingStart + pending.count)
        guard first < last else { return }
        // Never write a click where none sounds: subtracting must lower the energy there
        // (Σ(x − t)² < Σx², i.e. 2·x·t > t·t: the click is there at more than half the
        // template's gain). Under a sound four times the click's energy (a tap masking it)
        // the comparison says more about that sound than about the click, and the grid and
        // the heard clicks around it decide alone.
        let (dot, energy, signalEnergy) = overlap(templateAt: start, from: first, to: last)
        // The gain to subtract at. A fitting click that keeps the template's shape over its whole
        // length (the least-squares gain ramp explains at least 81 % of the energy there: a
        // correlation of 0.9) is subtracted at that ramp: a gain control scales a click, and one
        // that acts within the click scales its body unlike its first milliseconds (1.5 against
        // 1.7 under ffmpeg's `dynaudnorm`). A tap on the click, uncorrelated with it, leaves the
        // fit unbiased but explains part of the energy. Otherwise a scaled click is subtracted at
        // its first part's gain, any other at 1.
        var ramp = (start: 1.0, slope: 0.0)
        // The gain the click is judged and aligned at, as a whole: under a fitted ramp the
        // least-squares gain (Σx·t / Σt², which is the ramp's value where the template's energy
        // lies), not the ramp's middle. A noise click's energy lies in its first milliseconds
        // (u near 0.07 of a 74 ms template), and the middle of a steep ramp fitted there read
        // 2.4 for a click at 0.95, which the check below then took for no click (seed 97
        // `loudspeaker-aac-held-1`: 6 such clicks left as taps).
        var gain = 1.0
        if fits, let fitted = gainRamp(at: start, from: first, to: last, dot: dot, energy: energy, signalEnergy: signalEnergy),
           fitted.explained >= scaledClickCorrelation * scaledClickCorrelation {
            ramp = (fitted.start, fitted.slope)
            gain = dot / energy
        } else if isScaled {
            ramp = (best!.gain, 0)
            gain = best!.gain
        }
        guard 2 * dot > gain * energy || signalEnergy > 4 * energy else {
            noteLeftInPlace(best)
            return
        }
        if fits, let best {
            trackedShift = best.start - gridStart
            let unexplained = max(1 - best.correlation * best.correlation, 1e-6)
            fittedClicks.append((start + template.leadFrames, 10 * log10(unexplained) + 20 * log10(best.gain / best.correlation)))
        }
        // A clean click is subtracted at the fraction of a frame where it sits: the delay in
        // −0.5…0.5 frames that leaves the least of it over its first part (searched in quarters,
        // then eighths and sixteenths), when that is less than the whole frame leaves. A click
        // half a frame off leaves a residue of −25 dB at 1 kHz and 48 kHz, and is barely reduced
        // at 2.5 kHz and 8 kHz.
        var samples = template.samples
        if fits {
            let fitEnd = min(start + fitLength, last)
            func residue(_ fraction: Double) -> Double {
                fraction == 0 ? residualEnergy(template.samples, gain: gain, at: start, from: first, to: fitEnd)
                    : residualEnergy(delayedBy: fraction, gain: gain, at: start, from: first, to: fitEnd)
            }
            var bestFraction = 0.0, bestResidue = residue(0)
            // Where the whole frame already leaves less than 1 % (−20 dB) of the click, the
            // search is not worth its cost. (The search is at the ramp's mean gain.)
            if bestResidue >= 0.01 * gain * gain * overlap(templateAt: start, from: first, to: fitEnd).energy {
                for candidates in [[-0.5, -0.25, 0.25, 0.5], [-0.125, 0.125], [-0.0625, 0.0625]] {
                    let centre = bestFraction
                    for offset in candidates where abs(centre + offset) <= 0.5 {
                        let value = residue(centre + offset)
                        if value < bestResidue {
                            bestResidue = value
                            bestFraction = centre + offset
                        }
                    }
                }
            }
            if bestFraction != 0 { samples = delayedByFraction(template.samples, bestFraction, upTo: samples.count) }
        }
        if ramp != (1, 0) {
            let length = Double(template.samples.count)
            for index in samples.indices { samples[index] *= Float(ramp.start + ramp.slope * Double(index) / length) }
        }
        for frame in first..<last { pending[frame - pendingStart] -= samples[frame - start] }
        subtractedSinceRelease.append(start + template.leadFrames)
        cancelledClicks += 1
    }

    /// The gain ramp g(u) = start + slope·u (u = 0…1 over the template) that best fits the
    /// pending signal x over frames `first ..< last` as g·t, with t placed to start at frame
    /// `start`, by least squares; `explained` is the fraction of Σx² it accounts for. `dot`,
    /// `energy` and `signalEnergy` are Σx·t, Σt² and Σx² there (``overlap(templateAt:from:to:)``).
    /// Nil when the template or the signal is silent there.
    private func gainRamp(at start: Int, from first: Int, to last: Int, dot xt: Double, energy tt: Double,
                          signalEnergy xx: Double) -> (start: Double, slope: Double, explained: Double)? {
        // Normal equations of x ≈ a·t + b·(u·t); the sums with u are the ones overlap has not.
        var tu = 0.0, uu = 0.0, xu = 0.0
        let length = Double(template.samples.count)
        for frame in first..<last {
            let t = Double(template.samples[frame - start]), x = Double(pending[frame - pendingStart])
            let ut = t * Double(frame - start) / length
            tu += t * ut; uu += ut * ut; xu += x * ut
        }
        let determinant = tt * uu - tu * tu
        guard determinant > 0, xx > 0 else { return nil }
        let a = (xt * uu - xu * tu) / determinant, b = (tt * xu - tu * xt) / determinant
        return (a, b, (a * xt + b * xu) / xx)
    }

    /// Σ(x − g·t)² over frames `first ..< last` with `t` placed to start at frame `start`.
    private func residualEnergy(_ t: [Float], gain g: Double, at start: Int, from first: Int, to last: Int) -> Double {
        var sum = 0.0
        for frame in first..<last {
            let difference = Double(pending[frame - pendingStart]) - g * Double(t[frame - start])
            sum += difference * difference
        }
        return sum
    }

    /// ``residualEnergy(_:at:from:to:)`` for the template delayed by `fraction` of a frame
    /// (``delayedByFraction(_:_:upTo:)``), computed in place.
    private func residualEnergy(delayedBy fraction: Double, gain g: Double, at start: Int, from first: Int, to last: Int) -> Double {
        let weights = LagrangeWeights(fraction)
        var sum = 0.0
        for frame in first..<last {
            let difference = Double(pending[frame - pendingStart]) - g * Double(weights.sample(frame - start, of: template.samples))
            sum += difference * difference
        }
        return sum
    }

    private mutating func release(upTo frame: Int, emit: (UnsafeBufferPointer<Float>, [Int]) -> Void) {
        let count = frame - pendingStart
        guard count > 0 else { return }
        var subtracted: [Int] = []
        swap(&subtracted, &subtractedSinceRelease)
        pending.withUnsafeBufferPointer { emit(UnsafeBufferPointer(rebasing: $0[0..<count]), subtracted) }
        pending.removeFirst(count)
        pendingStart = frame
    }
}

/// The four cubic Lagrange weights that read a signal `fraction` of a frame (−0.5…0.5) before
/// each of its samples: output n = Σ c_j · x[n + offset − 1 + j].
struct LagrangeWeights {
    let offset: Int
    let c0, c1, c2, c3: Double

    init(_ fraction: Double) {
        offset = Int((-fraction).rounded(.down))
        let mu = -fraction - Double(offset)
        c0 = -mu * (mu - 1) * (mu - 2) / 6
        c1 = (mu + 1) * (mu - 1) * (mu - 2) / 2
        c2 = -(mu + 1) * mu * (mu - 2) / 2
        c3 = (mu + 1) * mu * (mu - 1) / 6
    }

    /// Sample `index` of `samples` delayed (zero outside them).
    func sample(_ index: Int, of samples: [Float]) -> Float {
        func at(_ index: Int) -> Double { index >= 0 && index < samples.count ? Double(samples[index]) : 0 }
        let k = index + offset
        return Float(c0 * at(k - 1) + c1 * at(k) + c2 * at(k + 1) + c3 * at(k + 2))
    }
}

/// The first `count` samples of `samples` delayed by `fraction` of a frame (−0.5…0.5), read
/// between samples with the cubic Lagrange polynomial through the four around each point (zero
/// outside).
func delayedByFraction(_ samples: [Float], _ fraction: Double, upTo count: Int) -> [Float] {
    let weights = LagrangeWeights(fraction)
    return (0..<min(count, samples.count)).map { weights.sample($0, of: samples) }
}
