import TapAudio
import TapStatistics

/// Tap onsets of a recording, with the metronome bleed dealt with: what the latency
/// analysis matches against touches.
public struct TapOnsetDetection: Sendable, Equatable {
    /// Onsets that may be taps (``OnsetKind/tap``: tap score at or above the cut, or a hit of
    /// dense percussion, ``densePercussionOnsets``), in time order.
    public var onsets: [Onset]
    /// Onsets of other sounds (``OnsetKind/other``: tap score below the cut), in time order.
    public var otherOnsets: [Onset] = []
    /// Onsets of the stimulus (``OnsetKind/stimulus``): the clicks on an isochronous click
    /// grid and what their subtraction left (or a stimulus file's), REPP-style markers, a
    /// count-in's clicks, the sounds that copy those clicks and the clicks of a family heard
    /// alone (``ClickFamily``), in time order.
    public var stimulusOnsets: [Onset]
    /// How many clicks were subtracted from the recording before the final detection.
    public var cancelledClicks: Int
    /// The length of the recording, seconds (frames ÷ sample rate).
    public var duration: Seconds = 0
    /// Runs of ``ClipCounter/runLength`` or more consecutive samples at or beyond
    /// ``ClipCounter/level`` of full scale in the channel analysed (or the mix): clipping.
    public var clippedRuns: Int = 0
    /// What became of the stimulus given for bleed removal; nil when none was given.
    public var stimulusBleed: StimulusBleedReport? = nil
    /// When the recording was taken for dense percussion (a drum kit: taps close together
    /// that sound unlike each other), how many taps the spectral flux added or took back from
    /// the other sounds (Docs/robustness.md, "Dense material"); nil otherwise.
    public var densePercussionOnsets: Int? = nil
    /// When the detection ran in a higher band than the configured one because the taps stand
    /// clearer of the recording's other sounds there (``DetectionBandChoice``), that band; nil
    /// otherwise.
    public var detectionBand: DetectionBand? = nil
    /// How many of ``onsets`` ``HighBandTaps`` added from its 8 kHz band (marked by
    /// ``Onset/highBandCutoff``).
    public var highBandTaps: Int { onsets.count { $0.highBandCutoff != nil } }

    /// A detection from its parts (for tests and for onsets found elsewhere).
    public init(onsets: [Onset], otherOnsets: [Onset] = [], stimulusOnsets: [Onset] = [], cancelledClicks: Int = 0,
                duration: Seconds = 0, clippedRuns: Int = 0) {
        self.onsets = onsets
        self.otherOnsets = otherOnsets
        self.stimulusOnsets = stimulusOnsets
        self.cancelledClicks = cancelledClicks
        self.duration = duration
        self.clippedRuns = clippedRuns
    }

    /// Every onset of every kind, in time order.
    public var allOnsets: [Onset] {
        (onsets + otherOnsets + stimulusOnsets).sorted { $0.time < $1.time }
    }

    /// The detection with its tap and other onsets scored and split again at `cut`
    /// (``TapScore``), and its stimulus onsets marked as such; a stimulus onset that is a tap
    /// which sounded with its click (it spreads its power like the taps and unlike the other
    /// stimulus onsets) leaves them where it scores as a tap among the sounds, and REPP-style
    /// alignment markers (``StimulusMarkers``), the clicks of a count-in (``CountInClicks``) and
    /// the sounds that copy the clicks set aside (``ClickCopies``) join them (a count-in click
    /// already there, found on the click grid, is not listed twice).
    ///
    /// Onsets a script made may hold values that are not numbers: features that are not are
    /// dropped, and a sound without a finite time, which has no
    /// place in the taps' rhythm, is another sound (score 0); a stimulus onset without one
    /// stays a stimulus onset but sets nothing aside.
    public func classified(cut: Double) -> TapOnsetDetection {
        var copy = self
        let sounds = (onsets + otherOnsets).map(\.measurable)
        let unplaced = sounds.filter { !$0.time.isFinite }.map(\.unplaced)
        let allStimulus = stimulusOnsets.map(\.measurable)
        let stimulusOnsets = allStimulus.filter(\.time.isFinite)
        let classification = TapScore.classify(sounds.filter(\.time.isFinite), takingTapsOnClicksFrom: stimulusOnsets, cut: cut)
        var scored = classification.sounds
        let stimulus = classification.stimulus
        let stimulusTimes = stimulus.map(\.time).sorted()
        let markerIndices = StimulusMarkers.indices(in: scored)
        let markers = markerIndices.sorted().map { scored[$0] }
        for index in markerIndices { scored[index].kind = .stimulus }   // no count-in of markers
        let countInIndices = CountInClicks.indices(in: scored, stimulusTimes: stimulusTimes)
        // A count-in click the click grid found is listed once, timed as `separateClickResidues`
        // compares a sound with a heard click: where it first rose.
        let countIn = countInIndices.sorted().map { scored[$0] }
            .filter { !stimulusTimes.contains($0.precursorTime ?? $0.time, within: clickResidueWindow) }
        // Sounds that copy the clicks set aside (and the count-in's) to the decibel are clicks.
        let copyIndices = ClickCopies.indices(in: scored, clicks: stimulus + countIn).subtracting(countInIndices)
        let copies = copyIndices.sorted().map { scored[$0] }
        let kept = scored.indices.filter { !markerIndices.contains($0) && !countInIndices.contains($0) && !copyIndices.contains($0) }
            .map { scored[$0] }
        copy.onsets = kept.filter { $0.kind == .tap }
        copy.otherOnsets = kept.filter { $0.kind == .other } + unplaced
        copy.stimulusOnsets = ((stimulus + markers + countIn + copies).sorted { $0.time < $1.time }
            + allStimulus.filter { !$0.time.isFinite })
            .map { var onset = $0; onset.kind = .stimulus; return onset }
        return copy
    }
}

