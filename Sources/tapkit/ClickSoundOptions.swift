import ArgumentParser
import TapMetronome

/// The click sound options shared by `metronome render` and `metronome play`.
struct ClickSoundOptions: ParsableArguments {
    @Option(help: "Sound file for accents (any format TapAudio reads, at most 10 s).") var accentSound: String?
    @Option(help: "Sound file for beats.") var beatSound: String?
    @Option(help: "Sound file for subdivisions.") var subdivisionSound: String?

    /// The built-in clicks, with any given file in place of its kind's, at `sampleRate`.
    func sounds(sampleRate: Int) throws(MetronomeError) -> ClickSounds {
        var sounds = ClickSounds.builtIn(sampleRate: sampleRate)
        if let accentSound { sounds.accent = try ClickSounds.load(accentSound, sampleRate: sampleRate) }
        if let beatSound { sounds.beat = try ClickSounds.load(beatSound, sampleRate: sampleRate) }
        if let subdivisionSound { sounds.subdivision = try ClickSounds.load(subdivisionSound, sampleRate: sampleRate) }
        return sounds
    }
}
