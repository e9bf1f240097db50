import Foundation
import TapAudio

/// Finds where a transient starts inside a short stretch of signal with the Akaike
/// Information Criterion picker: the split point that best explains the stretch as
/// low-variance noise followed by higher-variance signal (Maeda 1985, "A method for reading
/// and checking phase times in autoprocessing system of seismic wave data"; Sleeman & van
/// Eck 1999, Phys. Earth Planet. Inter. 113). Unlike a threshold crossing, its answer does
/// not move later as the transient gets quieter.
enum StartPicker {
    /// How much more power the stretch after a second change point must carry than the stretch
    /// between the two points for the first to count as a precursor, dB: the loudest codec
    /// pre-echo measured, AAC at 48 kbit/s, stands a median 16 dB under the tap
    /// (`Scripts/codec-smear`); a lead-in 10–12 dB fainter is part of the sound and stays,
    /// unless it holds its level for 4 ms or more (``pastSteadyLead(_:rise:window:shortest:longest:)``).
    static let precursorJumpDB = 16.0
    /// The same, for a lead-in that starts inside a subtracted click: what is left of a click
    /// after subtraction (a frame's misalignment leaves a 1 kHz burst about 18 dB down) is no
    /// part of the tap that sounds on it, dB.
    static let residueJumpDB = 10.0

    /// The start of the transient, stepping over what leads it at a far lower level: when the
    /// stretch after the first change point holds a second one, and the power there is at
    /// least ``precursorJumpDB`` over the power between the two, the sound begins at the
    /// second. A lossy codec (AAC, MP3, Opus) or an FFT denoiser smears quantisation noise up
    /// to one transform block ahead of a transient (pre-echo), 16–25 dB under it; the first
    /// change point finds where that noise starts, milliseconds early.
    /// Returns the start and, when one was stepped over, where the precursor began.
    ///
    /// `jumpDB` is ``precursorJumpDB`` by default; where the first change point lies inside a
    /// subtracted metronome click, what leads the sound is the click's residue, and
    /// ``residueJumpDB`` is enough (`OnsetDetector`).
    static func pickSkippingPrecursor(_ samples: UnsafeBufferPointer<Float>, jumpDB: Double = precursorJumpDB) -> (start: Int, precursor: Int?) {
        skippingPrecursor(changePoints(samples), jumpDB: jumpDB)
    }

    /// ``pickSkippingPrecursor(_:jumpDB:)`` on change points already found.
    static func skippingPrecursor(_ points: ChangePoints, jumpDB: Double = precursorJumpDB) -> (start: Int, precursor: Int?) {
        guard let second = points.second, second.riseDB >= jumpDB else { return (points.first, nil) }
        return (points.first + second.offset, points.first)
    }

    /// The first change point of a stretch, and the next one after it (``riseAtChangePoint(_:)``
    /// of the stretch from the first on).
    typealias ChangePoints = (first: Int, second: (offset: Int, riseDB: Double)?)

    static func changePoints(_ samples: UnsafeBufferPointer<Float>) -> ChangePoints {
        let first = pick(samples)
        return (first, riseAtChangePoint(UnsafeBufferPointer(rebasing: samples[first...])))
    }

    /// The change point of `samples` (a stretch that starts at an earlier change point) and
    /// how far the power from it on rises over the power before it, dB: the same length on
    /// both sides of the point, 8 samples at least after it, as far as the stretch reaches.
    /// Nil for fewer than 16 samples.
    static func riseAtChangePoint(_ samples: UnsafeBufferPointer<Float>) -> (offset: Int, riseDB: Double)? {
        guard samples.count >= 16 else { return nil }
        let point = pick(samples)   // at least `minimumSegment`: never 0
        let after = meanSquare(samples, point..<min(samples.count, point + max(point, 8))) + 1e-30
        return (point, 10 * log10(after / (meanSquare(samples, 0..<point) + 1e-30)))
    }

    /// The mean of the squares of `samples` over `range` (0 for an empty range).
    static func meanSquare(_ samples: UnsafeBufferPointer<Float>, _ range: Range<Int>) -> Double {
        var sum = 0.0
        for index in range { sum += Double(samples[index]) * Double(samples[index]) }
        return sum / Double(max(range.count, 1))
    }

