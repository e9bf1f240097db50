import TapMetronome

/// An exact fraction on 128-bit parts, for recomputing live click positions from the rules
/// alone, independently of the renderer's arithmetic.
struct Exact: Comparable {
    let n: Int128
    let d: Int128

    init(_ n: Int128, _ d: Int128 = 1) {
        let divisor = Exact.gcd(n, d), sign: Int128 = d < 0 ? -1 : 1
        self.n = sign * n / divisor
        self.d = sign * d / divisor
    }
    init(_ value: Rational) { self.init(Int128(value.numerator), Int128(value.denominator)) }
    init(_ value: Int) { self.init(Int128(value)) }

    static func + (a: Exact, b: Exact) -> Exact {
        let g = gcd(a.d, b.d)
        return Exact(a.n * (b.d / g) + b.n * (a.d / g), a.d / g * b.d)
    }
    static func - (a: Exact, b: Exact) -> Exact { a + Exact(-b.n, b.d) }
    static func * (a: Exact, b: Exact) -> Exact {
        let g1 = gcd(a.n, b.d), g2 = gcd(b.n, a.d)
        return Exact((a.n / g1) * (b.n / g2), (a.d / g2) * (b.d / g1))
    }
    static func / (a: Exact, b: Exact) -> Exact { a * Exact(b.d, b.n) }
    static func < (a: Exact, b: Exact) -> Bool { (a - b).n < 0 }

    var floor: Int128 { n >= 0 ? n / d : -((-n + d - 1) / d) }
    /// The nearest integer, halves up.
    var rounded: Int128 { (self + Exact(1, 2)).floor }

    static func gcd(_ a: Int128, _ b: Int128) -> Int128 {
        var (x, y) = (a.magnitude, b.magnitude)
        while y != 0 { (x, y) = (y, x % y) }
        return x == 0 ? 1 : Int128(x)
    }
}

/// One version of the settings as the specification sees it: the bar's length and each click's
/// offset in frames, exact. The offsets come from the offline schedule's exact click times at
/// 60 beat units a minute (one second a beat, whatever the tempo, so even tempo fractions with
/// 18-digit parts cannot overflow it), scaled by 60 / tempo.
struct LivePlan {
    let settings: MetronomeSettings
    let sounds: ClickSounds
    let bar: Exact
    let clicks: [(offset: Exact, click: ClickEvent)]

    init(_ settings: MetronomeSettings, sounds: ClickSounds, rate: Int) throws {
        var slow = settings
        slow.tempo = Rational(60)
        let schedule = try ClickSchedule(slow, sampleRate: rate)
        let scale = Exact(60 * rate) / Exact(settings.tempo)
        self.settings = settings
        self.sounds = sounds
        bar = Exact(schedule.time(ofWholeNotes: settings.meter.barLength)) * scale
        // A click's exact place in the bar (the model's settings are straight, swing 1/2).
        precondition(settings.swing == Rational(1, 2))
        let unit = settings.beatUnit.wholeNotes
        clicks = schedule.clicks(inBars: 0..<1).map { click in
            let beats = Rational(click.beat - 1) + (click.of == 0 ? Rational(0) : Rational(Int64(click.step), Int64(click.of)))
            return (Exact(schedule.time(ofWholeNotes: unit * beats)) * scale, click)
        }
    }

    /// The clicks whose frames fall in `start ..< end`, for bars starting at `anchor` (and
    /// every bar length after and before it, back to bar 1).
    func clicks(from start: Int, to end: Int, anchor: LiveAnchor, version: Int) -> [LiveClickEvent] {
        guard start < end else { return [] }
        var result: [LiveClickEvent] = []
        // From a bar whose clicks all fall before `start`, but never before bar 1.
        var bar = max(((Exact(start - anchor.origin - 1) - anchor.offset) / self.bar).floor - 1, Int128(1 - anchor.bar))
        while true {
            let barStart = anchor.offset + Exact(bar) * self.bar
            guard barStart < Exact(end - anchor.origin) - Exact(1, 2) else { break }
            for (offset, click) in clicks {
                let frame = anchor.origin + Int((barStart + offset).rounded)
                guard frame >= start && frame < end else { continue }
                result.append(LiveClickEvent(frame: frame, bar: anchor.bar + Int(bar), beat: click.beat, step: click.step,
                                             of: click.of, kind: click.kind, volume: click.volume,
                                             settingsVersion: version, played: click.volume > 0))
            }
            bar += 1
        }
        return result
    }
}

/// A bar start, `origin + offset` frames, and its 1-based number.
struct LiveAnchor {
    var origin: Int
    var offset: Exact
    var bar: Int

    /// The rule for a change at `frame`: the bar in progress there keeps its number and the
    /// fraction of it elapsed; the new bar start is snapped to 1/1024 frame (halves up).
    func carried(at frame: Int, from old: LivePlan, to new: LivePlan) -> LiveAnchor {
        let since = Exact(frame - origin) - offset
        let bars = (since / old.bar).floor
        let elapsed = since - Exact(bars) * old.bar
        let snapped = (Exact(1_024) * elapsed * new.bar / old.bar).rounded
        return LiveAnchor(origin: frame, offset: Exact(-snapped, 1_024), bar: bar + Int(bars))
    }
}