/// Counts clipped runs in a stream of samples: ``runLength`` or more consecutive samples
/// whose magnitude is at least ``level`` of full scale. One full-scale sample can be a loud
/// but intact peak; three in a row is the flat top of a waveform the converter cut off.
public struct ClipCounter: Sendable {
    /// The magnitude that counts as full scale (0.999: 16-bit samples from ±32 735 on).
    public static let level: Float = 0.999
    /// The fewest consecutive samples at ``level`` that make a clipped run.
    public static let runLength = 3
    /// Clipped runs seen so far.
    public private(set) var runs = 0
    /// Samples seen so far.
    public private(set) var samples = 0
    private var current = 0

    /// A counter that has seen nothing.
    public init() {}

    /// Adds the next samples of the stream.
    public mutating func process(_ block: UnsafeBufferPointer<Float>) {
        samples += block.count
        // Most blocks hold no sample near full scale: found in a loop without a branch per
        // sample, such a block only ends any run in progress.
        guard Self.reachesLevel(block) else {
            if !block.isEmpty { current = 0 }
            return
        }
        for sample in block {
            if abs(sample) >= Self.level {
                current += 1
                if current == Self.runLength { runs += 1 }
            } else {
                current = 0
            }
        }
    }
}

extension ClipCounter {
    /// Whether any sample's magnitude reaches ``level`` (flags or-ed in 32-bit lanes, which
    /// the compiler vectorises in a function of its own).
    @inline(never)
    static func reachesLevel(_ block: UnsafeBufferPointer<Float>) -> Bool {
        var reached: UInt32 = 0
        for sample in block { reached |= abs(sample) >= level ? 1 : 0 }
        return reached != 0
    }
}

/// How ``detectTapOnsets(inFile:channel:configuration:bleed:stimulus:stimulusConfiguration:)`` treats metronome bleed.
public enum BleedHandling: String, Sendable, CaseIterable {
    /// Keep every onset (no grid search, no click families: ``ClickFamily``).
    case keep
    /// Set aside onsets on an isochronous click grid.
    case reject
    /// Subtract the clicks from the recording (a second pass) and detect again. The default.
    case cancel
}

/// Mono audio that can be streamed from the start more than once and read in pieces.
protocol AudioSource {
    var sampleRate: Double { get }
    /// Calls `body` with consecutive blocks from the first frame on.
    func forEachBlock(_ body: (UnsafeBufferPointer<Float>) -> Void) throws(AudioError)
    /// `length` frames from `start`, or nil past the end.
    func segment(start: Int, length: Int) throws(AudioError) -> [Float]?
}

extension AudioSource {
    /// The 50 ms before a segment over which its high-pass settles from rest, frames.
    var highPassSettlingFrames: Int { Int(0.05 * sampleRate) }

    /// `length` frames from `start`, high-passed at `cutoff` as the detector hears them: the
    /// filter runs from rest over the 50 ms before, so it has settled by `start`. Nil when
    /// those 50 ms or the stretch lie outside the audio.
    func highPassedSegment(start: Int, length: Int, cutoff: Double) throws(AudioError) -> [Float]? {
        try highPassedSegments(start: start, length: length, cutoffs: [cutoff])?.first
    }

