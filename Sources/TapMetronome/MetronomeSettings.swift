/// What a click is in its bar.
public enum ClickKind: String, Sendable, Codable, CaseIterable {
    /// The first beat of a bar.
    case accent
    /// Any other beat.
    case beat
    /// A click between beats.
    case subdivision
}

/// A steady metronome: tempo, meter, beat unit, subdivisions and volumes.
///
/// The tempo counts beat units per minute (a dotted quarter at 60 in 6/8 gives two beats a
/// bar, one a second). Beats fall at whole multiples of the beat unit from the start of each
/// bar; a beat unit that does not divide the bar (7/8 counted in quarters) leaves a shorter last
/// beat. Each active subdivision `s` divides every beat into `s` equal parts.
public struct MetronomeSettings: Sendable, Hashable {
    /// Beat units per minute, 1…999, exact (`Rational("120.5")`).
    public var tempo: Rational
    /// The time signature.
    public var meter: Meter
    /// What one beat is; by default one 1/d note of the meter.
    public var beatUnit: NoteValue
    /// Active subdivisions (2…9) and their volumes (0…1). Several may sound at once; where
    /// they coincide, one click plays at the loudest of their volumes.
    public var subdivisions: [Int: Float] = [:]
    /// Volume of the first beat of each bar, 0…1.
    public var accentVolume: Float = 1
    /// Volume of the other beats, 0…1.
    public var beatVolume: Float = 0.8
    /// Volume of subdivision clicks (times each subdivision's own), 0…1.
    public var subdivisionVolume: Float = 0.6
    /// Scales everything, 0…1.
    public var masterVolume: Float = 1
    /// Where the half-beat falls, as a fraction of the beat: 1/2 is straight, 2/3 triplet
    /// swing, 3/4 dotted; 1/2…3/4. Every position within a beat moves with it (the first half
    /// of the beat is stretched to `swing`, the second squeezed into the rest), so all
    /// subdivisions swing together.
    public var swing = Rational(1, 2)

    /// Settings at `tempo` in `meter`, beats of one 1/d note, no subdivisions.
    public init(tempo: Rational, meter: Meter, beatUnit: NoteValue? = nil) {
        self.tempo = tempo
        self.meter = meter
        self.beatUnit = beatUnit ?? meter.naturalBeatUnit
    }

    /// Checks every range; the error names the value and its allowed range.
    public func validate() throws(MetronomeError) {
        guard tempo >= Rational(1), tempo <= Rational(999) else { throw .outOfRange("tempo", "\(tempo) BPM", "1–999 BPM") }
        for (name, volume) in [("accent volume", accentVolume), ("beat volume", beatVolume),
                               ("subdivision volume", subdivisionVolume), ("master volume", masterVolume)] {
            guard (0...1).contains(volume) else { throw .outOfRange(name, "\(volume)", "0–1") }
        }
        guard swing >= Rational(1, 2), swing <= Rational(3, 4) else { throw .outOfRange("swing", "\(swing)", "1/2–3/4 of a beat") }
        for (subdivision, volume) in subdivisions.sorted(by: { $0.key < $1.key }) {
            guard (2...9).contains(subdivision) else { throw .outOfRange("subdivision", "\(subdivision)", "2–9") }
            guard (0...1).contains(volume) else { throw .outOfRange("volume of subdivision \(subdivision)", "\(volume)", "0–1") }
        }
    }

    /// Beats in a bar (the last may be shorter than the beat unit).
    public var beatsPerBar: Int {
        let ratio = meter.barLength / beatUnit.wholeNotes
        return Int((ratio.numerator + ratio.denominator - 1) / ratio.denominator)
    }
}

/// Why a metronome setting, program or render request cannot be used.
public enum MetronomeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A value outside its range: what, the value, the allowed range.
    case outOfRange(String, String, String)
    /// A sound file could not be used.
    case sound(path: String, reason: String)
    /// A program file is malformed at a line and column.
    case program(path: String, line: Int, column: Int, message: String)
    /// Exact click times that need fractions beyond 64 bits (extreme tempo fractions over
    /// many sections): what was being computed.
    case inexact(String)

    /// The message, naming the value and its allowed range (or the file, line and column).
    public var description: String {
        switch self {
        case .outOfRange(let what, let value, let range): return "\(what) \(value) is out of range (\(range))"
        case .sound(let path, let reason): return "\(path): cannot use as a click sound: \(reason)"
        case .program(let path, let line, let column, let message): return "\(path):\(line):\(column): \(message)"
        case .inexact(let what):
            return "\(what): its exact time needs fractions beyond 64 bits; use tempos with fewer decimal places or fewer sections"
        }
    }
}
