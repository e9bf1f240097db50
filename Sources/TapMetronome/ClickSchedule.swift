/// One click of a schedule.
public struct ClickEvent: Sendable, Hashable {
    /// The frame it starts at: its exact time rounded to a frame once.
    public var frame: Int
    /// Its time in seconds from the start, to double precision (the frame is exact).
    public var time: Double
    /// 1-based bar.
    public var bar: Int
    /// 1-based beat within the bar.
    public var beat: Int
    /// Which part of the beat: 0 on the beat; `step/of` for a subdivision click (the coarsest
    /// active subdivision it belongs to), e.g. 1 of 3 for the first triplet after the beat.
    public var step: Int
    /// The subdivision `step` counts in (0 on the beat).
    public var of: Int
    /// What it is.
    public var kind: ClickKind
    /// Its loudness, 0…1: the kind's volume (and the subdivision's) times the master volume.
    public var volume: Float
    /// False for a click that is scheduled but silent (a muted bar).
    public var played: Bool

    /// `0` on the beat, else `step/of` (`1/3`).
    public var subdivisionLabel: String { of == 0 ? "0" : "\(step)/\(of)" }
}

/// Every click of a steady metronome, bar by bar, at a sample rate: positions are exact
/// fractions of a whole note, turned into a frame by one rounding of their exact time.
public struct ClickSchedule: Sendable {
    /// The settings the clicks follow.
    public let settings: MetronomeSettings
    /// Frames per second of the click frames.
    public let sampleRate: Int
    /// The clicks of one bar.
    let pattern: [PatternClick]

    /// The schedule of `settings` at `sampleRate` frames per second.
    public init(_ settings: MetronomeSettings, sampleRate: Int) throws(MetronomeError) {
        try settings.validate()
        guard (1_000...768_000).contains(sampleRate) else { throw .outOfRange("sample rate", "\(sampleRate)", "1000–768000") }
        self.settings = settings
        self.sampleRate = sampleRate
        pattern = PatternClick.bar(of: settings)
    }

    /// The exact time, in seconds, of a position in whole notes from the start.
    public func time(ofWholeNotes position: Rational) -> Rational {
        // seconds = position / (tempo × unit) × 60
        position / (settings.tempo * settings.beatUnit.wholeNotes) * Rational(60)
    }

    /// The frame of a position in whole notes: its exact time × rate, rounded once (halves up).
    public func frame(ofWholeNotes position: Rational) -> Int { frame(ofTime: time(ofWholeNotes: position)) }

    /// An exact time in seconds × rate, rounded once (halves up).
    private func frame(ofTime seconds: Rational) -> Int {
        roundedProduct(Int128(seconds.numerator) * Int128(sampleRate), Int128(seconds.denominator))
    }

    /// The frame at which bar `bar` (0-based) starts.
    public func frame(ofBar bar: Int) -> Int { frame(ofWholeNotes: settings.meter.barLength * Rational(bar)) }

    /// The clicks of bars `bars` (0-based), in order.
    public func clicks(inBars bars: Range<Int>) -> [ClickEvent] {
        var result: [ClickEvent] = []
        result.reserveCapacity(bars.count * pattern.count)
        for bar in bars {
            let start = settings.meter.barLength * Rational(bar)
            for click in pattern {
                let position = start + click.offset
                let time = time(ofWholeNotes: position)
                result.append(ClickEvent(frame: frame(ofTime: time), time: time.doubleValue,
                                         bar: bar + 1, beat: click.beat, step: click.step, of: click.of,
                                         kind: click.kind, volume: click.volume, played: true))
            }
        }
        return result
    }
}