    /// The same stretch high-passed at each of `cutoffs`, the audio read once.
    func highPassedSegments(start: Int, length: Int, cutoffs: [Double]) throws(AudioError) -> [[Float]]? {
        let preroll = highPassSettlingFrames
        guard start - preroll >= 0, let raw = try segment(start: start - preroll, length: length + preroll) else { return nil }
        return cutoffs.map { cutoff in
            var filter = HighPassFilter(cutoff: cutoff, sampleRate: sampleRate)
            return Array(raw.map { filter.process($0) }.dropFirst(preroll))
        }
    }
}

struct FileSource: AudioSource {
    let reader: AudioFileReader
    var sampleRate: Double { reader.info.sampleRate }

    func forEachBlock(_ body: (UnsafeBufferPointer<Float>) -> Void) throws(AudioError) {
        try reader.seek(toFrame: 0)
        var block = [Float](repeating: 0, count: 65_536)
        while true {
            let count = try block.withUnsafeMutableBufferPointer { buffer throws(AudioError) in try reader.read(into: buffer) }
            if count == 0 { break }
            block.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[0..<count])) }
        }
    }

    func segment(start: Int, length: Int) throws(AudioError) -> [Float]? {
        guard start >= 0, start + length <= reader.info.frameCount else { return nil }
        try reader.seek(toFrame: start)
        var buffer = [Float](repeating: 0, count: length)
        var filled = 0
        while filled < length {
            let got = try buffer.withUnsafeMutableBufferPointer { pointer throws(AudioError) in
                try reader.read(into: UnsafeMutableBufferPointer(rebasing: pointer[filled...]))
            }
            if got == 0 { return nil }
            filled += got
        }
        return buffer
    }
}

struct SignalSource: AudioSource {
    let signal: Signal
    var sampleRate: Double { signal.sampleRate }

    func forEachBlock(_ body: (UnsafeBufferPointer<Float>) -> Void) throws(AudioError) {
        signal.samples.withUnsafeBufferPointer { samples in
            var start = 0
            while start < samples.count {
                let end = min(start + 65_536, samples.count)
                body(UnsafeBufferPointer(rebasing: samples[start..<end]))
                start = end
            }
        }
    }

    func segment(start: Int, length: Int) throws(AudioError) -> [Float]? {
        guard start >= 0, start + length <= signal.samples.count else { return nil }
        return Array(signal.samples[start..<(start + length)])
    }
}

func detectTapOnsets(in source: some AudioSource, configuration: OnsetDetectorConfiguration,
                     bleed: BleedHandling) throws(AudioError) -> TapOnsetDetection {
    var clips = ClipCounter()
    var detection = try detectTapOnsets(in: source, configuration: configuration, bleed: bleed, clips: &clips)
    detection.duration = Double(clips.samples) / source.sampleRate
    detection.clippedRuns = clips.runs
    return detection
}