    /// How far a tap's peak must stand over the noise floor (``Onset/snrDB``) for its start to
    /// be looked for past a suppressor's spread (``pastSpread(_:window:minimumMove:)``), dB. An
    /// FFT noise suppressor leaves the background tens of decibels under the taps (the corpus's
    /// `gated` taps stand 45 dB or more over it, 1188 of 1199; the taps of the corpus's other
    /// conditions and of suites A–D rarely do), and its gains spread each tap over the
    /// suppressor's frame.
    static let spreadMinimumSNRDB = 45.0
    /// Where the sound begins past the spread: at the first window whose power comes within
    /// this much of the loudest window of the next ``spreadSpan``, dB. A tap's own start stands
    /// a median 13 dB under the loudest 0.125 ms window of its first 2 ms (the corpus's
    /// `baseline` taps, dev splits: 9–18 dB between the quartiles); 12, 15, 18 and 20 dB were
    /// tried on the dev splits and 15 kept.
    static let spreadReachDB = 15.0
    /// The start is looked past only where the power over the shortest move from it lies this
    /// far or further under the loudest window, dB: the spread begins 30–40 dB under a tap,
    /// while three in four of the corpus's `baseline` taps start within 18 dB of the loudest
    /// 0.125 ms window of their first 2 ms (dev splits); none, 25 and 30 dB were tried.
    static let spreadStartDepthDB = 20.0
    /// The window the power is read in, seconds (at least two samples: 0.25 ms at 8 kHz).
    static let spreadWindow: Seconds = 0.000125
    /// How far after the picked start the loudest window is sought, seconds.
    static let spreadSpan: Seconds = 0.004
    /// The shortest move worth making, seconds (two windows at 44.1 and 48 kHz): a tap that
    /// rises within a window or so is left where the picker put it. The start's level is read
    /// over this span too.
    static let spreadMinimumMove: Seconds = 0.00025

    /// ``spreadWindow``, ``spreadSpan`` and ``spreadMinimumMove`` in samples at `sampleRate`
    /// (44.1 kHz: 6, 176 and 12; 48 kHz: 6, 192 and 12; 8 kHz: 2, 32 and 2).
    static func spreadFrames(sampleRate: Double) -> (window: Int, span: Int, minimumMove: Int) {
        (max(2, Int((spreadWindow * sampleRate).rounded())), Int((spreadSpan * sampleRate).rounded()),
         Int((spreadMinimumMove * sampleRate).rounded(.up)))
    }

    /// How many samples after `samples[0]` (a picked start, followed by up to ``spreadSpan`` of
    /// signal) the sound itself begins, where what leads it rises from far under it: an FFT
    /// noise suppressor's gains spread a tap's energy over the suppressor's frame, so that the
    /// power rises smoothly for 1.5–2 ms before the tap, with no step at the true
    /// start for ``pickSkippingPrecursor(_:jumpDB:)`` to find (Docs/robustness.md, "What makes
    /// `gated` taps early"). The sound begins at the first `window`-sample window whose power
    /// comes within ``spreadReachDB`` of the loudest (the window's middle), where the power
    /// over the first `minimumMove` samples lies ``spreadStartDepthDB`` or more under the
    /// loudest and the move is `minimumMove` samples or more; otherwise nil.
    static func pastSpread(_ samples: UnsafeBufferPointer<Float>, window: Int, minimumMove: Int) -> Int? {
        guard window >= 1, samples.count > 2 * window else { return nil }
        // The mean power of each window, sliding by one sample.
        var powers: [Double] = []
        powers.reserveCapacity(samples.count - window + 1)
        var sum = 0.0
        for index in samples.indices {
            sum += Double(samples[index]) * Double(samples[index])
            if index >= window { sum -= Double(samples[index - window]) * Double(samples[index - window]) }
            if index >= window - 1 { powers.append(sum / Double(window)) }
        }
        // The level at the start over the shortest move (a window's power alone scatters by
        // several decibels on a noise-like contact burst).
        let startPower = meanSquare(samples, 0..<min(max(minimumMove, window), samples.count))
        guard let loudest = powers.max(), loudest > 0, startPower <= loudest * pow(10, -spreadStartDepthDB / 10),
              let reached = powers.firstIndex(where: { $0 >= loudest * pow(10, -spreadReachDB / 10) }) else { return nil }
        let move = reached + window / 2
        return move >= minimumMove ? move : nil
    }

    /// How much more power a sound must carry than the steady sound it rises out of for the
    /// steady one to count as another sound, dB (``pastSteadyLead(_:rise:window:shortest:longest:)``).
    /// 6 dB (with a 2 ms shortest lead) and 8 dB were tried on the robustness corpus's dev splits
    /// (Docs/robustness.md, "A tap a few milliseconds after a click nobody heard").
    static let steadyLeadJumpDB = 8.0
    /// How much the power of a steady lead may vary between its windows, dB: a metronome
    /// click's tone holds its level within 3–8 dB over the milliseconds before a tap, while
    /// a tap's contact burst falls away from its first peak. 6, 8 and 10 dB were tried. The
    /// margin is small for a click that rises over 1.5–2 ms (its second window still rises)
    /// and for a tone under about 500 Hz (a 0.5 ms window's power ripples with its phase by
    /// 6–8 dB; the detector's 400 Hz high-pass takes most of such a tone away).
    static let steadyLeadFlatnessDB = 8.0
    /// The window a lead's steadiness is read in, seconds.
    static let steadyLeadWindow: Seconds = 0.0005
    /// The shortest lead stepped over, seconds: a tap's own build-up can hold its level for
    /// 2–3 ms and then rise 6 dB or more (2 ms moved such taps late on the dev splits). The
    /// longest is the tracker's refractory period (``OnsetDetectorConfiguration/refractoryPeriod``,
    /// 10 ms by default): a sound starting later than that after another is an event of its own.
    static let steadyLeadShortest: Seconds = 0.004

