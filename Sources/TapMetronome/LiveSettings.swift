/// One sound of a compiled setting: samples in raw memory, owned by its ``LiveSettings``.
struct LiveClip {
    let samples: UnsafeMutablePointer<Float>
    let count: Int
}

/// One click of a compiled bar: its exact offset from the bar's start in frames, as a
/// numerator over ``LiveSettings/denominator``, and what it is.
struct LiveClick {
    var offset: Int128
    var beat: Int
    var step: Int
    var of: Int
    var kind: ClickKind
    var volume: Float
}

/// Settings compiled for the audio thread: immutable once made, plain memory only (no class
/// references, no arrays), so the renderer reads them without reference counting.
///
/// Every position is a frame count as a numerator over one common ``denominator`` (a multiple
/// of 1024, so a bar start snapped to 1/1024 frame is exact too). A click of a bar starting at
/// `whole + fraction / denominator` then starts at frame
/// `whole + round((fraction + offset) / denominator)`: an addition and one rounding, no
/// reduction.
///
/// Made and freed on the control thread (``make(_:sounds:sampleRate:version:)``,
/// ``free(_:)``); the audio thread only counts its ``voices``.
struct LiveSettings {
    /// 0 for the settings a ``LiveMetronome`` starts with, then 1, 2, … per accepted change.
    let version: Int
    /// The common denominator of every position (a multiple of 1024).
    let denominator: Int128
    /// The bar's length in frames, over ``denominator``.
    let barLength: Int128
    /// The bar's length in frames as a reduced fraction, for carrying the phase across a change.
    let barNumerator: Int128
    let barDenominator: Int128
    /// The bar's clicks, in order (at least one: the accent).
    let clicks: UnsafeMutablePointer<LiveClick>
    let clickCount: Int
    let accent: LiveClip
    let beat: LiveClip
    let subdivision: LiveClip
    /// Voices still playing one of these sounds. Touched by the audio thread only, while the
    /// settings are current or retired; read by nobody else.
    var voices = 0

    /// The sound of a kind of click.
    @inline(__always)
    func clip(for kind: ClickKind) -> LiveClip {
        switch kind {
        case .accent: return accent
        case .beat: return beat
        case .subdivision: return subdivision
        }
    }
}

extension LiveSettings {
    /// Positions must stay below these, so that the renderer's sums never overflow 128 bits:
    /// rounding a click, `2 × (fraction + offset) + denominator`, is below
    /// `2 × (bar + denominator) + denominator < 2¹²⁷`. (Validated settings stay below about
    /// 2¹²⁰ even with a tempo fraction of 63-bit parts, a 99/1 bar of 1/99 beats at 1 BPM and
    /// 768 kHz; the check guards the arithmetic, not a range users can reach today.)
    static let denominatorLimit: Int128 = 1 << 120
    static let barLengthLimit: Int128 = 1 << 125
    /// A bar may last at most this many frames (so frame numbers fit `Int` and `Double`
    /// exactly); validated settings stay far below (the longest is about 2³⁹).
    static let barFramesLimit: Int128 = 1 << 52

    /// Validates and compiles `settings` at `sampleRate`, copying the three sounds into raw
    /// memory. Control thread; allocates. Free the result with ``free(_:)``.
    static func make(_ settings: MetronomeSettings, sounds: ClickSounds, sampleRate: Int,
                     version: Int) throws(MetronomeError) -> UnsafeMutablePointer<LiveSettings> {
        try settings.validate()
        let pattern = PatternClick.bar(of: settings)
        let tooLarge = MetronomeError.outOfRange(
            "tempo", "\(settings.tempo) BPM in \(settings.meter), beat unit \(settings.beatUnit), at \(sampleRate) Hz",
            "its exact frame positions must fit 128-bit arithmetic: use a tempo fraction with smaller parts")
        // Frames per whole note: 60 × rate / (tempo × beat unit), exactly.
        let unit = settings.beatUnit.wholeNotes, tempo = settings.tempo
        guard let top = Wide.product(Int128(60 * sampleRate) * Int128(tempo.denominator), Int128(unit.denominator)),
              let bottom = Wide.product(Int128(tempo.numerator), Int128(unit.numerator)) else { throw tooLarge }
        let common = Wide.gcd(top, bottom)
        let perWhole = (top / common, bottom / common)
        func frames(_ wholeNotes: Rational) throws(MetronomeError) -> (Int128, Int128) {
            guard let n = Wide.product(Int128(wholeNotes.numerator), perWhole.0),
                  let d = Wide.product(Int128(wholeNotes.denominator), perWhole.1) else { throw tooLarge }
            let g = Wide.gcd(n, d)
            return (n / g, d / g)
        }
        let bar = try frames(settings.meter.barLength)
        var offsets: [(Int128, Int128)] = []
        for click in pattern { offsets.append(try frames(click.offset)) }
        var denominator: Int128 = 1_024
        for fraction in [bar] + offsets {
            guard let lcm = Wide.lcm(denominator, fraction.1), lcm < denominatorLimit else { throw tooLarge }
            denominator = lcm
        }
        guard let barLength = Wide.product(bar.0, denominator / bar.1), barLength < barLengthLimit,
              bar.0 / bar.1 < barFramesLimit else { throw tooLarge }

        let clicks = UnsafeMutablePointer<LiveClick>.allocate(capacity: pattern.count)
        for (index, click) in pattern.enumerated() {
            let offset = offsets[index]
            (clicks + index).initialize(to: LiveClick(offset: offset.0 * (denominator / offset.1), beat: click.beat,
                                                      step: click.step, of: click.of, kind: click.kind,
                                                      volume: click.volume))
        }
        let compiled = UnsafeMutablePointer<LiveSettings>.allocate(capacity: 1)
        compiled.initialize(to: LiveSettings(
            version: version, denominator: denominator, barLength: barLength,
            barNumerator: bar.0, barDenominator: bar.1, clicks: clicks, clickCount: pattern.count,
            accent: copy(sounds.accent), beat: copy(sounds.beat), subdivision: copy(sounds.subdivision)))
        return compiled
    }

    /// Frees compiled settings and their sounds. Control thread, once no voice plays them.
    static func free(_ compiled: UnsafeMutablePointer<LiveSettings>) {
        let settings = compiled.pointee
        for clip in [settings.accent, settings.beat, settings.subdivision] { clip.samples.deallocate() }
        settings.clicks.deinitialize(count: settings.clickCount)
        settings.clicks.deallocate()
        compiled.deinitialize(count: 1)
        compiled.deallocate()
    }

    private static func copy(_ samples: [Float]) -> LiveClip {
        let memory = UnsafeMutablePointer<Float>.allocate(capacity: max(samples.count, 1))
        samples.withUnsafeBufferPointer { source in
            if let start = source.baseAddress { memory.initialize(from: start, count: source.count) }
        }
        return LiveClip(samples: memory, count: samples.count)
    }
}