func detectTapOnsets(in source: some AudioSource, configuration: OnsetDetectorConfiguration,
                     bleed: BleedHandling, clips: inout ClipCounter) throws(AudioError) -> TapOnsetDetection {
    let rate = source.sampleRate
    // Pass 1: the onsets, and (more sensitive) the probe onsets in which clicks are sought,
    // both from one high-passed stream.
    var filter = HighPassFilter(cutoff: configuration.highPassCutoff, sampleRate: rate)
    // One power envelope and noise floor, two event trackers (tap and click thresholds).
    var detector = OnsetDetector(sampleRate: rate, configurations: bleed == .keep ? [configuration] : [configuration, configuration.clickProbe],
                                 input: .highPassed)
    var found = [[Onset]](repeating: [], count: bleed == .keep ? 1 : 2)
    var filtered = [Float](repeating: 0, count: 65_536)
    try forEachFilteredBlock(of: source, through: &filter, buffer: &filtered) { block, highPassed in
        clips.process(block)
        detector.process(highPassed, into: &found)
    }
    detector.finish(into: &found)
    let first = found[0]
    guard bleed != .keep else { return TapOnsetDetection(onsets: first, stimulusOnsets: [], cancelledClicks: 0) }
    let probe = found[1]
    var grids = StimulusLockedOnsets.grids(in: probe.map(\.time), levels: probe.map(\.strength), minimumCount: 6)

    // The click template, from high-passed segments (the band the detector listens to: hum
    // and rumble, which vary from click to click, stay out of it).
    var template: BleedTemplate?
    // Whether the grid was found by the clicks' peaks rather than their starts.
    var foundByPeaks = false
    if bleed == .cancel {
        var readError: AudioError?
        let read = { (start: Int, length: Int) -> [Float]? in
            do throws(AudioError) {
                return try source.highPassedSegment(start: start, length: length, cutoff: configuration.highPassCutoff)
            } catch {
                readError = error
                return nil
            }
        }
        func verifiedTemplate(_ grid: (grid: StimulusLockedOnsets.Grid, members: [Int])) -> BleedTemplate? {
            // On a finer grid where the clicks sound between the grid's points (a multiple of the
            // beat: sought only where the probe holds onsets at the clicks' level off the grid,
            // at least half as many as on it), and only where the recording bears the grid out
            // (not at a half or a third of the period).
            let mayBeMultiple = offGridOnsetsAtClickLevel(probe, members: grid.members).count * 2 >= grid.members.count
            // (A loop, not `lazy.compactMap { … }.first`, which runs the check twice on the one taken.)
            for candidate in BleedTemplate.estimates(grid: grid.grid, clickTimes: grid.members.map { probe[$0].time },
                                                     sampleRate: rate, segment: read) {
                if let template = (mayBeMultiple ? candidate.subdivided(segment: read) : candidate).verified(segment: read) { return template }
            }
            return nil
        }
        template = grids.first.flatMap(verifiedTemplate)
        // Two kinds of loud clicks make no grid by their starts, or only a chance one, and are
        // sought by other times. A lossy codec's pre-echo moves a click's first change point
        // 0–4 ms early, click by click, but not its peak; a tonal click (a beep through a
        // loudspeaker) is started on one cycle or the next. Such a grid is taken when it holds
        // at least twice the onsets of the first and its clicks sound alike. The chance grid may
        // be of other sounds, or of the few clicks the codec left unsmeared, at a multiple of the
        // beat (seed 97's `loudspeaker-aac-dev-1`: 7 noise clicks at 1.5 beats, a clean template,
        // while the peaks keep all 45): so it is sought whatever the first template's likeness.
        // (No grid can hold twice the first's onsets when the probe has fewer: then not sought.)
        let firstCount = grids.first?.members.count ?? 0
        if 2 * firstCount <= probe.count {
            let byPeaks = StimulusLockedOnsets.gridOfPeaks(probe.map(\.peakTime), levels: probe.map(\.strength), minimumCount: 6)
            let cycleSlipped = StimulusLockedOnsets.cycleSlippedGrid(in: probe.map(\.time), levels: probe.map(\.strength),
                                                                     minimumCount: 6)
            let others = [(found: byPeaks, ofPeaks: true), (found: cycleSlipped, ofPeaks: false)]
                .compactMap { candidate in candidate.found.map { (grid: $0, ofPeaks: candidate.ofPeaks) } }
                .filter { $0.grid.members.count >= 2 * firstCount }
                .sorted { $0.grid.members.count > $1.grid.members.count }
            for (other, ofPeaks) in others {
                guard let found = verifiedTemplate(other), found.likeness >= minimumFallbackLikeness else { continue }
                grids = [other]
                template = found
                foundByPeaks = ofPeaks
                break
            }
        }
        if let readError { throw readError }
    }
    var heard = Set(grids.flatMap(\.members))
    if let template, let grid = grids.first {
        heard.formUnion(clicksBetween(probe, offGrid: offGridOnsetsAtClickLevel(probe, members: grid.members), template: template,
                                      gridPeriod: grid.grid.period, sampleRate: rate))
    }
    let heardIndices = heard.sorted()
    var stimulus = heardIndices.map { probe[$0] }
    if foundByPeaks, let grid = grids.first {
        let members = Set(grid.members)
        stimulus = clickStartsPastEarlierSounds(stimulus, isMember: heardIndices.map(members.contains), grid: grid.grid,
                                                sampleRate: rate)
    }
    guard let template else {
        let setAside = setAsideStimulus(first, cancelledClicks: 0)
        // Loud clicks set aside but not subtracted (no template held: a noise click's
        // waveform changes from click to click, and a codec smears its start): a tap tens of
        // milliseconds before one had its decay read over the click's rise, and scored as no
        // tap. Detected again with those clicks noted, each sound's tail is read up to the
        // next click, and a tap on a click starts where it rises over it, as in pass 2.
        // Clicks ``loudClickMarginDB`` or more under the loudest sounds (taps, in a tapping
        // recording; ``loudestSoundsQuantile``) do not raise a tail.
        let clicks = setAside.stimulusOnsets
        let levels = setAside.onsets.map(\.strength).filter(\.isFinite).sorted()
        guard bleed == .cancel, !levels.isEmpty, let clickLevel = Summary(clicks.map(\.strength))?.median,
              clickLevel > quantile(levels, loudestSoundsQuantile) - loudClickMarginDB else { return setAside }
        filter = HighPassFilter(cutoff: configuration.highPassCutoff, sampleRate: rate)
        detector = OnsetDetector(sampleRate: rate, configuration: configuration, input: .highPassed)
        detector.noteHeardClicks(clicks.map(\.frame), level: clickLevel)
        var onsets: [Onset] = []
        try forEachFilteredBlock(of: source, through: &filter, buffer: &filtered) { _, highPassed in
            detector.process(highPassed, into: &onsets)
        }
        detector.finish(into: &onsets)
        return setAsideStimulus(onsets, cancelledClicks: 0)
    }

    // Pass 2: high-pass, subtract the clicks, detect again.
    filter = HighPassFilter(cutoff: configuration.highPassCutoff, sampleRate: rate)
    detector = OnsetDetector(sampleRate: rate, configuration: configuration, input: .highPassed)
    detector.noteHeardClicks(stimulus.map(\.frame), level: Summary(stimulus.map(\.strength))?.median ?? -.infinity)
    var canceller = BleedCanceller(template: template, sampleRate: rate)
    var onsets: [Onset] = []
    try forEachFilteredBlock(of: source, through: &filter, buffer: &filtered) { _, highPassed in
        canceller.process(highPassed) { samples, subtracted in
            detector.noteSubtractedClicks(subtracted)
            detector.process(samples, into: &onsets)
        }
    }
    canceller.finish { samples, subtracted in
        detector.noteSubtractedClicks(subtracted)
        detector.process(samples, into: &onsets)
    }
    detector.finish(into: &onsets)
    // The clicks are gone from what pass 2 saw, up to what the subtraction leaves where the
    // acoustic path smears them (reverberation, resampling): an onset that starts where a
    // heard click started and is clearly weaker than that click is its residue. Anything else
    // on the grid is a tap that coincided with a click.
    let (unsmeared, smeared) = separateSmearedResidues(onsets, fittedClicks: canceller.fittedClicks,
                                                        clickLevel: Summary(stimulus.map(\.strength))?.median, sampleRate: rate)
    let (taps, residues) = separateClickResidues(unsmeared, clicks: stimulus,
                                                 leftInPlace: clicksAt(stimulus, frames: canceller.clicksLeftInPlace, sampleRate: rate))
    return TapOnsetDetection(onsets: taps, stimulusOnsets: (stimulus + residues + smeared).sorted { $0.time < $1.time },
                             cancelledClicks: canceller.cancelledClicks)
}