    /// ``steadyLeadWindow`` and ``steadyLeadShortest`` in samples at `sampleRate` (44.1 kHz: 22
    /// and 176).
    static func steadyLeadFrames(sampleRate: Double) -> (window: Int, shortest: Int) {
        (max(2, Int((steadyLeadWindow * sampleRate).rounded())), Int((steadyLeadShortest * sampleRate).rounded()))
    }

    /// How many samples after `samples[0]` (a picked start, followed by the rest of the
    /// sound's rise) a louder sound begins that rises out of a steady one: a tap a few
    /// milliseconds after a metronome click that was not heard as one (no grid of clicks was
    /// found: a gate let through only the clicks beside a tap, or speech covered the rest),
    /// whose start the picker put at the click's. `rise` is ``riseAtChangePoint(_:)`` of
    /// `samples`: its point must lie `shortest` to `longest` samples on and rise
    /// ``steadyLeadJumpDB`` or more, and what lies before it must be steady: its
    /// `window`-sample windows, from the second on (the first holds the lead's own rise),
    /// within ``steadyLeadFlatnessDB`` of each other. Nil otherwise.
    static func pastSteadyLead(_ samples: UnsafeBufferPointer<Float>, rise: (offset: Int, riseDB: Double)?,
                               window: Int, shortest: Int, longest: Int) -> Int? {
        guard window >= 1, let rise, rise.offset >= shortest, rise.offset <= longest, rise.riseDB >= steadyLeadJumpDB else { return nil }
        var lowest = Double.infinity, highest = -Double.infinity, windows = 0
        var windowStart = window
        while windowStart + window <= rise.offset {
            let power = meanSquare(samples, windowStart..<(windowStart + window))
            lowest = min(lowest, power)
            highest = max(highest, power)
            windows += 1
            windowStart += window
        }
        guard windows >= 2, highest <= lowest * pow(10, steadyLeadFlatnessDB / 10) else { return nil }
        return rise.offset
    }

    /// Returns the index (into `samples`) of the first sample of the higher-variance segment.
    /// - Parameter minimumSegment: the least number of samples on either side.
    static func pick(_ samples: UnsafeBufferPointer<Float>, minimumSegment: Int = 4) -> Int {
        let count = samples.count
        guard count >= 2 * minimumSegment + 1 else { return count / 2 }
        // The energy before each index, summed in order; the last is the total.
        let energyBefore = [Double](unsafeUninitializedCapacity: count + 1) { buffer, initialized in
            var sum = 0.0
            buffer[0] = 0
            for index in 0..<count {
                sum += Double(samples[index]) * Double(samples[index])
                buffer[index + 1] = sum
            }
            initialized = count + 1
        }
        let total = energyBefore[count]
        let splits = minimumSegment...(count - minimumSegment)
        var best = minimumSegment
        var bestScore = Double.infinity
        func scoreExactly(_ split: Int) {
            let value = score(split: split, count: count, before: energyBefore[split], total: total) { Foundation.log($0) }
            if value < bestScore {
                bestScore = value
                best = split
            }
        }
        // Every split is scored exactly when the total is not finite.
        guard total.isFinite else {
            for split in splits { scoreExactly(split) }
            return best
        }
        // Two logarithms per split are most of the picker's cost, and only the splits whose
        // score comes near the lowest can be the answer. Two screens pass the rest over:
        //
        // 1. Runs of ``screenRun`` splits are bounded from below at once (`runLowerBound`):
        //    a run whose bound lies above the lowest score found at the runs' first splits
        //    holds no split that could be the answer.
        // 2. In the runs that remain, a cheap logarithm with a known error bound scores every
        //    split: one whose approximate score lies more than twice the bound above the
        //    lowest approximate score scores above the lowest exact score.
        //
        // The rest are scored exactly, in order, as if every split were: the answer is the
        // every-split answer (`StartPickerScreeningTests`). Each logarithm is off by at most
        // `ApproximateLog.bound` (with a wide margin for the exact one's rounding) and is
        // weighted by a segment's length: n1 + n2 = count for a split's score, up to count plus
        // the run's length for a run's bound (its two ends' weights), which twice the bound
        // covers.
        let bound = Double(count) * ApproximateLog.bound
        var kept: [ClosedRange<Int>] = []
        var approximate: [Double] = []   // the kept runs' splits, in order
        ApproximateLog.table.withUnsafeBufferPointer { table in
            let log = { (x: Double) in ApproximateLog.log(x, table: table) }
            var runs: [(splits: ClosedRange<Int>, lowerBound: Double)] = []
            runs.reserveCapacity(splits.count / screenRun + 1)
            var highest = Double.infinity   // the lowest exact score is at most this
            var first = splits.lowerBound
            while first <= splits.upperBound {
                let last = min(first + screenRun - 1, splits.upperBound)
                let lower = runLowerBound(first: first, last: last, count: count, before: energyBefore, total: total, log: log)
                runs.append((first...last, lower - 2 * bound))
                highest = min(highest, score(split: first, count: count, before: energyBefore[first], total: total, log: log) + 2 * bound)
                first = last + 1
            }
            for run in runs where run.lowerBound <= highest {
                kept.append(run.splits)
                for split in run.splits {
                    approximate.append(score(split: split, count: count, before: energyBefore[split], total: total, log: log))
                }
            }
        }
        let cutoff = (approximate.min() ?? .infinity) + 2 * bound
        var index = 0
        for run in kept {
            for split in run {
                if approximate[index] <= cutoff { scoreExactly(split) }
                index += 1
            }
        }
        return best
    }

