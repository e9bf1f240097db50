/// One click of a bar's pattern: where it falls in the bar and what it is.
struct PatternClick: Sendable, Hashable {
    /// Offset from the start of the bar, in whole notes.
    var offset: Rational
    /// 1-based beat.
    var beat: Int
    /// `step/of` within the beat; 0/0 on the beat.
    var step: Int
    var of: Int
    var kind: ClickKind
    /// The kind's volume (and the subdivision's) times the master volume.
    var volume: Float
}

extension PatternClick {
    /// The clicks of one bar of `settings`, in order, beats winning over subdivisions at the
    /// same place, and where subdivisions coincide the coarsest naming the click at the
    /// loudest of their volumes.
    static func bar(of settings: MetronomeSettings) -> [PatternClick] {
        let unit = settings.beatUnit.wholeNotes
        let bar = settings.meter.barLength
        var clicks: [Rational: PatternClick] = [:]
        for beat in 0..<settings.beatsPerBar {
            let start = unit * Rational(beat)
            let kind: ClickKind = beat == 0 ? .accent : .beat
            clicks[start] = PatternClick(offset: start, beat: beat + 1, step: 0, of: 0, kind: kind,
                                         volume: (kind == .accent ? settings.accentVolume : settings.beatVolume) * settings.masterVolume)
            // Coarsest subdivision first, so a shared position keeps the coarsest label.
            for (subdivision, volume) in settings.subdivisions.sorted(by: { $0.key < $1.key }) {
                for step in 1..<subdivision {
                    let straight = Rational(Int64(step), Int64(subdivision))
                    let offset = start + unit * swung(straight, settings.swing)
                    guard start + unit * straight < bar, offset < bar else { break }
                    let loudness = volume * settings.subdivisionVolume * settings.masterVolume
                    if let existing = clicks[offset] {
                        if existing.kind == .subdivision && loudness > existing.volume { clicks[offset]!.volume = loudness }
                    } else {
                        clicks[offset] = PatternClick(offset: offset, beat: beat + 1, step: step, of: subdivision,
                                                      kind: .subdivision, volume: loudness)
                    }
                }
            }
        }
        return clicks.values.sorted { $0.offset < $1.offset }
    }

    /// A position within a beat (0…1) moved by swing: [0, 1/2] stretches to [0, swing] and
    /// [1/2, 1] squeezes into [swing, 1].
    static func swung(_ position: Rational, _ swing: Rational) -> Rational {
        let half = Rational(1, 2)
        if swing == half { return position }
        return position <= half ? position * swing * Rational(2)
                                : swing + (position - half) * (Rational(1) - swing) * Rational(2)
    }
}