/// How alike the clicks of a grid found by their peaks or cycle-slipped starts must sound
/// (``BleedTemplate/likeness``): loud beeps through a loudspeaker reach 0.996, loud clicks
/// through AAC 0.94–0.98; quiet bleed clicks, which the usual grid search serves, 0.3–0.95,
/// and the drums of a kit that recur on one grid 0.32. Below it, the usual grid stands.
let minimumFallbackLikeness = 0.9

/// Splits pass-2 onsets into sounds and click residues: onsets starting within
/// ``clickResidueWindow`` of a heard click's start and at least ``clickResidueMarginDB`` weaker
/// than it, or than the clicks' median level when the click was heard louder than that.
///
/// A metronome leaks at one level; a heard click well over the others carries a tap that
/// sounded with it, and a quiet tap left there after the subtraction is no residue of it.
/// Where the canceller left a click in place (`leftInPlace`, indices of `clicks`: it kept
/// the template's shape at a gain the canceller does not subtract, as a noise gate or a gain
/// control leaves it), pass 2 hears the click itself: an onset there up to
/// ``tapOnClickMarginDB`` over the clicks' level is that click.
///
/// An onset starts at a click where its sound first rose (its precursor) or where its start
/// was picked: a rise a few milliseconds ahead of a residue is no tap's either (seed 61
/// `gated-dev-2` of the robustness corpus: a count-in click's residue 13 dB under it, picked
/// 0.7 ms ahead of the click, with a precursor 4.6 ms ahead, passed as a tap).
func separateClickResidues(_ onsets: [Onset], clicks: [Onset], leftInPlace: Set<Int> = []) -> (onsets: [Onset], residues: [Onset]) {
    guard let clickLevel = Summary(clicks.map(\.strength))?.median else { return (onsets, []) }
    let clickTimes = clicks.map(\.time)
    return splitResidues(onsets) { index in
        let onset = onsets[index]
        let click = clickStart(near: onset, clickTimes: clickTimes, lead: clickResidueWindow)
            ?? clickStart(at: onset.time, clickTimes: clickTimes, lead: clickResidueWindow)
        return click.map { click in
            if leftInPlace.contains(click) {
                return onset.strength <= min(clicks[click].strength, clickLevel) + tapOnClickMarginDB
            }
            return onset.strength <= min(clicks[click].strength, clickLevel) - clickResidueMarginDB
        } ?? false
    }
}