    /// How many consecutive splits the first screen bounds at once.
    static let screenRun = 16

    /// A lower bound on the score of every split from `first` to `last`. The energy before a
    /// split only grows with it and the energy after only shrinks, so over the run the first
    /// segment holds at least the energy before `first` and the second at least the energy
    /// after `last`; and n · log(E/n + ε) is concave in n for a fixed E, so over a range of
    /// lengths its lowest value lies at one end.
    @inline(__always)
    private static func runLowerBound(first: Int, last: Int, count: Int, before: [Double], total: Double,
                                      log: (Double) -> Double) -> Double {
        let epsilon = 1e-20
        func term(_ length: Int, _ energy: Double) -> Double {
            let n = Double(length)
            return n * log(energy / n + epsilon)
        }
        let leastBefore = before[first], leastAfter = max(total - before[last], 0)
        return min(term(first, leastBefore), term(last, leastBefore))
            + min(term(count - first, leastAfter), term(count - last, leastAfter))
    }

    /// The AIC of splitting `count` samples of energy `total` at `split`, with `before` the
    /// energy of the samples before it: mean-zero variances (the input is high-passed), with a
    /// floor so digital silence does not produce log(0).
    @inline(__always)
    private static func score(split: Int, count: Int, before: Double, total: Double, log: (Double) -> Double) -> Double {
        let epsilon = 1e-20
        let n1 = Double(split), n2 = Double(count - split)
        return n1 * log(before / n1 + epsilon) + n2 * log(max(total - before, 0) / n2 + epsilon)
    }
}

/// The natural logarithm of a positive, finite, normal number to within ``bound``, without a
/// call into libm: the exponent times ln 2 plus the logarithm of the mantissa m in [1, 2),
/// interpolated linearly between 513 tabulated points 1/512 apart. The chord of log over
/// [c, c + h] lies within h²/(8c²) ≤ 1/(8 · 512²) ≈ 4.8 · 10⁻⁷ of it.
enum ApproximateLog {
    /// The largest error, with a margin of twenty over the interpolation's.
    static let bound = 1e-5

    /// log(1 + j/512) for j = 0…512.
    static let table: [Double] = (0...512).map { Foundation.log(1 + Double($0) / 512) }

    @inline(__always)
    static func log(_ x: Double, table: UnsafeBufferPointer<Double>) -> Double {
        let bits = x.bitPattern
        let exponent = Int(truncatingIfNeeded: bits >> 52) - 1023
        let mantissa = Double(bitPattern: bits & 0x000f_ffff_ffff_ffff | 0x3ff0_0000_0000_0000)
        // The tabulated point at or below the mantissa (its top 9 bits), and the distance to
        // it (exact: both lie in [1, 2)).
        let index = Int(truncatingIfNeeded: (bits >> 43) & 0x1ff)
        let point = Double(bitPattern: bits & 0x000f_f800_0000_0000 | 0x3ff0_0000_0000_0000)
        let slope = (table[index + 1] - table[index]) * 512
        return Double(exponent) * 0.693_147_180_559_945_3 + table[index] + (mantissa - point) * slope
    }
}
