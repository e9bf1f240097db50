import TapStatistics

/// Names of the independent random streams of a task. Each is derived from
/// (seed, user, track, stream[, index]) so that, e.g., switching the hum off or changing the
/// distractor rate leaves the taps bit-identical, and a tap's randomness does not depend on
/// how many taps came before it.
enum RandomStream: UInt64 {
    case task = 1, surface, hum, bleed, noise, distractors, distractorSound, tapEvents, tapSound
}

/// Top-level domains under the session seed: a task's key is (seed, .task, user, track), a
/// play order's (seed, .playOrder, user), so the two can never share a stream.
enum SeedDomain: UInt64 {
    case task = 1, playOrder
}

/// A tap as planned: its truth plus the sound to render (nil when silent).
struct PlannedTap: Sendable {
    var truth: TapTruth
    var sound: TapSound?
}

/// A distractor as planned.
struct PlannedDistractor: Sendable {
    var truth: DistractorTruth
    var sound: DistractorSound
}

/// Everything about a task except the audio: times, levels and sound parameters.
/// Planning is cheap (no per-sample work), so truths of very long tasks can be made alone.
struct TaskPlan: Sendable {
    var configuration: SimulationConfiguration
    var frameCount: Int
    var referencePower: Double
    var taps: [PlannedTap]
    var distractors: [PlannedDistractor]
    var hum: MainsHum?
    var bleed: MetronomeBleed?
    var bleedOnsetFrames: [Int]
    var noise: BackgroundNoise?
    var truth: TaskTruth

    init(user: Int, track: Int, configuration c: SimulationConfiguration, seed: UInt64) {
        do {
            try c.validate()
        } catch {
            preconditionFailure("invalid SimulationConfiguration: \(error)")
        }
        configuration = c
        let key = SeededGenerator.derivedSeed(
            seed, [SeedDomain.task.rawValue, UInt64(bitPattern: Int64(user)),
                   UInt64(bitPattern: Int64(track))])
        func stream(_ name: RandomStream, _ index: Int = 0) -> SeededGenerator {
            SeededGenerator(seed: key, labels: name.rawValue, UInt64(index))
        }
        let fs = c.sampleRate
        let frameCount = Int((c.taskDuration * fs).rounded())
        self.frameCount = frameCount
        let referencePower = PortableMath.power(decibels: c.noiseLevelDBFS)
        self.referencePower = referencePower

        // Stimulus: the task's tempo and mean asynchrony come from one stream, drawn first.
        var taskStream = stream(.task)
        let ioi = taskStream.nextUniform(in: c.tempoRange)
        let taskAsynchrony = taskStream.nextGaussian(mean: c.asynchronyMean,
                                                     standardDeviation: c.asynchronyMeanSpread)
        let clickTimes = Self.clickTimes(configuration: c, interOnsetInterval: ioi)

        // Taps and touches: each tap draws from streams of its own index.
        let (taps, spurious) = Self.planTaps(configuration: c, clickTimes: clickTimes, interOnsetInterval: ioi,
                                             taskAsynchrony: taskAsynchrony, frameCount: frameCount, stream: stream)
        self.taps = taps

        // Sounds other than taps, each from its own stream (drawn only if present).
        distractors = Self.planDistractors(configuration: c, taps: taps, frameCount: frameCount,
                                           stream: stream)
        var humStream = stream(.hum)
        hum = c.humLevelDB != nil ? MainsHum(nominalFrequency: c.humFrequency, generator: &humStream) : nil
        (bleed, bleedOnsetFrames) = Self.planBleed(configuration: c, clickTimes: clickTimes, frameCount: frameCount,
                                                   stream: stream)
        noise = c.includesBackgroundNoise
            ? BackgroundNoise(seed: SeededGenerator.derivedSeed(key, [RandomStream.noise.rawValue, 0]),
                              pinkFraction: c.pinkNoiseFraction, power: referencePower)
            : nil

        // What the app logged, and the latency summary.
        let logged = taps.compactMap(\.truth.touchTime) + spurious
        let latencies = taps.filter(\.truth.audible).compactMap(\.truth.latency)
        let (mean, sd) = Self.meanAndSD(latencies)
        truth = TaskTruth(
            sampleRate: fs, frameCount: frameCount, interOnsetInterval: ioi,
            asynchronyMean: taskAsynchrony, clickTimes: clickTimes, taps: taps.map(\.truth),
            spuriousTouchTimes: spurious, distractors: distractors.map(\.truth),
            bleedOnsetTimes: bleedOnsetFrames.map { Double($0) / fs },
            bleedLevelDB: bleed?.levelDB, humFrequency: hum?.fundamental,
            touches: logged.map(Self.roundedToMicroseconds).sorted(),
            trueLatencyMean: mean, trueLatencySD: sd)
    }