/// Splits pass-2 onsets into sounds and what the subtraction left of clicks the recording
/// smeared: onsets starting from the codec's pre-echo lead (5 ms,
/// ``StimulusBleedRemoval/codecPreEchoLead``) before the instant of a click subtracted
/// where it fit the template (`fittedClicks`, ``BleedCanceller/fittedClicks``) to
/// ``clickResidueWindow`` after it, no louder than the recording's typical leftover: the clicks'
/// level (`clickLevel`, the heard clicks' median, which stands for the template's) plus the
/// median over the fitted clicks of what each fit left against the template's level
/// (``BleedCanceller/fittedClicks``). Only where at least ``residueShare`` of the fitted clicks
/// (and ``residueMinimumSounds``) have such an onset.
///
/// A lossy codec codes each click a little differently (where it falls in the codec's frame)
/// and spreads its noise ahead of it (pre-echo): through AAC the template explains 70–99 % of a
/// loud loudspeaker click's first part (what is left lies 5–22 dB under it in energy), and the
/// rest is heard as an onset 0–5 ms before the click, its peak 3–23 dB under the click's.
/// Unlike a residue of ``separateClickResidues(_:clicks:leftInPlace:)``, it starts off the
/// heard click's start (the pre-echo moved the start the grid search saw, so most such clicks
/// are not heard ones) and is often less than 8 dB under the click. A tap that starts there no
/// louder than the typical leftover cannot be told from one and goes with it. The median over
/// the recording, not each click's own fit: a tap on a click lowers that click's correlation,
/// so its own fit foretells a leftover as loud as the tap. The onset's start is its first
/// rise, not a precursor before it (as ``clickStart(near:clickTimes:lead:)`` takes): here the
/// precursor is the pre-echo, and the leftover itself starts after it.
func separateSmearedResidues(_ onsets: [Onset], fittedClicks: [(frame: Int, unexplainedDB: Double)],
                             clickLevel: Double?, sampleRate rate: Double) -> (onsets: [Onset], residues: [Onset]) {
    guard let clickLevel, let typical = Summary(fittedClicks.map(\.unexplainedDB))?.median else { return (onsets, []) }
    let instants = fittedClicks.map { Double($0.frame) / rate }
    // The fitted click each onset would be a leftover of, if any.
    let candidates = onsets.map { onset -> Int? in
        guard onset.strength <= clickLevel + typical else { return nil }
        return clickStart(at: onset.time, clickTimes: instants, lead: StimulusBleedRemoval.codecPreEchoLead)
    }
    // As after a stimulus file's subtraction (`separateBleedResidues`): only where a share of
    // the clicks have one does the recording leave such residues; elsewhere the few are taps.
    guard reachesResidueShare(Set(candidates.compactMap { $0 }).count, of: fittedClicks.count) else { return (onsets, []) }
    return splitResidues(onsets) { candidates[$0] != nil }
}

/// `onsets` split by `isResidue` (an index into them) into the sounds and the residues, each
/// in the order given.
func splitResidues(_ onsets: [Onset], isResidue: (Int) -> Bool) -> (onsets: [Onset], residues: [Onset]) {
    var kept: [Onset] = [], residues: [Onset] = []
    for index in onsets.indices {
        if isResidue(index) { residues.append(onsets[index]) } else { kept.append(onsets[index]) }
    }
    return (kept, residues)
}

