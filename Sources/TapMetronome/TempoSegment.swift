import Foundation

/// A stretch of a program at one tempo, or with the tempo changing linearly in time from
/// `tempo` to `endTempo` (an accelerando or ritardando). Positions are in whole notes from the
/// start of the program; times in seconds.
///
/// A steady segment puts position p at `startTime + (p − start) · 60 / (tempo · unit)`. In a
/// ramp the tempo is T(t) = T₀ + (T₁ − T₀)·t/D, so b beats take t(b) = 120·b / (T₀ + T(b))
/// seconds with T(b) = √(T₀² + (T₁² − T₀²)·b/N), N the segment's beats and D = 120·N/(T₀ + T₁)
/// its duration: the exact integral of the tempo, solved for time.
struct TempoSegment: Sendable {
    /// First and end position (whole notes).
    let start: Rational
    let end: Rational
    /// Exact time of `start`, seconds.
    let startTime: Rational
    /// Beat units per minute at `start` and at `end`.
    let tempo: Rational
    let endTempo: Rational
    /// The beat unit, whole notes.
    let unit: Rational
    /// Beats in the segment.
    let beats: Rational
    /// Seconds from `start` to `end`.
    let duration: Rational
    /// Seconds per whole note (steady segments).
    let secondsPerWholeNote: Rational

    var isRamp: Bool { tempo != endTempo }

    init(start: Rational, end: Rational, startTime: Rational, tempo: Rational, endTempo: Rational, unit: Rational,
         what: @autoclosure () -> String) throws(MetronomeError) {
        self.start = start
        self.end = end
        self.startTime = startTime
        self.tempo = tempo
        self.endTempo = endTempo
        self.unit = unit
        beats = try exact(end.minus(start).flatMap { $0.dividedBy(unit) }, what())
        secondsPerWholeNote = try exact(Rational(60).dividedBy(try exact(tempo.times(unit), what())), what())
        if tempo == endTempo {
            duration = try exact(beats.times(Rational(60)).flatMap { $0.dividedBy(tempo) }, what())
        } else {
            let sum = try exact(tempo.plus(endTempo), what())
            duration = try exact(beats.times(Rational(120)).flatMap { $0.dividedBy(sum) }, what())
        }
    }

    /// Exact end time.
    func endTime() throws(MetronomeError) -> Rational { try exact(startTime.plus(duration), "the end of a section") }

    /// The exact time of a position in a steady segment, or `nil` if it needs wider fractions.
    func steadyTime(of position: Rational) -> Rational? {
        position.minus(start).flatMap { $0.times(secondsPerWholeNote) }.flatMap { $0.plus(startTime) }
    }

    /// The time of a position in seconds, to double precision (for display and as the
    /// first guess of the exact frame).
    func approximateTime(of position: Rational) -> Double {
        let b = (position - start).doubleValue / unit.doubleValue
        guard isRamp else { return startTime.doubleValue + b * 60 / tempo.doubleValue }
        let t0 = tempo.doubleValue, t1 = endTempo.doubleValue
        let tempoThere = (t0 * t0 + (t1 * t1 - t0 * t0) * b / beats.doubleValue).squareRoot()
        return startTime.doubleValue + 120 * b / (t0 + tempoThere)
    }

    /// The frame of a position, its exact time shifted by `offset` seconds, times `rate`,
    /// rounded once (halves up).
    func frame(of position: Rational, offset: Rational, rate: Int) -> Int {
        if !isRamp, let time = steadyTime(of: position).flatMap({ $0.plus(offset) }) {
            return roundedProduct(Int128(time.numerator) * Int128(rate), Int128(time.denominator))
        }
        // The nearest frame to a double-precision time, corrected by exact comparisons with
        // the frame boundaries (round(x) = j exactly when j − ½ ≤ x < j + ½).
        var frame = Int(((approximateTime(of: position) + offset.doubleValue) * Double(rate)).rounded())
        if reaches(frame, position: position, offset: offset, rate: rate) {
            while reaches(frame + 1, position: position, offset: offset, rate: rate) { frame += 1 }
        } else {
            repeat { frame -= 1 } while !reaches(frame, position: position, offset: offset, rate: rate)
        }
        return frame
    }

    /// Whether the exact time of `position` plus `offset` is at least (frame − ½) / rate, in
    /// arithmetic wide enough for any program.
    private func reaches(_ frame: Int, position: Rational, offset: Rational, rate: Int) -> Bool {
        let boundary = WideFraction(numerator: WideInteger(2 * Int64(frame) - 1), denominator: WideInteger(2 * Int64(rate)))
        // s: how long after the segment's start the boundary lies.
        let s = boundary - WideFraction(startTime) - WideFraction(offset)
        guard s.isPositive else { return true }
        let b = WideFraction(position - start) * WideFraction(Rational(unit.denominator, unit.numerator))
        guard isRamp else {
            // 60·b/T ≥ s
            return !(WideFraction(Rational(60)) * b * WideFraction(Rational(tempo.denominator, tempo.numerator)) < s)
        }
        guard !(WideFraction(duration) < s) else { return false }
        // 120·b / (T₀ + √Q) ≥ s  ⇔  R = 120·b − s·T₀ ≥ 0 and R² ≥ s²·Q, with Q = T(b)².
        let t0 = WideFraction(tempo), t1 = WideFraction(endTempo)
        let r = WideFraction(Rational(120)) * b - s * t0
        guard !r.isNegative else { return false }
        let q = t0 * t0 + (t1 * t1 - t0 * t0) * b * WideFraction(Rational(beats.denominator, beats.numerator))
        return !(r * r < s * s * q)
    }
}
