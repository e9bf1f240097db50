import Foundation
import Testing
import TapAudio
import TapTestSupport

@Suite struct InterruptTests {
    /// A render that would take minutes (44 h of clicks at 8 kHz) interrupted as soon as its
    /// temporary file appears: the temporaries are removed, nothing is left in the folder, and
    /// the message names the output, not the temporary.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func interruptedRenderLeavesNoTemporary(signal: Int32) throws {
        let folder = TemporaryFolder()
        let output = folder.file("clicks.wav")
        let run = try BackgroundTapKit(["metronome", "render", "--bpm", "60", "--bars", "40000", "--rate", "8000",
                                        "-o", output, "--onsets", folder.file("clicks.csv")])
        try expectInterruptedCleanly(run, signal: signal, output: output, folder: folder)
    }

    /// The same for a resample that takes seconds (30 s of audio at the high quality).
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func interruptedResampleLeavesNoTemporary(signal: Int32) throws {
        let folder = TemporaryFolder()
        let input = NSTemporaryDirectory() + "tapkit-resample-input-" + UUID().uuidString + ".wav"
        defer { try? FileManager.default.removeItem(atPath: input) }
        let samples = (0..<(30 * 48_000)).map { Float(0.5 * sin(Double($0) * 0.01)) }
        try Signal(samples: samples, sampleRate: 48_000).write(to: input, format: .wav16, channelCount: 2)
        let output = folder.file("converted.wav")
        let run = try BackgroundTapKit(["resample", input, "-o", output, "--rate", "44100", "--quality", "high"])
        try expectInterruptedCleanly(run, signal: signal, output: output, folder: folder)
    }

    /// Signals `run` once its temporary exists; it must end with status 1, a message naming
    /// `output` (never the temporary), and nothing left in `folder`.
    func expectInterruptedCleanly(_ run: BackgroundTapKit, signal: Int32, output: String, folder: TemporaryFolder) throws {
        let started = run.waitFor(output + ".partial-\(run.process.processIdentifier)")
        kill(run.process.processIdentifier, signal)
        let (status, stderr) = run.finish()
        #expect(started, "the temporary never appeared: \(stderr)")
        #expect(status == 1, "signal \(signal): \(stderr)")
        #expect(stderr.contains(output) && stderr.contains("interrupted"), "\(stderr)")
        #expect(!stderr.contains(".partial"), "\(stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    /// A file that cannot be written is named by its final path, in plain words: neither the
    /// temporary name nor Foundation's error dump reaches the user.
    @Test func fileErrorsNameTheOutputInPlainWords() throws {
        let folder = TemporaryFolder()
        let missing = folder.file("no-such-folder")
        let cases: [([String], String)] = [
            (["metronome", "render", "--bpm", "60", "--bars", "2", "-o", missing + "/a.wav"], missing + "/a.wav"),
            (["metronome", "render", "--bpm", "60", "--bars", "2", "-o", folder.file("b.wav"), "--onsets", missing + "/b.csv"],
             missing + "/b.csv"),
        ]
        for (arguments, path) in cases {
            let run = try runTapKit(arguments)
            #expect(run.status == 1, "\(run.stderr)")
            #expect(run.stderr.contains(path) && run.stderr.contains("No such file or directory"), "\(run.stderr)")
            for leak in [".partial", "NSCocoaErrorDomain", "Error Domain", "UserInfo"] {
                #expect(!run.stderr.contains(leak), "\(run.stderr)")
            }
        }
        try Signal(samples: [Float](repeating: 0.1, count: 4_800), sampleRate: 48_000).write(to: folder.file("in.wav"))
        let resample = try runTapKit(["resample", folder.file("in.wav"), "-o", missing + "/c.wav", "--rate", "44100"])
        #expect(resample.status == 1)
        #expect(resample.stderr.contains(missing + "/c.wav") && !resample.stderr.contains(".partial"), "\(resample.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["in.wav"])
    }
}