/// Indices of the heard `clicks` (in time order) within a few frames of one of `frames`
/// (grid instants, as the canceller aligned them).
func clicksAt(_ clicks: [Onset], frames: [Int], sampleRate: Double) -> Set<Int> {
    let starts = frames.sorted().map { Double($0) / sampleRate }
    let reach = clickResidueWindow + 4 / sampleRate
    return Set(clicks.indices.filter { starts.contains(clicks[$0].time, within: reach) })
}

/// The index of the first click (of `clickTimes`, ascending) that starts from `lead` before
/// `onset` to ``clickResidueWindow`` after it, if any: where a residue of that click would
/// start. The onset is timed where its sound first rose (its precursor, if it has one), as the
/// clicks were. (`separateClickResidues` also tries where the onset was picked; a stimulus
/// file's residues, `separateBleedResidues`, are judged by the first rise alone: where the
/// picked start was tried there too, three taps of the corpus's `loudspeaker-aac` were lost.)
func clickStart(near onset: Onset, clickTimes: [Seconds], lead: Seconds) -> Int? {
    clickStart(at: onset.precursorTime ?? onset.time, clickTimes: clickTimes, lead: lead)
}

/// The index of the first click (of `clickTimes`, ascending) that starts from
/// ``clickResidueWindow`` before `time` to `lead` after it, if any: `time` lies up to `lead`
/// ahead of the click's start or up to ``clickResidueWindow`` after it.
func clickStart(at time: Seconds, clickTimes: [Seconds], lead: Seconds) -> Int? {
    let next = clickTimes.firstIndex(notBelow: time - clickResidueWindow)
    return next < clickTimes.count && clickTimes[next] - time <= lead ? next : nil
}

/// How far up the grid members' start offsets from their lines (ascending) the start of a click
/// heard alone is read: a codec's pre-echo and a sound heard as one with the click only move a
/// start earlier, so the later offsets are the clicks' own.
let clickStartQuantile = 0.75

/// The heard `clicks` (probe onsets in time order; `isMember`: whether each is one of `grid`'s
/// own members; `grid` found by the clicks' peaks) with every member that starts more than the
/// codec's pre-echo lead (``StimulusBleedRemoval/codecPreEchoLead``) ahead of where the members
/// start (``clickStartQuantile`` of their offsets from the grid's lines) moved there, its
/// precursor dropped; in time order.
///
/// A grid found by the clicks' peaks (``StimulusLockedOnsets/gridOfPeaks(_:levels:minimumCount:)``:
/// loud clicks whose starts a codec smeared) takes any probe onset that peaks with a click,
/// and a tap a few milliseconds before a loud click is heard as one sound with it: its onset
/// starts at the tap and peaks with the click. Left there, the heard click's start was the
/// tap's, and the tap's own onset after the subtraction, starting at it and far weaker than
/// the click, was taken for the click's residue (`separateClickResidues`; 14 taps 2–11 ms
/// before loud clicks through a loudspeaker and AAC on the robustness corpus's eight dev
/// splits, of which this recovers 7). A grid found by the starts keeps its members near its
/// lines by their starts and is not passed here.
func clickStartsPastEarlierSounds(_ clicks: [Onset], isMember: [Bool], grid: StimulusLockedOnsets.Grid,
                                  sampleRate: Double) -> [Onset] {
    precondition(isMember.count == clicks.count, "one flag per click")
    let offsets = clicks.indices.filter { isMember[$0] }.map { clicks[$0].time - grid.line(nearest: clicks[$0].time) }.sorted()
    guard !offsets.isEmpty else { return clicks }
    let start = quantile(offsets, clickStartQuantile)
    return clicks.indices.map { index in
        var click = clicks[index]
        let point = grid.line(nearest: click.time)
        guard isMember[index], click.time - point < start - StimulusBleedRemoval.codecPreEchoLead else { return click }
        // Not past the click's own peak, should the grid's lines lie before the peaks.
        click.frame = Int((min(point + start, click.peakTime) * sampleRate).rounded())
        click.time = Double(click.frame) / sampleRate
        click.precursorTime = nil
        return click
    }.sorted { $0.time < $1.time }
}

/// Indices of the `probe` onsets off the grid (not among `members`) within
/// ``tapOnClickMarginDB`` of the members' median level: where a grid at a multiple of the beat
/// leaves the other clicks.
func offGridOnsetsAtClickLevel(_ probe: [Onset], members: [Int]) -> [Int] {
    guard let level = Summary(members.map { probe[$0].strength })?.median else { return [] }
    let onGrid = Set(members)
    return probe.indices.filter { !onGrid.contains($0) && abs(probe[$0].strength - level) <= tapOnClickMarginDB }
}

