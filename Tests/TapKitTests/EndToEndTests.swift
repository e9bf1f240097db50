import TapTestSupport
import Foundation
import Testing
import TapKit
import TapSim
import TapAccuracy

/// `tapkit latency` on the committed fixture folder: the regression the lab relies on.
@Suite struct FixtureEndToEndTests {
    let fixtures = packageRoot + "/Fixtures/data"

    @Test func latencyJSONMatchesTheExpectedResults() throws {
        let result = try runTapKit(["latency", fixtures, "--format", "json"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let actual = try JSONDecoder().decode(LatencyJSON.self, from: Data(result.stdout.utf8))
        let expectedData = try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/Fixtures/expected/latency.json"))
        let expected = try JSONDecoder().decode(LatencyJSON.self, from: expectedData)
        #expect(actual.errors.isEmpty)
        #expect(actual.tasks.map(\.task) == expected.tasks.map(\.task))
        // Counts exactly; statistics within 0.002 ms (printing rounds to 0.001 ms).
        for (a, e) in zip(actual.tasks + [actual.overall], expected.tasks + [expected.overall]) {
            let actualCounts: [Int] = [a.n_touches, a.n_onsets, a.n_matched, a.n_unmatched_touches, a.n_unmatched_onsets]
            let expectedCounts: [Int] = [e.n_touches, e.n_onsets, e.n_matched, e.n_unmatched_touches, e.n_unmatched_onsets]
            #expect(actualCounts == expectedCounts, "\(a.task)")
            for (x, y) in [(a.mean_ms, e.mean_ms), (a.sd_ms, e.sd_ms), (a.median_ms, e.median_ms), (a.iqr_ms, e.iqr_ms)] {
                #expect(abs((x ?? .nan) - (y ?? .nan)) <= 0.002, "\(a.task): \(String(describing: x)) vs \(String(describing: y))")
            }
        }
    }

    @Test func latencyAgreesWithTheSimulatedTruth() throws {
        let result = try runTapKit(["latency", fixtures, "--format", "json"])
        let actual = try JSONDecoder().decode(LatencyJSON.self, from: Data(result.stdout.utf8))
        let truth = try SimulationTruthDocument.read(folder: fixtures)
        for row in actual.tasks {
            let task = try #require(truth.tasks[row.task])
            let trueMean = try #require(task.trueLatencyMean) * 1000
            let trueSD = try #require(task.trueLatencySD) * 1000
            // Stated tolerance of this slice: 0.6 ms (the issue's target of 0.3 ms is not met yet
            // on every task; see Docs/accuracy.md).
            #expect(abs(try #require(row.mean_ms) - trueMean) <= 0.6, "\(row.task) mean")
            #expect(abs(try #require(row.sd_ms) - trueSD) <= 0.6, "\(row.task) SD")
        }
    }

    @Test func csvAndTableCarryTheSameRows() throws {
        let csv = try runTapKit(["latency", fixtures, "--format", "csv", "--jobs", "1"])
        #expect(csv.status == 0)
        let lines = csv.stdout.split(separator: "\n")
        #expect(lines.first == Substring(LatencyRow.columns.joined(separator: ",")))
        #expect(lines.count == 1 + 4 + 1)
        #expect(lines.last?.hasPrefix("overall,43,") == true)  // 43 touches in the fixture
        let table = try runTapKit(["latency", fixtures])
        #expect(table.stdout.split(separator: "\n").count == 6)
        #expect(table.stdout.contains("001_01"))
    }

    /// One table per stream: with --pairs, CSV is the pairs table alone (a second table after
    /// a blank line was read by pandas as more rows); JSON embeds the pairs in each task.
    @Test func pairsAreListedWhenAskedFor() throws {
        let result = try runTapKit(["latency", fixtures, "--format", "csv", "--pairs"])
        #expect(result.status == 0)
        #expect(!result.stdout.contains("\n\n"))
        let pairLines = result.stdout.split(separator: "\n")
        #expect(pairLines.first == "task,touch,onset,latency_ms,high_band_hz")
        let expected = try JSONDecoder().decode(
            LatencyJSON.self, from: Data(contentsOf: URL(fileURLWithPath: packageRoot + "/Fixtures/expected/latency.json")))
        #expect(pairLines.count == 1 + expected.overall.n_matched)
        #expect(pairLines.dropFirst().allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == 5 && !$0.hasPrefix("overall") })
        let table = try runTapKit(["latency", fixtures, "--pairs"])
        #expect(table.stdout.hasPrefix("task  ") && table.stdout.split(separator: "\n").count == 1 + expected.overall.n_matched)
        let json = try runTapKit(["latency", fixtures, "--format", "json", "--pairs"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let tasks = try #require(document["tasks"] as? [[String: Any]])
        #expect(tasks.map { ($0["pairs"] as? [Any])?.count ?? -1 }.reduce(0, +) == expected.overall.n_matched)
    }

    /// `file` is the first column whatever the number of inputs, so one reader takes the output
    /// of one file or of many.
    @Test func onsetsCSVNamesTheFileEvenForOneInput() throws {
        let result = try runTapKit(["onsets", fixtures + "/001_01.wav", "--format", "csv"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first == "file,time,strength,snr_db,tap_score,kind")
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(fixtures + "/001_01.wav,") })
        let times = lines.dropFirst().compactMap { Double($0.split(separator: ",")[1]) }
        #expect(times.count == lines.count - 1 && times.count >= 11)
        #expect(times == times.sorted())
        let two = try runTapKit(["onsets", fixtures + "/001_01.wav", fixtures + "/001_02.wav", "--format", "csv"])
        #expect(two.stdout.split(separator: "\n").first == "file,time,strength,snr_db,tap_score,kind")
    }

    /// `--features` adds the measurements behind the score, the sound's own centroid and its
    /// spread over octave bands, then the high band's mark (empty: these taps were all heard in
    /// the recording's band), in CSV and JSON alike.
    @Test func onsetsFeaturesEndWithTheSoundsOwnSpectrum() throws {
        let csv = try runTapKit(["onsets", fixtures + "/001_01.wav", "--format", "csv", "--features"])
        #expect(csv.status == 0, "\(csv.stderr)")
        let lines = csv.stdout.split(separator: "\n")
        #expect(lines.first == "file,time,strength,snr_db,tap_score,kind,sustained_snr_db,attack_ms,above_mask_db,decay_db,centroid_hz,flatness,on_earlier_sound,sound_centroid_hz,band_profile_db,high_band_hz")
        let cells = lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(cells.allSatisfy { $0.last == "" })
        let centroids = cells.compactMap { $0.dropLast(2).last.flatMap { Double($0) } }
        #expect(centroids.count == lines.count - 1 && centroids.allSatisfy { $0 > 0 })
        // Each band's share in dB: at most 0, at least -30, one of them near 0 dB's share.
        let profiles = cells.map { $0.dropLast().last.map { $0.split(separator: ";").compactMap { Double($0) } } ?? [] }
        #expect(profiles.allSatisfy { $0.count >= 3 && $0.allSatisfy { (-30...0).contains($0) } && $0.max()! > -6 })
        let json = try runTapKit(["onsets", fixtures + "/001_01.wav", "--format", "json", "--features"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let files = try #require(document["files"] as? [[String: Any]])
        let onsets = try #require(files.first?["onsets"] as? [[String: Any]])
        #expect(!onsets.isEmpty && onsets.allSatisfy { ($0["sound_centroid_hz"] as? Double ?? 0) > 0 })
        #expect(onsets.allSatisfy { ($0["band_profile_db"] as? [Double])?.count == profiles.first?.count })
        #expect(onsets.allSatisfy { $0["high_band_hz"] == nil })
    }

    /// A drum kit's hits are taps (49 or more of its 54), and stderr says the spectral flux
    /// completed them.
    @Test func onsetsSaysWhenItCompletedDensePercussion() throws {
        let result = try runTapKit(["onsets", packageRoot + "/Fixtures/drums/kit.flac", "--format", "csv"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count - 1 >= 49, "\(result.stdout)")
        #expect(result.stderr.contains("kit.flac: dense percussion"), "\(result.stderr)")
        let taps = try runTapKit(["onsets", fixtures + "/001_01.wav", "--format", "csv"])
        #expect(!taps.stderr.contains("dense percussion"))
    }

    /// Taps under loud low-pitched music are detected in a higher band, every one of them, and
    /// stderr says which band; the fixture's taps keep the configured band.
    @Test func onsetsSaysWhenItDetectedInAHigherBand() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tapkit-music-\(UUID().uuidString).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Signal(samples: TapsUnderMusic.recording(musicLevel: 0.008), sampleRate: TapsUnderMusic.sampleRate).write(to: path)
        let result = try runTapKit(["onsets", path, "--format", "csv"])
        #expect(result.status == 0, "\(result.stderr)")
        let times = result.stdout.split(separator: "\n").dropFirst().compactMap { Double($0.split(separator: ",")[1]) }
        #expect(TapsUnderMusic.tapTimes.allSatisfy { truth in times.contains { abs($0 - truth) <= 0.010 } }, "\(times)")
        #expect(result.stderr.contains("detected with a 4000 Hz high-pass"), "\(result.stderr)")
        let json = try runTapKit(["onsets", path, "--format", "json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let file = try #require((document["files"] as? [[String: Any]])?.first)
        #expect(file["detection_band_hz"] as? Double == 4000, "\(file.keys)")
        // --fixed-band keeps the configured band: fewer taps, no note.
        let fixed = try runTapKit(["onsets", path, "--format", "csv", "--fixed-band"])
        #expect(fixed.status == 0 && !fixed.stderr.contains("high-pass"), "\(fixed.stderr)")
        #expect(fixed.stdout.split(separator: "\n").count - 1 < TapsUnderMusic.tapTimes.count)
        let taps = try runTapKit(["onsets", fixtures + "/001_01.wav", "--format", "json"])
        #expect(!taps.stderr.contains("high-pass"))
        let fixtureFile = try #require(((try JSONSerialization.jsonObject(with: Data(taps.stdout.utf8)) as? [String: Any])?["files"]
                                         as? [[String: Any]])?.first)
        #expect(fixtureFile["detection_band_hz"] is NSNull)
    }

    /// `--dense-percussion`: `always` completes a kit the test takes for tapping (the fixture
    /// `Fixtures/drums/synth-kit.flac`) and says so on stderr, `never` leaves even a kit the test
    /// knows (`Fixtures/drums/kit.flac`) as the detector found it, and `auto` is the default.
    @Test func densePercussionCanBeAssumedOrLeftOut() throws {
        let drums = packageRoot + "/Fixtures/drums"
        func rows(_ result: CommandResult) -> Int { result.stdout.split(separator: "\n").count - 1 }
        let auto = try runTapKit(["onsets", drums + "/synth-kit.flac", "--format", "csv"])
        let always = try runTapKit(["onsets", drums + "/synth-kit.flac", "--format", "csv", "--dense-percussion", "always"])
        #expect(auto.status == 0 && always.status == 0, "\(always.stderr)")
        #expect(!auto.stderr.contains("dense percussion") && always.stderr.contains("dense percussion (--dense-percussion always)"), "\(always.stderr)")
        #expect(rows(always) > rows(auto) + 10, "\(rows(auto)) and \(rows(always)) taps")
        let kit = try runTapKit(["onsets", drums + "/kit.flac", "--format", "csv"])
        let never = try runTapKit(["onsets", drums + "/kit.flac", "--format", "csv", "--dense-percussion", "never"])
        #expect(kit.stderr.contains("dense percussion") && !never.stderr.contains("dense percussion"), "\(never.stderr)")
        #expect(rows(never) < rows(kit))
        let wrong = try runTapKit(["onsets", drums + "/kit.flac", "--dense-percussion", "sometimes"])
        #expect(wrong.status != 0 && wrong.stderr.contains("dense-percussion"), "\(wrong.stderr)")
    }

    /// Task 001_01 in `folder`: taps under music at `musicLevel` (`TapsUnderMusic`), with
    /// touches 15 ms after the taps, as a touch screen reports them, and its play order.
    static func writeTaskOfTapsUnderMusic(musicLevel: Double, in folder: String) throws {
        try Signal(samples: TapsUnderMusic.recording(musicLevel: musicLevel), sampleRate: TapsUnderMusic.sampleRate)
            .write(to: folder + "/001_01.wav")
        try TapsUnderMusic.tapTimes.map { String(format: "%.6f", $0 + 0.015) }.joined(separator: "\n")
            .write(toFile: folder + "/001_01.txt", atomically: true, encoding: .utf8)
        try "0\n".write(toFile: folder + "/001_play_order.txt", atomically: true, encoding: .utf8)
    }

    /// Taps under music so loud that the configured band hears only a few of them are heard
    /// with an 8 kHz high-pass (`HighBandTaps`), every one of them, and both commands say how
    /// many were added; `--fixed-band` turns that off too.
    @Test func bothCommandsSayWhenTheHighBandAddedTaps() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tapkit-high-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.writeTaskOfTapsUnderMusic(musicLevel: 0.03, in: folder)
        let path = folder + "/001_01.wav"
        let result = try runTapKit(["onsets", path, "--format", "csv"])
        #expect(result.status == 0, "\(result.stderr)")
        let times = result.stdout.split(separator: "\n").dropFirst().compactMap { Double($0.split(separator: ",")[1]) }
        #expect(times.count == TapsUnderMusic.tapTimes.count, "\(times)")
        #expect(TapsUnderMusic.tapTimes.allSatisfy { truth in times.contains { abs($0 - truth) <= 0.001 } }, "\(times)")
        #expect(result.stderr.contains("taps heard with a high-pass at 8000 Hz where the band detected in heard none"), "\(result.stderr)")
        // `--features` marks the added taps in its last column, JSON in a key of their own.
        let marked = try runTapKit(["onsets", path, "--format", "csv", "--features"])
        let lastCells = marked.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).last ?? "" }
        let added = lastCells.filter { $0 == "8000" }.count
        #expect(added >= TapsUnderMusic.tapTimes.count - DetectionBandChoice.leastTaps && added + lastCells.filter(\.isEmpty).count == times.count,
                "\(lastCells)")
        #expect(result.stderr.contains("\(added) taps heard"), "\(result.stderr)")
        let json = try runTapKit(["onsets", path, "--format", "json"])
        let onsetsDocument = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let onsets = try #require(((onsetsDocument["files"] as? [[String: Any]])?.first)?["onsets"] as? [[String: Any]])
        #expect(onsets.filter { $0["high_band_hz"] as? Double == 8000 }.count == added)
        let fixed = try runTapKit(["onsets", path, "--format", "csv", "--fixed-band"])
        #expect(fixed.status == 0 && !fixed.stderr.contains("8000 Hz"), "\(fixed.stderr)")
        #expect(fixed.stdout.split(separator: "\n").count - 1 < DetectionBandChoice.leastTaps)
        // The latency analysis: every touch (15 ms after its tap) finds its tap, and stderr notes it.
        let latency = try runTapKit(["latency", folder, "--format", "json"])
        #expect(latency.status == 0, "\(latency.stderr)")
        #expect(latency.stderr.contains("task 001_01: "), "\(latency.stderr)")
        #expect(latency.stderr.contains("heard with a high-pass at 8000 Hz"), "\(latency.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(latency.stdout.utf8)) as? [String: Any])
        let task = try #require((document["tasks"] as? [[String: Any]])?.first)
        #expect(task["n_matched"] as? Int == TapsUnderMusic.tapTimes.count, "\(task)")
        // The pairs say which onsets the high band added: the pairs table's last column, and
        // a JSON key on those pairs only, as many as stderr counts.
        let counted = try #require(latency.stderr.components(separatedBy: " taps heard with a high-pass").first?
            .split(separator: " ").last.flatMap { Int($0) }, "\(latency.stderr)")
        let pairsCSV = try runTapKit(["latency", folder, "--format", "csv", "--pairs"])
        let pairCells = pairsCSV.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).last ?? "" }
        #expect(pairCells.count == TapsUnderMusic.tapTimes.count && pairCells.filter { $0 == "8000" }.count == counted, "\(pairCells)")
        let pairsJSON = try runTapKit(["latency", folder, "--format", "json", "--pairs"])
        let pairsDocument = try #require(try JSONSerialization.jsonObject(with: Data(pairsJSON.stdout.utf8)) as? [String: Any])
        let pairs = try #require(((pairsDocument["tasks"] as? [[String: Any]])?.first)?["pairs"] as? [[String: Any]])
        #expect(pairs.filter { $0["high_band_hz"] as? Double == 8000 }.count == counted && pairs.filter { $0["high_band_hz"] != nil }.count == counted)
    }

    /// The latency analysis detects the same way: a task under loud low music is detected in
    /// the higher band, its JSON row says which, and stderr notes it; every touch finds its tap.
    @Test func latencySaysWhichBandATaskWasDetectedIn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tapkit-band-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.writeTaskOfTapsUnderMusic(musicLevel: 0.008, in: folder)
        let result = try runTapKit(["latency", folder, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("task 001_01: detected with a 4000 Hz high-pass"), "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let task = try #require((document["tasks"] as? [[String: Any]])?.first)
        #expect(task["detection_band_hz"] as? Double == 4000)
        #expect(task["n_matched"] as? Int == TapsUnderMusic.tapTimes.count, "\(task)")
        #expect((document["overall"] as? [String: Any])?["detection_band_hz"] is NSNull)
    }

    /// Evaluate writes every key (null when absent, as latency does), `errors` as latency does,
    /// and the numbers CSV prints.
    @Test func evaluateJSONHasLatencysConventions() throws {
        let json = try runTapKit(["evaluate", fixtures, "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((document["errors"] as? [Any])?.isEmpty == true)
        let overall = try #require(document["overall"] as? [String: Any])
        #expect(overall["latency_mean_error_ms"] is NSNull && overall["latency_sd_error_ms"] is NSNull, "\(overall)")
        let tasks = try #require(document["tasks"] as? [[String: Any]])
        #expect(Set(tasks[0].keys) == Set(overall.keys))
        let csv = try runTapKit(["evaluate", fixtures, "--format", "csv"])
        let header = try #require(csv.stdout.split(separator: "\n").first).split(separator: ",").map(String.init)
        let last = try #require(csv.stdout.split(separator: "\n").last).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        for (column, cell) in zip(header, last) where column != "task" {
            if cell.isEmpty { #expect(overall[column] is NSNull, "\(column)"); continue }
            #expect((overall[column] as? Double) == Double(cell), "\(column): JSON \(overall[column] ?? "absent"), CSV \(cell)")
        }
    }

    @Test func usageErrorsExitWithTwo() throws {
        #expect(try runTapKit(["latency"]).status == 2)
        #expect(try runTapKit(["latency", fixtures, "--format", "xml"]).status == 2)
        #expect(try runTapKit(["latency", fixtures, "--jobs", "0"]).status == 2)
    }
}
