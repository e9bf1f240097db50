import Foundation
import Testing
import TapAudio
import TapMetronome
import TapTestSupport

@Suite struct RenderTests {
    /// Each click's sound starts at its frame: silence just before an isolated click, and the
    /// sound's first samples from the frame on.
    @Test func soundsStartAtTheirFrames() throws {
        var settings = MetronomeSettings(tempo: Rational("93.7")!, meter: Meter(3, 4)!)
        settings.subdivisions = [3: 1]
        let schedule = try ClickSchedule(settings, sampleRate: 44_100)
        let sounds = ClickSounds.builtIn(sampleRate: 44_100)
        let rendered = renderMetronome(schedule, bars: 4, sounds: sounds)
        #expect(rendered.clicks.count == 4 * 3 * 3)
        for click in rendered.clicks {
            let sound = sounds.sound(for: click.kind)
            // Clicks here are 213 ms apart and sounds 25 ms long: the frame before each is silent.
            if click.frame > 0 { #expect(rendered.samples[click.frame - 1] == 0) }
            for offset in 1..<20 { #expect(abs(rendered.samples[click.frame + offset] - click.volume * sound[offset]) < 1e-6) }
        }
        #expect(rendered.samples.count == schedule.frame(ofBar: 4) + sounds.longest)
    }

    @Test func sameInputGivesIdenticalBytes() throws {
        let folder = NSTemporaryDirectory() + "tapkit-metronome-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arguments = ["metronome", "render", "--bpm", "132.25", "--meter", "7/8", "--subdivide", "2,3", "--bars", "8"]
        for name in ["a", "b"] {
            let run = try runTapKit(arguments + ["-o", "\(folder)/\(name).wav", "--onsets", "\(folder)/\(name).csv"])
            #expect(run.status == 0, "\(run.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/a.wav")) == Data(contentsOf: URL(fileURLWithPath: folder + "/b.wav")))
        let csv = try String(contentsOfFile: folder + "/a.csv", encoding: .utf8)
        #expect(csv == (try String(contentsOfFile: folder + "/b.csv", encoding: .utf8)))
        #expect(csv.hasPrefix("time,frame,bar,beat,subdivision_step,subdivision_of,kind,played\n0.000000000,0,1,1,0,0,accent,true\n"))
        #expect(csv.split(separator: "\n").count == 1 + 8 * 7 * 4)  // 7 beats, each with 1/3, 1/2, 2/3
        // The subdivision as two integers: a `1/2` cell would become 1 February in a spreadsheet.
        #expect(!csv.contains("/"))
        #expect(csv.contains(",1,3,subdivision,") && csv.contains(",1,2,subdivision,") && csv.contains(",2,3,subdivision,"))
    }

    @Test func badInputIsNamedAndNothingIsWritten() throws {
        let folder = NSTemporaryDirectory() + "tapkit-metronome-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = ["-o", folder + "/x.wav", "--onsets", folder + "/x.csv"]
        let cases: [([String], Int32, String)] = [
            (["--bpm", "0", "--bars", "1"], 2, "tempo 0 BPM is out of range (1–999 BPM)"),
            (["--bpm", "fast", "--bars", "1"], 2, "--bpm 'fast'"),
            (["--bpm", "120", "--meter", "5/0", "--bars", "1"], 2, "--meter '5/0'"),
            (["--bpm", "120", "--subdivide", "2,11", "--bars", "1"], 2, "subdivision 11"),
            (["--bpm", "120", "--bars", "4", "--mute-bars", "1-100000000000"], 2, "bar 100000000000 is beyond the 4 bars"),
            (["--bpm", "120", "--bars", "4", "--silent-after", "100"], 2, "silent after beat 100 is out of range (0–16"),
            (["--bpm", "120", "--bars", "2", "--count-in", "1", "--phase-shift", "1:-10000"], 2, "phase shift at beat 1 -10000 ms"),
            (["--bpm", "999", "--meter", "99/1", "--beat-unit", "99..", "--bars", "1000000"], 2, "clicks"),
            (["--bpm", "1", "--bars", "1000"], 2, "program length 66.7 h is out of range (at most 48 h)"),
            (["--bpm", "120", "--bars", "0"], 2, "--bars 0"),
            (["--bpm", "120", "--bars", "1", "--beat-sound", folder + "/none.wav"], 1, "none.wav"),
        ]
        for (arguments, status, message) in cases {
            let run = try runTapKit(["metronome", "render"] + arguments + out)
            #expect(run.status == status, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }
}

@Suite struct ClickRendererTests {
    /// Rendering in blocks of any size gives the same samples as one block, clips overlapping
    /// block boundaries included.
    @Test func blocksOfAnySizeGiveTheSameTrack() throws {
        var settings = MetronomeSettings(tempo: Rational(301), meter: Meter(5, 8)!)
        settings.subdivisions = [2: 0.7, 3: 0.4]
        let schedule = try ClickSchedule(settings, sampleRate: 48_000)
        let whole = renderMetronome(schedule, bars: 6, sounds: .builtIn(sampleRate: 48_000))
        var renderer = ClickRenderer(clicks: whole.clicks, sounds: .builtIn(sampleRate: 48_000), frameCount: whole.samples.count)
        var pieces: [Float] = []
        var start = 0, size = 1
        while start < renderer.frameCount {
            var block = [Float](repeating: 1, count: min(size, renderer.frameCount - start))
            block.withUnsafeMutableBufferPointer { renderer.render(into: $0, from: start) }
            pieces += block
            start += block.count
            size = size * 7 % 1_999 + 1
        }
        #expect(pieces == whole.samples)
    }
}
