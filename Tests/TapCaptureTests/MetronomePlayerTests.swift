import Foundation
import Testing
import TapAudio
import TapCapture
import TapMetronome
import TapTestSupport

extension JackTests {
    /// A live metronome through JACK, recorded by a capture client: every click the metronome
    /// reports is in the recording at its frame (one constant offset: when the recording
    /// began), with its sound sample for sample, across a tempo change made while it plays;
    /// beats are 24 000 frames apart at 120 BPM and 32 000 at 90.
    @Test func livePlayerSoundsEveryClickAtItsFrame() throws {
        let server = try JackServerFixture(rate: 48_000, period: 128)
        let settings = MetronomeSettings(tempo: Rational(120), meter: Meter(4, 4)!)
        let sounds = ClickSounds.builtIn(sampleRate: 48_000)
        let metronome = try LiveMetronome(settings: settings, sounds: sounds, sampleRate: 48_000)
        let player = try MetronomePlayer(client: JackClient(name: "metronome", serverName: server.name), metronome: metronome)
        try player.start(connectingTo: [])
        defer { player.stop() }
        let folder = directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let changer = Thread {
            Thread.sleep(forTimeInterval: 2.2)
            var slower = settings
            slower.tempo = Rational(90)
            _ = try? metronome.apply(slower, sounds: sounds)
        }
        changer.start()
        _ = try PlaybackCapture(client: JackClient(name: "capture", serverName: server.name)).run(
            stimulus: [[Float](repeating: 0, count: 48_000 * 5)], sampleRate: 48_000, recordingTo: folder + "/take.wav",
            outputs: [], inputs: ["metronome:out_1"], tailFrames: 0)
        var events: [LiveClickEvent] = []
        _ = metronome.pollEvents(into: &events)
        let recording = try Signal(contentsOf: folder + "/take.wav").samples
        // The recording began at some metronome frame. Each reported click is a candidate for
        // the first sound heard; the right offset makes the recording equal the sum of the
        // reported clicks' sounds, to the 16-bit file's resolution.
        func expected(offset: Int) -> [Float] {
            var signal = [Float](repeating: 0, count: recording.count)
            for event in events where event.played {
                let sound = sounds.sound(for: event.kind)
                for (index, sample) in sound.enumerated() where (0..<signal.count).contains(event.frame - offset + index) {
                    signal[event.frame - offset + index] += event.volume * sample
                }
            }
            return signal
        }
        let threshold: Float = 0.05
        // The first sound heard whole: after 200 silent frames (the recording may begin in the
        // middle of a sound).
        let heard = try #require(recording.indices.dropFirst(200).first { index in
            abs(recording[index]) > threshold && recording[(index - 200)..<index].allSatisfy { abs($0) < threshold }
                && recording[(index - 200)..<(index - 100)].allSatisfy { $0 == 0 }
        })
        let candidates = events.compactMap { event -> Int? in
            let sound = sounds.sound(for: event.kind)
            return sound.firstIndex { abs(event.volume * $0) > threshold }.map { event.frame - (heard - $0) }
        }
        let offset = candidates.first { offset in zip(recording, expected(offset: offset)).allSatisfy { abs($0 - $1) <= 1.5 / 32_768 } }
        let report = candidates.map { candidate -> String in
            let differences = zip(recording, expected(offset: candidate)).map { abs($0 - $1) }
            let worst = differences.indices.max { differences[$0] < differences[$1] }!
            return "offset \(candidate): \(differences[worst]) at \(worst)"
        }
        // An xrun skips a cycle in one client and not necessarily the other; then the recording
        // cannot line up with the reported clicks (reported, not failed on, as elsewhere).
        if player.xruns > 0 { print("note: \(player.xruns) xruns during the live metronome test") }
        #expect(offset != nil || player.xruns > 0, "no offset makes the recording the sum of the reported clicks: \(report), events \(events.map(\.frame)), heard \(heard), xruns \(player.xruns)")
        let start = offset ?? Int.max
        let audible = events.filter { $0.frame >= start && $0.frame - start < recording.count }
        #expect(audible.count >= 8 || player.xruns > 0, "\(audible.count) clicks in the recording")
        // Beats every 24 000 frames at 120 BPM, then every 32 000 at 90, with one interval in
        // between that the phase rule sets.
        let intervals = zip(events.dropFirst(), events).map { $0.frame - $1.frame }
        let between = intervals.filter { $0 != 24_000 && $0 != 32_000 }
        #expect(intervals.first == 24_000 && intervals.last == 32_000 && between.count <= 1, "\(intervals)")
        #expect(between.allSatisfy { $0 > 24_000 && $0 < 32_000 })
    }

    /// `tapkit metronome play` with keys from a pipe: three + keys raise the tempo by 3 BPM,
    /// taps are counted, q quits, and the summary goes to stdout.
    @Test func playCommandTakesKeys() throws {
        let server = try JackServerFixture(rate: 48_000, period: 128)
        let input = Pipe()
        let writer = Thread {
            Thread.sleep(forTimeInterval: 1.5)
            input.fileHandleForWriting.write(Data("+++".utf8))
            for _ in 0..<4 {
                Thread.sleep(forTimeInterval: 0.5)
                input.fileHandleForWriting.write(Data(" ".utf8))
            }
            Thread.sleep(forTimeInterval: 1.5)
            input.fileHandleForWriting.write(Data("q".utf8))
        }
        writer.start()
        let run = try runTapKit(["metronome", "play", "--bpm", "100", "--server", server.name], input: input)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("tempo_bpm 103\n"), "\(run.stdout)")
        #expect(run.stdout.contains("taps 4\n"), "\(run.stdout)")
        #expect(run.stdout.contains("dropped_clicks 0"), "\(run.stdout)")

        // A tempo change whose exact fraction would overflow is refused, not a crash; the
        // tempo shown stays the one playing.
        let keys = Pipe()
        let presser = Thread {
            Thread.sleep(forTimeInterval: 1)
            keys.fileHandleForWriting.write(Data("]".utf8))
            Thread.sleep(forTimeInterval: 0.5)
            keys.fileHandleForWriting.write(Data("q".utf8))
        }
        presser.start()
        let exotic = try runTapKit(["metronome", "play", "--bpm", "999999937/999999929", "--step", "999999893/999999883",
                                    "--server", server.name], input: keys)
        #expect(exotic.status == 0, "\(exotic.stderr)")
        #expect(exotic.stdout.contains("tempo_bpm 1.000\n"), "\(exotic.stdout)")
    }
}