    /// The clicks, `ioi` apart from `firstClickTime`, up to `endMargin` before the task's end.
    private static func clickTimes(configuration c: SimulationConfiguration, interOnsetInterval ioi: Double) -> [Double] {
        var clickTimes: [Double] = []
        let lastClick = c.taskDuration - c.endMargin
        while true {
            let t = c.firstClickTime + Double(clickTimes.count) * ioi
            if t > lastClick { break }
            clickTimes.append(t)
        }
        return clickTimes
    }

    /// A tap on every click after the lead-in, until one would start past the recording: its
    /// asynchrony, sound and logged touch; and the spurious touches, in time order. Each tap's
    /// draws come from streams of its own index, so they do not depend on the taps before it.
    private static func planTaps(
        configuration c: SimulationConfiguration, clickTimes: [Double], interOnsetInterval ioi: Double,
        taskAsynchrony: Double, frameCount: Int, stream: (RandomStream, Int) -> SeededGenerator
    ) -> (taps: [PlannedTap], spurious: [Double]) {
        let fs = c.sampleRate
        var surfaceStream = stream(.surface, 0)
        let surface = TapSurface(generator: &surfaceStream)
        let latency = TouchLatency(configuration: c)
        var taps: [PlannedTap] = []
        var spurious: [Double] = []
        for clickIndex in clickTimes.indices.dropFirst(c.leadInClicks) {
            let index = clickIndex - c.leadInClicks
            var events = stream(.tapEvents, index)
            let asynchrony = taskAsynchrony + c.asynchronySD * events.nextGaussian()
            let snr = events.nextUniform(in: c.snrRange)
            let silent = events.nextBool(probability: c.silentTapProbability)
            let missed = events.nextBool(probability: c.missedTouchProbability)
            let delay = events.nextGaussian()
            let hasSpurious = events.nextBool(probability: c.spuriousTouchProbability)
            let spuriousPosition = events.nextUniform(in: 0.2...0.8)
            let spuriousDelay = events.nextGaussian()

            let startFrame = max(1, Int(((clickTimes[clickIndex] + asynchrony) * fs).rounded()))
            guard startFrame < frameCount else { break }
            let startTime = Double(startFrame) / fs
            var soundStream = stream(.tapSound, index)
            let sound = silent ? nil : surface.drawTap(generator: &soundStream, sampleRate: fs)
            // A touch after the recording has stopped is never logged.
            let loggedAt = latency.touchTime(frame: Double(startFrame), z: delay)
            let touch = missed || loggedAt > c.taskDuration ? nil : loggedAt
            let tap = TapTruth(
                clickIndex: clickIndex, startTime: startTime, startFrame: startFrame,
                endFrame: startFrame + (sound?.length(sampleRate: fs) ?? 0),
                asynchrony: startTime - clickTimes[clickIndex], audible: !silent,
                snrDB: silent ? nil : snr, touchTime: touch, latency: touch.map { $0 - startTime })
            taps.append(PlannedTap(truth: tap, sound: sound))
            if hasSpurious {
                let time = startTime + spuriousPosition * ioi
                let touch = latency.touchTime(frame: time * fs, z: spuriousDelay)
                if touch <= c.taskDuration { spurious.append(touch) }
            }
        }
        spurious.sort()
        return (taps, spurious)
    }

    /// The metronome bleeding into the microphone, if the configuration has it: its sound and
    /// the frames its clicks start at (`bleedDelay` after each click, within the recording).
    private static func planBleed(
        configuration c: SimulationConfiguration, clickTimes: [Double], frameCount: Int,
        stream: (RandomStream, Int) -> SeededGenerator
    ) -> (MetronomeBleed?, [Int]) {
        guard let range = c.bleedLevelRange else { return (nil, []) }
        let fs = c.sampleRate
        var bleedStream = stream(.bleed, 0)
        let bleed = MetronomeBleed(levelRange: range, generator: &bleedStream)
        let bleedOnsetFrames = clickTimes
            .map { Int((($0 + c.bleedDelay) * fs).rounded()) }
            .filter { $0 < frameCount }
        return (bleed, bleedOnsetFrames)
    }