/// Those of `offGrid` (indices of `probe` onsets off the grid at the clicks' level,
/// ``offGridOnsetsAtClickLevel(_:members:)``) heard at the points a subdivided template added
/// between its grid's (``BleedTemplate/subdivided(segment:)``; none when the template's period
/// is the grid's): those starting from ``smearedClickLead`` before such a point to 1 ms (the
/// grid search's widest tolerance) after it. Their starts were smeared off the grid (that is
/// why the grid missed them); noted as heard clicks, what the subtraction leaves of them is
/// told from taps as at the others.
func clicksBetween(_ probe: [Onset], offGrid: [Int], template: BleedTemplate, gridPeriod: Seconds, sampleRate rate: Double) -> [Int] {
    let divisor = Int((gridPeriod * rate / template.periodFrames).rounded())
    guard divisor > 1 else { return [] }
    let tolerance = 0.001
    return offGrid.filter { index in
        // The next point of the finer grid at or after the onset's start (less the tolerance).
        let frame = probe[index].time * rate
        let k = ((frame - tolerance * rate - template.phaseFrames) / template.periodFrames).rounded(.up)
        let ahead = (template.phaseFrames + k * template.periodFrames - frame) / rate
        return Int(k) % divisor != 0 && ahead <= smearedClickLead
    }
}

/// How far ahead of a click a lossy codec's pre-echo can start it, seconds: AAC spreads a
/// click's quantisation noise over the frame it falls in (1024 samples, 21 ms at 48 kHz), and
/// the detector heard the clicks rise 4–8.5 ms early on seed 103's `loudspeaker-aac-dev-2`
/// (the template's points, fitted to such starts, lie 1–5 ms after them there).
let smearedClickLead: Seconds = 0.012

/// How close to a heard click's start a residue of it starts, seconds.
let clickResidueWindow: Seconds = 0.001
/// How much weaker than the click its residue is at least, dB.
let clickResidueMarginDB = 8.0

/// Sets aside the onsets on a click grid (used when the clicks could not be subtracted),
/// except those clearly louder than the grid's clicks.
///
/// A metronome's bleed reaches the microphone at one level (its clicks' levels spread by a few
/// tenths of a dB); an onset on the grid more than ``tapOnClickMarginDB`` over the clicks'
/// median level is a tap that landed on a click, and the sound there is mostly the tap.
func setAsideStimulus(_ onsets: [Onset], cancelledClicks: Int) -> TapOnsetDetection {
    let locked = StimulusLockedOnsets.indices(in: onsets.map(\.time), levels: onsets.map(\.strength))
    let clickLevel = Summary(locked.map { onsets[$0].strength })?.median
    let clicks = Set(locked.filter { onsets[$0].strength <= clickLevel! + tapOnClickMarginDB })
    return TapOnsetDetection(onsets: onsets.indices.filter { !clicks.contains($0) }.map { onsets[$0] },
                             stimulusOnsets: clicks.sorted().map { onsets[$0] }, cancelledClicks: cancelledClicks)
}

/// Streams `source` through `filter` into `buffer` (grown when a block needs more), calling
/// `body` with each block as read and as filtered: the passes over a recording.
private func forEachFilteredBlock(of source: some AudioSource, through filter: inout HighPassFilter, buffer: inout [Float],
                                  _ body: (_ block: UnsafeBufferPointer<Float>, _ filtered: UnsafeBufferPointer<Float>) -> Void)
    throws(AudioError) {
    try source.forEachBlock { block in
        if buffer.count < block.count { buffer = [Float](repeating: 0, count: block.count) }
        buffer.withUnsafeMutableBufferPointer { filter.process(block, into: $0.baseAddress!) }
        buffer.withUnsafeBufferPointer { body(block, UnsafeBufferPointer(rebasing: $0[0..<block.count])) }
    }
}

/// How far under the loudest sounds' level clicks set aside without subtraction may lie and
/// still be noted in a second pass, dB: a tap's tail falls 5–25 dB within the 40 ms its decay
/// is read over, so a fainter click does not raise it.
let loudClickMarginDB = 10.0
/// The quantile of the onsets' levels that stands for the loudest sounds (the taps, in a
/// tapping recording; quieter sounds of music or speech outnumber them in some).
let loudestSoundsQuantile = 0.9

/// How much louder than a grid's clicks an onset on the grid is a tap, dB.
let tapOnClickMarginDB = 3.0
