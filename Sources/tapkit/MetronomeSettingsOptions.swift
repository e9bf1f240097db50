import Foundation
import ArgumentParser
import TapMetronome

/// The options that describe steady metronome settings, shared by `metronome render` and
/// `metronome play`.
struct MetronomeSettingsOptions: ParsableArguments {
    @Option(help: "Tempo in beat units per minute, 1–999 (decimals and fractions are exact: 120.5, 241/2).")
    var bpm: String?

    @Option(help: "Time signature n/d, both 1–99 (default 4/4).")
    var meter: String?

    @Option(help: "The beat unit as a note value: 4 (quarter), 4. (dotted quarter), 12 (triplet eighth); default 1/d of the meter.")
    var beatUnit: String?

    @Option(help: "Subdivisions of each beat, 2–9, comma separated (several at once: 2,3).")
    var subdivide: String?

    @Option(help: "Volume of each subdivision, 0–1, in the order of --subdivide (default 1).")
    var subdivisionVolumes: String?

    @Option(help: "Where the half-beat falls, 1/2 (straight) to 3/4 of a beat (2/3: triplet swing).") var swing: String?

    @Option(help: "Accent (first beat) volume, 0–1 (default 1).") var accentVolume: Float?
    @Option(help: "Beat volume, 0–1 (default 0.8).") var beatVolume: Float?
    @Option(help: "Subdivision volume, 0–1 (default 0.6).") var subdivisionVolume: Float?
    @Option(help: "Master volume, 0–1 (default 1).") var masterVolume: Float?

    /// Which options were given, by name.
    var given: [(String, Bool)] {
        [("--bpm", bpm != nil), ("--meter", meter != nil), ("--beat-unit", beatUnit != nil), ("--subdivide", subdivide != nil),
         ("--subdivision-volumes", subdivisionVolumes != nil), ("--swing", swing != nil), ("--accent-volume", accentVolume != nil),
         ("--beat-volume", beatVolume != nil), ("--subdivision-volume", subdivisionVolume != nil), ("--master-volume", masterVolume != nil)]
    }

    /// The settings the options describe, or a usage error naming the option.
    func settings() throws -> MetronomeSettings {
        let bpm = self.bpm ?? ""
        guard let tempo = Rational(bpm) else { throw ValidationError("--bpm '\(bpm)' is not a number (120, 120.5 or 241/2)") }
        let meterText = meter ?? "4/4"
        guard let meter = Meter(meterText) else { throw ValidationError("--meter '\(meterText)' is not n/d with n and d in 1–99") }
        var unit: NoteValue?
        if let beatUnit {
            guard let value = NoteValue(beatUnit) else {
                throw ValidationError("--beat-unit '\(beatUnit)' is not a note value (1–99, up to two dots: 4, 4., 12)")
            }
            unit = value
        }
        var settings = MetronomeSettings(tempo: tempo, meter: meter, beatUnit: unit)
        let divisions = try list(subdivide, option: "--subdivide") { Int($0) }
        let volumes = try list(subdivisionVolumes, option: "--subdivision-volumes") { Float($0) }
        guard volumes.isEmpty || volumes.count == divisions.count else {
            throw ValidationError("--subdivision-volumes has \(volumes.count) values for \(divisions.count) subdivisions")
        }
        for (index, division) in divisions.enumerated() { settings.subdivisions[division] = volumes.isEmpty ? 1 : volumes[index] }
        if let swing {
            guard let value = Rational(swing) else { throw ValidationError("--swing '\(swing)' is not a number (2/3, 0.6)") }
            settings.swing = value
        }
        settings.accentVolume = accentVolume ?? settings.accentVolume
        settings.beatVolume = beatVolume ?? settings.beatVolume
        settings.subdivisionVolume = subdivisionVolume ?? settings.subdivisionVolume
        settings.masterVolume = masterVolume ?? settings.masterVolume
        return settings
    }

    private func list<T>(_ text: String?, option: String, _ parse: (String) -> T?) throws -> [T] {
        guard let text else { return [] }
        return try text.split(separator: ",").map { item in
            guard let value = parse(item.trimmingCharacters(in: .whitespaces)) else {
                throw ValidationError("\(option): '\(item)' is not a number")
            }
            return value
        }
    }
}
