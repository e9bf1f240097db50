import Foundation
import Testing
import TapMetronome
import TapTestSupport

@Suite struct ProgramFileTests {
    /// Every directive, read into the program it describes.
    @Test func readsEveryDirective() throws {
        let text = """
            # a comment line
            tempo 120.5            # exact: 241/2
            meter 7/8
            beat-unit 8
            subdivide 2,3
            subdivision-volumes 0.5,1
            accent-volume 0.9
            beat-volume 0.7
            subdivision-volume 0.4
            master-volume 0.8
            swing 2/3
            count-in 2
            bars 4
            bars 2 ramp-to 140 silent
            meter 3/4
            subdivide none
            bars 3
            mute 1 3-4
            silent-after 30
            phase-shift 5 -12.5
            period-step 44 500 ms
            period-step 45 90
            jitter 10 normal seed 42
            """
        let program = try MetronomeProgram(parsing: text, path: "p.txt")
        #expect(program.sections.count == 3)
        let first = program.sections[0].settings
        #expect(first.tempo == Rational(241, 2) && first.meter == Meter(7, 8) && first.beatUnit == NoteValue(denominator: 8))
        #expect(first.subdivisions == [2: 0.5, 3: 1] && first.swing == Rational(2, 3))
        #expect(first.accentVolume == 0.9 && first.beatVolume == 0.7 && first.subdivisionVolume == 0.4 && first.masterVolume == 0.8)
        #expect(program.sections[1].rampTo == Rational(140) && program.sections[1].silent && program.sections[1].bars == 2)
        // After a ramp the tempo goes on at its target; a new meter resets the beat unit.
        let third = program.sections[2].settings
        #expect(third.tempo == Rational(140) && third.beatUnit == NoteValue(denominator: 4) && third.subdivisions.isEmpty)
        #expect(program.countInBars == 2 && program.mutedBars == [1, 3, 4] && program.silentAfterBeat == 30)
        #expect(program.perturbations == [.phaseShift(beat: 5, milliseconds: Rational(-25, 2)),
                                          .periodStep(beat: 44, tempo: Rational(120)), .periodStep(beat: 45, tempo: Rational(90))])
        #expect(program.jitter == .init(milliseconds: Rational(10), distribution: .normal, seed: 42))
    }

    /// Windows line ends read like Unix ones.
    @Test func readsCRLFLineEnds() throws {
        let unix = "tempo 120\nmeter 3/4\n\n# comment\nbars 2\n"
        let windows = unix.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try MetronomeProgram(parsing: windows, path: "w.txt") == MetronomeProgram(parsing: unix, path: "u.txt"))
    }

    /// Malformed lines are reported at their line and column.
    @Test(arguments: [
        ("tempo 120\nbars 4\nfoo 3\n", 3, 1, "unknown directive 'foo'"),
        ("bars 4\n", 1, 1, "no tempo before the first bars"),
        ("tempo 120\nmeter 4/0\nbars 1\n", 2, 7, "meter '4/0'"),
        ("tempo 120\nmeter 0/4\nbars 1\n", 2, 7, "meter '0/4' is not n/d with n and d in 1–99"),
        ("tempo 120\nsubdivide 2,11\nbars 1\n", 2, 13, "subdivision '11' is not in 2–9"),
        ("tempo 1000\nbars 1\n", 2, 1, "tempo 1000 BPM is out of range"),
        ("tempo 120\nbars 4 ramp-to fast\n", 2, 16, "ramp target 'fast'"),
        ("tempo 120\nbars 4 loud\n", 2, 8, "expected ramp-to TEMPO or silent"),
        ("tempo 120\nbars 4\nphase-shift 17 10\n", 3, 13, "beat 17 is beyond the program's 16 beats"),
        ("tempo 120\nbars 4 ramp-to 130\nperiod-step 3 100\n", 3, 13, "inside a tempo ramp"),
        ("tempo 120\nbars 4\nmute 2-5\n", 3, 6, "bar 5 is beyond the program's 4 bars"),
        ("tempo 120\nbars 4\njitter 5 seed x\n", 3, 15, "seed 'x'"),
        ("tempo 120\nbars 4\ntempo 100\n", 3, 1, "settings after the last bars line have no effect"),
        ("tempo 120\n  bars\n", 2, 7, "bars takes a number of bars"),
        ("# nothing\n", 1, 1, "no bars"),
        ("tempo 120\nbars 2 ramp-to\n", 2, 8, "ramp-to needs a tempo"),
        ("tempo 120\nbars 2 silent silent\n", 2, 15, "silent given twice"),
        ("tempo 120\nbars 4\njitter 5\njitter 6\n", 4, 1, "a second jitter"),
        ("tempo 120\nbars 4\nsilent-after 5\nsilent-after 6\n", 4, 1, "a second silent-after"),
        ("tempo 120\nbars 4\nperiod-step 2 0.001 ms\n", 3, 15, "period 1/1000 ms is not in 60000/999–60000 ms"),
        ("tempo 120\r\nbars 2\r\nmute x\r\n", 3, 6, "'x' is not a bar or a range of bars"),
        // Found only once the program is laid out in time, still named by line.
        ("tempo 120\nbars 4\nphase-shift 3 -600\n", 3, 13, "phase shift at beat 3: -600 ms is out of range (less than the 500.0 ms"),
        ("tempo 1\nbars 500\nbars 500\n", 3, 1, "program length 66.7 h is out of range"),
        ("tempo 120\nmeter 4//4\nbars 1\n", 2, 7, "meter '4//4'"),
        ("tempo +120\nbars 1\n", 1, 7, "tempo '+120'"),
        ("tempo 120\nbars 1\nmaster-volume 0x1p-1\n", 3, 15, "'0x1p-1'"),
        // Numbers outside the grammar, read by Swift's laxer parsers before (Docs/fuzzing.md).
        ("tempo 120\nsubdivide 2\nsubdivision-volumes +0.5\nbars 1\n", 3, 21, "volume '+0.5' is not in 0–1"),
        ("tempo 120\nsubdivide 2\nsubdivision-volumes 0x1p-1\nbars 1\n", 3, 21, "volume '0x1p-1' is not in 0–1"),
        ("tempo 120\nbeat-unit +4\nbars 1\n", 2, 11, "beat unit '+4'"),
        ("tempo 120\nbars 4\njitter 5 seed +3\n", 3, 15, "seed '+3'"),
    ])
    func errorsNameLineAndColumn(text: String, line: Int, column: Int, message: String) {
        do {
            _ = try MetronomeProgram(parsing: text, path: "bad.txt")
            Issue.record("no error for \(text)")
        } catch {
            guard case .program(let path, let atLine, let atColumn, let said) = error else { Issue.record("\(error)"); return }
            #expect(path == "bad.txt" && atLine == line && atColumn == column, "\(error)")
            #expect(said.contains(message), "\(said)")
        }
    }

    /// The bundled example renders through the CLI, its onsets where the program says, and
    /// the same flags on the command line give the same clicks.
    @Test func exampleProgramRendersAndMatchesFlags() throws {
        let folder = NSTemporaryDirectory() + "tapkit-program-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let example = packageRoot + "/Fixtures/programs/synchronization-continuation.txt"
        var run = try runTapKit(["metronome", "render", "--program", example, "-o", folder + "/a.wav", "--onsets", folder + "/a.csv"])
        #expect(run.status == 0, "\(run.stderr)")
        run = try runTapKit(["metronome", "render", "--bpm", "100", "--bars", "16", "--count-in", "1", "--phase-shift", "12:50",
                             "--period-step", "24:120", "--silent-after", "40", "-o", folder + "/b.wav", "--onsets", folder + "/b.csv"])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try String(contentsOfFile: folder + "/a.csv", encoding: .utf8).split(separator: "\n").dropFirst()
        #expect(try String(contentsOfFile: folder + "/b.csv", encoding: .utf8) == String(contentsOfFile: folder + "/a.csv", encoding: .utf8))
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/a.wav")) == Data(contentsOf: URL(fileURLWithPath: folder + "/b.wav")))
        // Count-in beats 0–3, program beat k (1-based) at 2.4 + 0.6·(k−1) s, +50 ms from beat
        // 12, every 0.5 s after beat 24; played through beat 40.
        #expect(rows.count == 4 + 64)
        for (index, row) in rows.enumerated() {
            let fields = row.split(separator: ",")
            let k = index - 3
            var seconds = k <= 0 ? Double(index) * 0.6 : 2.4 + 0.6 * Double(min(k, 24) - 1) + 0.5 * Double(max(k - 24, 0))
            if k >= 12 { seconds += 0.05 }
            #expect(Int(fields[1]) == Int((seconds * 48_000).rounded()), "row \(row)")
            // played: the last of time,frame,bar,beat,subdivision_step,subdivision_of,kind,played
            #expect(fields[7] == (k <= 40 ? "true" : "false"), "row \(row)")
        }
    }
}