    /// Poisson onsets (rate `distractorRate`) over the whole task; each candidate draws its
    /// kind, level and sound from its own stream, and is dropped if it starts within
    /// `distractorClearance` of a tap start.
    private static func planDistractors(
        configuration c: SimulationConfiguration, taps: [PlannedTap], frameCount: Int,
        stream: (RandomStream, Int) -> SeededGenerator
    ) -> [PlannedDistractor] {
        guard c.distractorRate > 0 else { return [] }
        let fs = c.sampleRate
        let tapStarts = taps.map(\.truth.startTime)
        var arrivals = stream(.distractors, 0)
        var planned: [PlannedDistractor] = []
        var time = 0.0
        var index = 0
        while true {
            time += -PortableMath.log(1 - arrivals.nextUniform()) / c.distractorRate
            let startFrame = max(1, Int((time * fs).rounded()))
            if startFrame >= frameCount { break }
            var soundStream = stream(.distractorSound, index)
            index += 1
            let kind: DistractorKind = soundStream.nextBool(probability: c.knockProbability)
                ? .knock : .cough
            let level = soundStream.nextUniform(in: c.distractorLevelRange)
            let sound = DistractorSound(kind: kind, levelDB: level, generator: &soundStream)
            let startTime = Double(startFrame) / fs
            if isNear(startTime, sortedTimes: tapStarts, within: c.distractorClearance) { continue }
            let truth = DistractorTruth(
                kind: kind, startTime: startTime, startFrame: startFrame,
                endFrame: startFrame + sound.length(sampleRate: fs), levelDB: level)
            planned.append(PlannedDistractor(truth: truth, sound: sound))
        }
        return planned
    }

    /// Whether any of `sortedTimes` lies strictly within `distance` of `time` (binary search).
    static func isNear(_ time: Double, sortedTimes: [Double], within distance: Double) -> Bool {
        guard distance > 0 else { return false }
        var low = 0
        var high = sortedTimes.count
        while low < high {
            let mid = (low + high) / 2
            if sortedTimes[mid] < time { low = mid + 1 } else { high = mid }
        }
        if low < sortedTimes.count && sortedTimes[low] - time < distance { return true }
        if low > 0 && time - sortedTimes[low - 1] < distance { return true }
        return false
    }

    /// Rounds to 1e-6 s, as a `%f`-formatted timestamp file stores it.
    static func roundedToMicroseconds(_ t: Double) -> Double {
        (t * 1e6).rounded() / 1e6
    }

    /// Mean (nil if empty) and sample SD (n − 1; nil below two values).
    static func meanAndSD(_ values: [Double]) -> (Double?, Double?) {
        guard !values.isEmpty else { return (nil, nil) }
        let mean = values.reduce(0, +) / Double(values.count)
        guard values.count > 1 else { return (mean, nil) }
        let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        return (mean, (squares / Double(values.count - 1)).squareRoot())
    }
}

/// The touch-latency model: `touch = ceil((t + d)/B)·B · (1 + drift)`, d ~ N(μ_d, σ_d)
/// clipped at 0, with B the buffer length (see ``SimulationConfiguration``).
struct TouchLatency: Sendable {
    var delayMean: Double
    var delaySD: Double
    var bufferFrames: Double
    var sampleRate: Double
    var driftFactor: Double

    init(configuration c: SimulationConfiguration) {
        delayMean = c.touchDelayMean
        delaySD = c.touchDelaySD
        bufferFrames = Double(c.bufferFrames)
        sampleRate = c.sampleRate
        driftFactor = 1 + c.clockDriftPPM * 1e-6
    }

    /// The logged time of an event at (possibly fractional) audio frame `frame`, for the
    /// standard normal draw `z`.
    func touchTime(frame: Double, z: Double) -> Double {
        let delay = max(0, delayMean + delaySD * z)
        let buffers = ((frame + delay * sampleRate) / bufferFrames).rounded(.up)
        return buffers * bufferFrames / sampleRate * driftFactor
    }
}
