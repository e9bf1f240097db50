import ArgumentParser
import Foundation
import TapCapture
import TapMetronome
#if canImport(Glibc)
import Glibc
#endif

/// `tapkit metronome play`: a live metronome on JACK with tempo keys and a tap-along display.
struct MetronomePlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a metronome live through JACK: + and − change the tempo, space taps along, q quits.",
        discussion: """
            Keys: + (or =) and − (or _) change the tempo by --step BPM, ] and [ by ten steps; \
            space or Enter is a tap, shown with its asynchrony to the nearest beat (negative: \
            before the click); q quits. Changes are heard from the next JACK period and keep the \
            position within the bar. The status line goes to stderr on a terminal; when playing \
            ends, a summary (tempo, taps, mean and SD of the asynchronies) goes to stdout.
            """)

    @OptionGroup var settingsOptions: MetronomeSettingsOptions
    @OptionGroup var soundOptions: ClickSoundOptions

    @Option(help: "Tempo change per + or − key, BPM.") var step = "1"
    @Option(help: "JACK server name (default: the default server).") var server: String?
    @Option(help: "Playback ports to connect, comma separated (default: the first two physical playback ports).")
    var playback: String?
    @Option(help: "Stop after this many seconds (default: play until q).", transform: strictDecimal) var seconds: Double?

    func validate() throws {
        guard settingsOptions.bpm != nil else { throw ValidationError("give --bpm") }
        guard Rational(step).map({ $0 > Rational(0) }) == true else { throw ValidationError("--step '\(step)' is not a positive number") }
        if let seconds, !(seconds > 0) { throw ValidationError("--seconds must be positive") }
    }

    func run() throws {
        var settings: MetronomeSettings
        do { settings = try settingsOptions.settings() } catch let error as ValidationError {
            printError("error: \(error.message)")
            throw ExitCode(2)
        }
        let step = Rational(self.step)!
        let player: MetronomePlayer
        let sounds: ClickSounds
        do {
            let client = try JackClient(name: "tapkit-metronome", serverName: server)
            let rate = Int(client.sampleRate)
            sounds = try soundOptions.sounds(sampleRate: rate)
            let metronome = try LiveMetronome(settings: settings, sounds: sounds, sampleRate: rate)
            player = try MetronomePlayer(client: client, metronome: metronome)
            let destinations = playback.map { $0.split(separator: ",").map(String.init) }
                ?? client.ports().filter { $0.kind == .audio && !$0.isSource && $0.isPhysical }.prefix(2).map(\.name)
            if destinations.isEmpty { printError("warning: no playback port to connect to; the metronome plays to nothing (give --playback)") }
            try player.start(connectingTo: destinations)
        } catch {
            printError("error: \(error)")
            throw ExitCode(1)
        }
        defer { player.stop() }

        let keys = InteractiveKeys { player.frameNow() }
        keys.start()
        defer { keys.stop() }

        var tapAlong = TapAlong(sampleRate: Double(player.metronome.sampleRate))
        var events: [LiveClickEvent] = []
        let started = Date()
        let terminal = isatty(STDERR_FILENO) == 1
        var quit = false
        while !quit {
            usleep(20_000)
            player.updateClock()
            for (key, frame) in keys.take() {
                // Checked arithmetic: an exotic --step must not overflow the exact tempo.
                var tempo: Rational? = settings.tempo
                switch key {
                case UInt8(ascii: "q"), UInt8(ascii: "Q"): quit = true
                case UInt8(ascii: "+"), UInt8(ascii: "="): tempo = settings.tempo.plus(step)
                case UInt8(ascii: "-"), UInt8(ascii: "_"): tempo = settings.tempo.minus(step)
                case UInt8(ascii: "]"): tempo = step.times(Rational(10)).flatMap { settings.tempo.plus($0) }
                case UInt8(ascii: "["): tempo = step.times(Rational(10)).flatMap { settings.tempo.minus($0) }
                case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"): if let frame { tapAlong.tap(atFrame: frame) }
                default: break
                }
                guard let wanted = tempo.map({ min(max($0, Rational(1)), Rational(999)) }), wanted != settings.tempo else { continue }
                var changed = settings
                changed.tempo = wanted
                // The change queue holds several; if it is full, the tempo shown stays the one
                // playing and the next key tries again.
                if (try? player.metronome.apply(changed, sounds: sounds)) == true {
                    settings = changed
                } else {
                    printError("warning: tempo change not taken; press again")
                }
            }
            _ = player.metronome.pollEvents(into: &events)
            tapAlong.add(events)
            events.removeAll(keepingCapacity: true)
            player.metronome.collectGarbage()
            if terminal { FileHandle.standardError.write(Data(("\r\u{1B}[K" + tapAlong.statusLine(tempo: settings.tempo, meter: settings.meter)).utf8)) }
            if let seconds, Date().timeIntervalSince(started) >= seconds { quit = true }
            if keys.hasEnded && seconds == nil { quit = true }
        }
        if terminal { FileHandle.standardError.write(Data("\n".utf8)) }
        print(tapAlong.summary(tempo: settings.tempo, xruns: player.xruns, droppedClicks: player.metronome.droppedClicks))
    }
}
