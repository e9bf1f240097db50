import Foundation
import Testing
import TapKit
import TapCorpus

/// The detector with its default settings on the robustness corpus (Docs/robustness.md):
/// TapSim tasks through processing and sounds the detector was never tuned on, rendered here
/// with ffmpeg, sox, fluidsynth and espeak-ng (`make deps` installs them): the first item of
/// each condition and split of `tapkit-bench corpus render DIR --seed 1` (the corpus of
/// Docs/accuracy.md has two). The floors are each item's F1 as measured (`corpus evaluate
/// DIR --per-item`) less 0.02, for the dev and the held split alike: a change that costs
/// precision or recall in any condition fails here. (`keyboard-taps` held: 0.92 since session
/// 5's mask boundary on an earlier sound's tail, `TapScore.tailMaskBoundary`, which sets aside
/// two quiet taps 350 ms after a cough. Raised for `gated` held (0.87 → 0.88), `mp3`, `rate16k`,
/// `noise-click`, `speech` and `keyboard` in session 6, when sounds unlike the taps and off
/// their rhythm were set aside. `loudspeaker` added in session 8. `music` dev 0.82 → 0.89 and
/// `speech` held 0.90 → 0.92 in session 11, when the detector came to choose its band,
/// `DetectionBandChoice`: 0.840 → 0.909 and 0.921 → 0.941. Raised in session 13, when sounds
/// whose power spreads over the octave bands unlike the taps' were set aside and the edges of
/// a recording came to count as no anchor: `gated` dev 0.906 → 0.923 and held 0.939 → 0.979,
/// `clipping` held 0.984 → 1.000, `handling-noise` dev 0.971 → 0.986, `speech` held 0.941 →
/// 0.985, `keyboard` dev 0.983 → 1.000 and held 0.921 → 0.933. `gated` dev 0.90 → 0.98 in
/// session 28, when a count-in whose clicks a noise gate opened on unlike came to be found
/// (0.923 → 0.960) and lone clicks that copy it were set aside (→ 1.000).)
@Suite(.serialized) struct RobustnessCorpusTests {
    /// F1 floors per condition, [dev, held].
    static let floors: [String: (dev: Double, held: Double)] = [
        "baseline": (0.98, 0.96), "gated": (0.98, 0.95), "agc": (0.95, 0.96), "aac": (0.98, 0.95),
        "opus": (0.98, 0.98), "mp3": (0.98, 0.92), "rate16k": (0.98, 0.88), "rate8k": (0.98, 0.96),
        "reverb": (0.98, 0.95), "clipping": (0.95, 0.98), "dc-offset": (0.96, 0.98), "handling-noise": (0.96, 0.93),
        "sine-burst": (0.95, 0.98), "woodblock": (0.95, 0.96), "noise-click": (0.93, 0.96), "beep": (0.95, 0.90),
        "music": (0.89, 0.91), "speech": (0.90, 0.96), "keyboard": (0.98, 0.91), "keyboard-taps": (0.98, 0.92),
        // A 453 Hz beep as loud as the taps lost taps just before its beeps (0.545, session 8)
        // until its cycle-slipped starts made a grid (1.000, session 12).
        "loudspeaker": (0.98, 0.96),
        // Added in session 12: the loudspeaker's clicks through AAC (0.907 and 0.938).
        "loudspeaker-aac": (0.88, 0.91),
    ]

    @Test func everyConditionHoldsItsFloor() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tapkit-corpus-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let entries: [ManifestEntry]
        do {
            entries = try CorpusDirectory.render(to: directory, seed: 1, itemsPerSplit: 1)
        } catch {
            Issue.record("the corpus could not be rendered (`make deps` installs its tools): \(error)")
            return
        }
        var scores: [ItemScore] = []
        var latencyScores: [LatencyItemScore] = []
        for entry in entries {
            let taps = try CorpusDirectory.readTimes(directory + "/" + entry.taps)
            let events = entry.events.isEmpty ? [] : try CorpusDirectory.readEvents(directory + "/" + entry.events)
            let detection = try detectTapOnsets(inFile: directory + "/" + entry.audio)
            scores.append(CorpusScoring.score(entry: entry, taps: taps, onsets: detection.onsets.map(\.time), events: events))
            // The same detection with the item's touches, as `tapkit latency` analyses a task.
            let touches = try CorpusDirectory.readTouches(directory + "/" + entry.touches)
            let task = analyzeLatency(id: TaskID(user: 1, track: 1), touches: touches.map(\.time), detection: detection)
            latencyScores.append(CorpusLatencyScoring.score(
                entry: entry, taps: taps, touches: touches, onsets: task.onsets.map(\.time),
                pairs: task.match.pairs.map { ($0.onsetTime, $0.touchTime) },
                estimated: task.latency.map { ($0.mean, $0.standardDeviation) }))
        }
        try Self.expectLatencyFloors(CorpusLatencyScoring.summarize(latencyScores, conditions: []), latencyScores)
        let groups = CorpusScoring.summarize(scores, conditions: CorpusCondition.allCases.map(\.name))
        #expect(Set(groups.map(\.condition)).isSuperset(of: Self.floors.keys))
        for group in groups {
            guard let floor = Self.floors[group.condition] else { continue }
            let wanted = group.split == "dev" ? floor.dev : floor.held
            #expect(group.f1 >= wanted, "\(group.split) \(group.condition): P \(group.precision) R \(group.recall) F1 \(group.f1) < \(wanted)")
        }
        // Timing: where the truth's start is, not where a codec's pre-echo begins. Lossless
        // conditions within the issue's 0.3 ms, the lossy codecs within 0.5 ms (measured: at
        // most 0.17 and 0.12 ms on these items); `gated` (afftdn, −0.4 and −1.0 ms) is reported
        // in Docs/robustness.md, not held here.
        for group in groups where group.condition != "all" && group.condition != "gated" {
            let bound = ["aac", "opus", "mp3", "loudspeaker-aac"].contains(group.condition) ? 0.5 : 0.3
            #expect(abs(group.timingMedianMS ?? .infinity) <= bound,
                    "\(group.split) \(group.condition): timing median \(String(describing: group.timingMedianMS)) ms")
        }
        let all = groups.filter { $0.condition == "all" }
        #expect(all.count == 2 && all.allSatisfy { $0.recall >= 0.95 && $0.precision >= 0.89 }, "\(all.map { ($0.split, $0.precision, $0.recall) })")
    }

    /// A synchronisation task whose taps mask nearly every click (seed 2026, `baseline-dev-2`):
    /// the clicks are heard only before the participant starts and at a few beats, seven of
    /// them up to eight periods apart, while a tap lies 0.7 ms from the grid three periods
    /// before one of them and others crowd its lines. Those clicks must make the grid, or the
    /// first two are reported as taps (as they were before chains in `StimulusLockedOnsets`
    /// could join and a chain mostly at one level was fitted on those members).
    @Test func clicksHeardOnlyBetweenTapsMakeTheGrid() throws {
        let scores = try Self.scores(seed: 2026, itemsPerSplit: 2, conditions: [.baseline], split: .dev)
        let score = try #require(scores.first { $0.item == "baseline-dev-2" })
        #expect(score.falseOnsetCauses["click"] == nil, "\(score.falseOnsetCauses)")
        // One quiet tap, 36 ms before a click, leaves no onset (nor did it before).
        #expect(score.hits >= score.taps - 1, "\(score.hits) of \(score.taps) taps")
    }

    /// The reverberant tails of loud taps (seed 2026, `reverb`, dev): bumps 140–320 ms after a
    /// tap, 20–30 dB under it and mostly 1.6–2.5 dB over its mask, are not taps
    /// (`TapScore.tailMaskBoundary`). 9 were reported before (7 the scoring cannot attribute,
    /// 2 in a tap's decay), 3 since.
    @Test func bumpsOfAReverberantTailAreNotTaps() throws {
        let scores = try Self.scores(seed: 2026, itemsPerSplit: 3, conditions: [.reverb], split: .dev)
        let bumps = scores.reduce(0) { $0 + ($1.falseOnsetCauses["unexplained"] ?? 0) + ($1.falseOnsetCauses["tap-decay"] ?? 0) }
        #expect(bumps <= 4, "\(scores.map(\.falseOnsetCauses))")
        #expect(scores.reduce(0) { $0 + $1.hits } >= scores.reduce(0) { $0 + $1.taps } - 1)
    }

    /// Knocks between the taps (seed 2026, dev, the conditions without a processing tool):
    /// a knuckle's knock sounds unlike the recording's taps (its spectral centroid 4 robust
    /// SDs from theirs) and falls off their rhythm, and is set aside (`TapScore.outsiders`).
    /// 8 were reported as taps before, 1 since (in `beep-dev-1`); no tap was lost (one quiet
    /// tap of `baseline-dev-2` leaves no onset, as before).
    @Test func knocksBetweenTheTapsAreNotTaps() throws {
        let scores = try Self.scores(seed: 2026, itemsPerSplit: 3, conditions: [.baseline, .sineBurst, .woodblock, .beep], split: .dev)
        let knocks = scores.reduce(0) { $0 + ($1.falseOnsetCauses["knock"] ?? 0) }
        #expect(knocks <= 1, "\(scores.map(\.falseOnsetCauses))")
        #expect(scores.reduce(0) { $0 + $1.hits } >= scores.reduce(0) { $0 + $1.taps } - 1)
    }

    /// Keys pressed between the taps (seed 2026, `keyboard`, dev): a press that sounds like the
    /// taps is set aside when its release follows 40–100 ms later, both fall off the taps'
    /// rhythm and such pairs are the exception (`TapScore.outsiders`), or when it spreads its
    /// power over the octave bands unlike the taps and falls off their rhythm (session 13).
    /// 26 presses were reported as taps before session 8, 13 after it, 7 since session 13 (in
    /// bursts of keys, or near the rhythm by chance), 3 since session 16 (a press between two
    /// taps one interval apart is an outsider wherever it falls); no tap is lost.
    @Test func keysPressedBetweenTheTapsAreNotTaps() throws {
        let scores = try Self.scores(seed: 2026, itemsPerSplit: 3, conditions: [.keyboard], split: .dev)
        let presses = scores.reduce(0) { $0 + ($1.falseOnsetCauses["key-press"] ?? 0) }
        #expect(presses <= 4, "\(scores.map(\.falseOnsetCauses))")
        #expect(scores.reduce(0) { $0 + $1.hits } == scores.reduce(0) { $0 + $1.taps })
    }

    /// A count-in (seed 2026, `gated`, dev): the metronome's first two clicks, heard before the
    /// participant starts, with no click grid after them (each later click sounds under the
    /// tail of the tap just before it), were reported as taps in two of the three items
    /// (4 false onsets). They are the count-in's clicks now (`CountInClicks`), and no tap is
    /// lost.
    @Test func theClicksOfACountInAreNotTaps() throws {
        let scores = try Self.scores(seed: 2026, itemsPerSplit: 3, conditions: [.gated], split: .dev)
        let clicks = scores.reduce(0) { $0 + ($1.falseOnsetCauses["click"] ?? 0) }
        #expect(clicks == 0, "\(scores.map(\.falseOnsetCauses))")
        #expect(scores.reduce(0) { $0 + $1.hits } == scores.reduce(0) { $0 + $1.taps })
    }

    /// Taps under music whose detection moved to a 4 kHz high-pass (seed 131, `music-dev-2`,
    /// rendered in session 21 and not looked at before): there the music's notes spread their
    /// centroids over 1.1 octaves, the kit test took the taps for a drum kit, and the spectral
    /// flux added 21 notes as taps (F1 0.78). A drum kit is judged in the configured band,
    /// where the taps spread 0.3 octave: F1 0.95, two notes left as taps and two taps missed.
    @Test func musicHeardInAHigherBandIsNoDrumKit() throws {
        let scores = try Self.scores(seed: 131, itemsPerSplit: 2, conditions: [.music], split: .dev)
        let score = try #require(scores.first { $0.item == "music-dev-2" })
        #expect((score.falseOnsetCauses["music-note"] ?? 0) <= 3, "\(score.falseOnsetCauses)")
        #expect(score.hits >= score.taps - 3, "\(score.hits) of \(score.taps) taps")
    }

    /// Taps 18–28 ms before loud noise clicks from a loudspeaker, through AAC at 48 kbit/s
    /// (seed 127, `loudspeaker-aac-dev-2`, rendered in session 21 and not looked at before): no
    /// template holds for noise clicks, so the clicks were only set aside, and each tap's
    /// decay was read over the next click's rise (+2 to +12 dB) and scored as no tap: 14 of
    /// 22 taps found (aubio: F1 0.81 on the split). Detected again with the loud clicks noted,
    /// the tails are read up to the clicks: 20 of 22.
    @Test func tapsBeforeLoudClicksLeftInPlaceAreTaps() throws {
        let scores = try Self.scores(seed: 127, itemsPerSplit: 2, conditions: [.loudspeakerAAC], split: .dev)
        let score = try #require(scores.first { $0.item == "loudspeaker-aac-dev-2" })
        #expect(score.hits >= 19 && score.f1 >= 0.85, "\(score.hits) of \(score.taps) taps, F1 \(score.f1), \(score.falseOnsetCauses)")
    }

    /// A woodblock through a loudspeaker and AAC at 64 kbit/s (seed 109, `loudspeaker-aac-held-1`,
    /// +22 ppm): the codec's pre-echo moved the clicks' starts so that the grid they fit was
    /// 39 µs per period off; the template's alignment slipped from cycle to cycle of the ring
    /// (likeness 0.65), the canceller lagged behind the clicks, and 25 clicks passed as taps
    /// while 17 of 37 taps were lost. Aligned on the line the clicks' envelopes fit
    /// (`ClickEnvelopeLine`): 4 false onsets, 2 taps missed.
    @Test func clicksOffTheirOnsetsGridAreSubtracted() throws {
        let scores = try Self.scores(seed: 109, itemsPerSplit: 1, conditions: [.loudspeakerAAC], split: .held)
        let score = try #require(scores.first { $0.item == "loudspeaker-aac-held-1" })
        #expect(score.hits >= 34 && score.f1 >= 0.88, "\(score.hits) of \(score.taps) taps, F1 \(score.f1), \(score.falseOnsetCauses)")
    }

    /// Sine bursts through a loudspeaker and AAC at 48 kbit/s (seed 103, `loudspeaker-aac-dev-2`):
    /// the codec's pre-echo scattered the clicks' starts 4–8.5 ms ahead of them, and the grid
    /// search settled on a line at three beats (1.280 s) that held every third click's start. Those clicks were subtracted, the other 29
    /// passed as taps or crowded out the taps beside them: 16 of 45 taps lost. The template fits
    /// between the grid's points too, and the grid is subdivided (`BleedTemplate.subdivided`):
    /// 2 taps lost.
    @Test func clicksBetweenAGridAtThreeBeatsAreSubtracted() throws {
        let scores = try Self.scores(seed: 103, itemsPerSplit: 2, conditions: [.loudspeakerAAC], split: .dev)
        let score = try #require(scores.first { $0.item == "loudspeaker-aac-dev-2" })
        #expect(score.taps - score.hits <= 3, "\(score.hits) of \(score.taps) taps, F1 \(score.f1), \(score.falseOnsetCauses)")
    }

    /// Quiet clicks at 16 kHz (seed 109, `rate16k-dev-2`: −47 dBFS), with a tap within the
    /// template's 138 ms after 27 of the 44: what passed the trimmed mean of those taps left a
    /// bump 31 ms into the template, and subtracted after the clicks where no tap sounds it was
    /// heard as 4 false onsets. The clicks' windows that carry a louder sound of their own are
    /// left out of the mean (`louderSoundWindows`): none of those 4.
    @Test func aTapAfterSomeClicksLeavesNoOnsetAfterTheOthers() throws {
        let scores = try Self.scores(seed: 109, itemsPerSplit: 2, conditions: [.rate16k], split: .dev)
        let score = try #require(scores.first { $0.item == "rate16k-dev-2" })
        #expect(score.onsets - score.hits <= 2 && score.taps - score.hits <= 1,
                "\(score.hits) of \(score.taps) taps, \(score.onsets - score.hits) false, \(score.falseOnsetCauses)")
    }

    /// Taps a few milliseconds after a click that made no grid of clicks: seed 1's
    /// `gated-held-1` (the gate let through only the clicks beside taps; one 7.0 ms before a
    /// tap) and seed 97's `rate16k-dev-2` (quiet clicks at 16 kHz; one 7.7 ms before a tap).
    /// The picker put both starts on the click, 6.5 and 6.7 ms early; each tap rises out of the
    /// click's steady tone and starts there (`StartPicker.pastSteadyLead`). Every hit within 3
    /// ms: a tap 3.6 ms after a click, sooner than the shortest lead stepped over, stays 2.5 ms
    /// early. The hits as measured: `gated-held-1` misses its tap at 17.010 s, heard as one
    /// sound with a click 18 ms before it (longer than the refractory period, so no lead).
    @Test func aTapAfterAClickNobodyHeardIsTimedAtTheTap() throws {
        let cases: [(seed: UInt64, condition: CorpusCondition, items: Int, split: CorpusSplit, item: String, hits: Int)] = [
            (1, .gated, 1, .held, "gated-held-1", 23), (97, .rate16k, 2, .dev, "rate16k-dev-2", 32),
        ]
        for (seed, condition, items, split, item, hits) in cases {
            let score = try #require(try Self.scores(seed: seed, itemsPerSplit: items, conditions: [condition], split: split)
                .first { $0.item == item })
            let worst = score.timingErrorsMS.map(abs).max() ?? .infinity
            #expect(worst <= 3 && score.hits >= hits, "seed \(seed) \(item): worst timing error \(worst) ms, \(score.hits) of \(score.taps) taps")
        }
    }

    /// A phone's AAC recording of a loudspeaker metronome with its stimulus file (seed 31,
    /// `loudspeaker-aac-dev-1`: noise clicks at 64 kbit/s): AAC smeared each click a few
    /// milliseconds ahead, which the file cannot predict, and the subtraction left it; such
    /// residues are the stimulus's (`separateBleedResidues`). F1 0.441 before (14 residues and
    /// 6 late onsets as taps, 13 of 26 taps), 0.851 since.
    @Test func whatAStimulusFileLeavesOfCodecClicksIsNotTaps() throws {
        let scores = try Self.scores(seed: 31, itemsPerSplit: 1, conditions: [.loudspeakerAAC], split: .dev, withStimulus: true)
        let score = try #require(scores.first)
        #expect(score.f1 >= 0.83 && score.precision >= 0.9, "P \(score.precision) R \(score.recall) F1 \(score.f1), \(score.falseOnsetCauses)")
    }

    /// A headphone metronome of 50 ms beeps (seed 113, `beep-dev-1`: 747 Hz at −41 dBFS, its
    /// stimulus file at 44.1 kHz in a 48 kHz recording, path delay 2.24 ms) with its stimulus
    /// file: the delay was taken at −8.36 ms, the beeps cut by the edges of the estimation's
    /// blocks outweighing the beeps' own tone in the whitened correlation (5 false onsets and 2
    /// taps missed), until the recording's blocks were faded in and out
    /// (`StimulusBleedEstimation.blockTaper`).
    @Test func aBeepsDelayIsNotWhereTheBlocksEdgesLineUp() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tapkit-corpus-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let entries = try CorpusDirectory.render(to: directory, seed: 113, itemsPerSplit: 1, conditions: [.beep])
        let entry = try #require(entries.first { $0.item == "beep-dev-1" })
        let pathDelay = try #require(entry.notes.split(separator: ";").first { $0.hasPrefix("path_delay_ms=") }
            .flatMap { Double($0.dropFirst("path_delay_ms=".count)) })
        let detection = try detectTapOnsets(inFile: directory + "/" + entry.audio,
                                            stimulus: StimulusInput(path: directory + "/" + entry.stimulus))
        let report = try #require(detection.stimulusBleed)
        #expect(report.removed, "\(report.message)")
        #expect(abs(try #require(report.delay) * 1000 - pathDelay) < 0.5, "\(report.message); path \(pathDelay) ms")
        let taps = try CorpusDirectory.readTimes(directory + "/" + entry.taps)
        let events = try CorpusDirectory.readEvents(directory + "/" + entry.events)
        let score = CorpusScoring.score(entry: entry, taps: taps, onsets: detection.onsets.map(\.time), events: events)
        #expect(score.f1 >= 0.98, "P \(score.precision) R \(score.recall), \(score.falseOnsetCauses)")
    }

    /// A loudspeaker's beeps through AAC with their stimulus file (seed 109, `loudspeaker-aac`
    /// dev: 460 and 620 Hz beeps): the subtraction left onsets inside the beeps, 6–44 ms after
    /// their starts and 20 dB or more under them, at a quarter or more of the beeps, which
    /// passed as taps (10 false onsets, 9 of them the beeps') until such leftovers came to be
    /// judged as the sounds' starts are (`separateBleedResidues`, `residueInSoundWindow`).
    @Test func whatAStimulusFileLeavesInsideItsBeepsIsNotTaps() throws {
        try Self.expectItems(seed: 109, itemsPerSplit: 2, conditions: [.loudspeakerAAC], split: .dev, withStimulus: true, falseOnsetsAtMost: 2, missedAtMost: 1)
    }

    /// Taps 13–22 ms before a loudspeaker's woodblock through AAC (seed 103,
    /// `loudspeaker-aac-dev-1`): the click, left in place, or its pre-echo filled the tail whose
    /// fall a tap's decay is read from (the tail starts 10 ms after the tap, and a click is
    /// cut off only when it starts 5 ms or more into it), so those taps read as sustained:
    /// 5 taps were missed, 4 of them so, until the decay came to be read again on the stretch
    /// before the click (`decayBeforeClickReach`): 1 missed, 10 false onsets, the clicks' leftovers
    /// after the subtraction. Since those leftovers are set aside where they start in a click's
    /// pre-echo at the recording's typical leftover level (`separateSmearedResidues`): 6 false
    /// onsets, and 4 missed: the one missed before, 2 taps on a click whose onset was no louder
    /// than its leftover (one of them the leftover itself, 9 ms from the tap), and one that
    /// scores as no tap among sounds that no longer include the leftovers.
    @Test func aTapJustBeforeALoudClickDecaysBeforeIt() throws {
        try Self.expectItems(seed: 103, itemsPerSplit: 1, conditions: [.loudspeakerAAC], split: .dev, falseOnsetsAtMost: 6, missedAtMost: 4)
    }

    /// Noise clicks through a loudspeaker and AAC at 64 kbit/s, without the stimulus file (seed
    /// 31, `loudspeaker-aac-dev-1`): the template fits each click (correlation 0.86–0.97 over
    /// its first part) and is subtracted, but the codec coded each click a little differently
    /// and smeared it ahead: what was left started 1–5 ms before the clicks, 7–18 dB under
    /// them, off the heard clicks' starts, and 10 passed as taps (2 taps missed). Set aside as
    /// the leftovers of fitted clicks (`separateSmearedResidues`): none, and 3 taps missed.
    @Test func whatTheTemplateLeavesOfCodedClicksIsNotTaps() throws {
        try Self.expectItems(seed: 31, itemsPerSplit: 1, conditions: [.loudspeakerAAC], split: .dev, falseOnsetsAtMost: 1, missedAtMost: 3)
    }

    /// Syllables 65 ms from a tap (seed 1, `speech-dev-1`): two build up over 9–10 ms where the
    /// recording's taps peak in a millisecond (`attackOutliers`), one spreads its power over
    /// the octave bands unlike the taps; each lay about one interval from a tap, within the
    /// rhythm's tolerance, so the rhythm kept them, and as crowds with their taps the rhythm
    /// could not choose. Of a crowd, the sounds unlike the taps now lose to one like them
    /// (`judgeCrowds`): 4 false onsets, 3 of them these, before; 1 after; 1 tap missed both.
    @Test func aSyllableCrowdingATapLosesToIt() throws {
        try Self.expectItems(seed: 1, itemsPerSplit: 1, conditions: [.speech], split: .dev, falseOnsetsAtMost: 1, missedAtMost: 1)
    }

    /// A tap 0.27 s after a key's loud, slowly built sound (seed 103, `keyboard-dev-1`, 7.96 s)
    /// rose 1.5 dB over that sound's decay, where 2.5 dB are asked of a sound on an earlier one,
    /// and was missed, though it spread its power as the recording's taps do and lay in the one
    /// empty beat between two taps two intervals apart. It now fills that beat
    /// (`TapScore.maskedTaps`): no false onset and no tap missed, against one tap missed before.
    @Test func aTapInTheTailOfAKeysSoundFillsItsBeat() throws {
        try Self.expectItems(seed: 103, itemsPerSplit: 1, conditions: [.keyboard], split: .dev, falseOnsetsAtMost: 0, missedAtMost: 0)
    }

    /// Two quiet taps in a row (seed 103, `rate16k-dev-2`, 10.82 and 11.27 s) came out with
    /// their power two octaves over the recording's other taps (sound centroids 2.9 and 1.7 kHz
    /// against about 0.55 kHz), so neither was an anchor for the other: the first was kept by
    /// the click heard one interval after it, the second, with no anchor one interval before
    /// it, set aside (one tap missed). Two such taps now keep each other's place where an
    /// anchor lies two intervals away (`TapScore.outsiders`): no false onset and no tap missed
    /// in either dev item.
    @Test func twoQuietTapsInARowKeepEachOthersPlace() throws {
        try Self.expectItems(seed: 103, itemsPerSplit: 2, conditions: [.rate16k], split: .dev, falseOnsetsAtMost: 0, missedAtMost: 0)
    }

    /// Three sounds that rose out of the speech (seed 113, `speech-dev-1`, 4.92, 10.59 and
    /// 18.37 s: 3.8–5.0 dB over its decay, their band spread 9–11 dB from the taps', so not
    /// unlike enough for the outsider rule) passed as taps 0.05–0.27 s off the beats. A sound on
    /// an earlier one spread further from the taps than a masked tap may be is now a suspect
    /// (`TapScore.ridingUnlike`), and these, off the rhythm, are set aside: 3 false onsets
    /// before, none after; 9 taps were missed (lost in the speech). Since session 30 the 8 kHz
    /// band hears 4 of them (14.10, 17.49, 17.92 and 18.33 s: `HighBandTaps`), with no false
    /// onset: 5 missed.
    @Test func soundsRisingOutOfSpeechOffTheBeatAreNotTaps() throws {
        try Self.expectItems(seed: 113, itemsPerSplit: 1, conditions: [.speech], split: .dev, falseOnsetsAtMost: 0, missedAtMost: 5)
    }

    /// Taps lost under syllables (seed 97, `speech-dev-2`, 10.83, 14.08, 14.77 s) that the 8 kHz
    /// band hears only 9–10 dB over its background, scoring 0.3–0.7 there as the speech's own
    /// sounds do: each fills an empty beat of the steady rhythm, the last two in a row
    /// (`HighBandTaps.emptyBeatTaps`). Seed 97's two `speech` dev items: 2 false onsets and 5
    /// taps missed before, 2 and 2 after.
    @Test func tapsUnderSyllablesFillTheEmptyBeats() throws {
        try Self.expectItems(seed: 97, itemsPerSplit: 2, conditions: [.speech], split: .dev, falseOnsetsAtMost: 2, missedAtMost: 2)
    }

    /// Clicks that AAC left in 20–36 ms after a tap (seed 2026, `loudspeaker-aac-dev-1`: 3.21,
    /// 4.69, 8.37, 14.28 and 15.01 s), louder than the tap's decay, passed as taps of their own.
    /// No finger taps twice within 40 ms: the later of two such taps is set aside
    /// (`TapScore.tooSoonAfterATap`): 7 false onsets before, 2 after; 4 taps missed both.
    /// Since session 30 the 8 kHz band adds a tap lost under a click (12.84 s) and a knock
    /// (19.54 s: `HighBandTaps`): 3 false onsets, 3 missed; and no two taps reported lie
    /// closer than 40 ms, which is the rule itself. Since session 43 a sound 52 ms after the
    /// tap at 5.433 s, which sounded 7 ms into its wood block and was not heard apart from it,
    /// fills that beat (`TapScore.tapsInEmptyBeats`): 4 false onsets, still 3 missed. That one
    /// lies past the 40 ms, out of this rule's reach.
    @Test func whatFollowsATapWithinFortyMillisecondsIsNoTap() throws {
        let items = try Self.detectedTaps(seed: 2026, itemsPerSplit: 1, conditions: [.loudspeakerAAC], split: .dev)
        let scores = items.map { CorpusScoring.score(entry: $0.entry, taps: $0.taps, onsets: $0.onsets, events: $0.events) }
        let falseOnsets = scores.reduce(0) { $0 + $1.onsets - $1.hits }, missed = scores.reduce(0) { $0 + $1.taps - $1.hits }
        #expect(falseOnsets <= 4 && missed <= 3, "\(falseOnsets) false onsets, \(missed) taps missed: \(scores.map(\.falseOnsetCauses))")
        for item in items {
            let gaps = zip(item.onsets.dropFirst(), item.onsets).map { $0 - $1 }
            #expect(gaps.allSatisfy { $0 >= TapScore.pairGap.lowerBound }, "\(item.entry.audio): \(gaps.filter { $0 < 0.04 })")
        }
    }

    /// A count-in through a noise gate (seed 103, `gated-dev-2`, 1.006 and 1.560 s): the gate
    /// opened on each click and took the first part of one more than of the other (2.9 and
    /// 5.6 ms from start to peak), so the clicks' interval lay 1.7 ms off the later taps'
    /// period, over 1 ms and three standard errors, and both passed as taps. The bound now
    /// grows to their difference in build-up, at most 2 ms (`CountInClicks.gatedPeriodAgreement`):
    /// 2 false onsets before, none after, in the two dev items.
    @Test func aCountInThroughANoiseGateIsNoTaps() throws {
        try Self.expectItems(seed: 103, itemsPerSplit: 2, conditions: [.gated], split: .dev, falseOnsetsAtMost: 0, missedAtMost: 0)
    }

    /// Taps that sounded with their loudspeaker's clicks (seed 97, `loudspeaker-dev-2`, 2.69 and
    /// 7.15 s, 6.1 and 0.3 ms after their clicks) were set aside as what the subtraction left of
    /// those clicks: they started where the click was heard to start, well under it. Their band
    /// profiles lie 3.7 and 1.6 dB from the taps' median and away from the other leftovers,
    /// and they are taps again (`TapScore.tapsOnClicks`): 6 taps missed before, 4 after, no
    /// false onset in either dev item (one tap of slack: without the rule it fails).
    @Test func tapsThatSoundedWithTheirClicksAreTaps() throws {
        try Self.expectItems(seed: 97, itemsPerSplit: 2, conditions: [.loudspeaker], split: .dev, falseOnsetsAtMost: 0, missedAtMost: 5)
    }

    /// `tapkit latency` with the touches on the same items (Docs/robustness.md, "With the
    /// touches"), as measured in session 15 (`corpus evaluate DIR --with-touches --per-item`):
    /// of the 22 items per split, 18 have their latency mean and SD within the issue's 0.3 ms;
    /// 2 wrong pairs per split (a touch paired with a sound that is not its tap) and 6 (dev)
    /// and 3 (held) taps left out of the estimate. The floors allow one item, one pair and one
    /// tap more; precision after matching and recall are held at their measured values (0.997
    /// and 0.989 on dev, 0.997 and 0.995 on held) less 0.005.
    static func expectLatencyFloors(_ groups: [LatencyGroupScore], _ items: [LatencyItemScore]) throws {
        let floors = ["dev": (within: 17, wrong: 3, leftOut: 7, precision: 0.992, recall: 0.984),
                      "held": (within: 17, wrong: 3, leftOut: 4, precision: 0.992, recall: 0.990)]
        for group in groups {
            let floor = try #require(floors[group.split])
            let members = items.filter { $0.split == group.split }
            let wrong = members.reduce(0) { $0 + $1.wrongPairs }, leftOut = members.reduce(0) { $0 + $1.tapsLeftOut }
            let outside = members.filter { !$0.latencyWithinBound }.map { "\($0.item) \($0.meanErrorMS ?? .nan)/\($0.sdErrorMS ?? .nan) ms" }
            #expect(group.itemsWithinBound >= floor.within, "\(group.split): \(group.itemsWithinBound) of \(group.items) within 0.3 ms; outside: \(outside)")
            #expect(wrong <= floor.wrong && leftOut <= floor.leftOut, "\(group.split): \(wrong) wrong pairs, \(leftOut) taps left out")
            #expect(group.precision >= floor.precision && group.recall >= floor.recall,
                    "\(group.split): precision after matching \(group.precision), recall \(group.recall)")
        }
    }

    /// A tap a few milliseconds after one of TapSim's clicks, resampled to 8 kHz (seed 1,
    /// `rate8k`, dev): the grid heard the click and subtracted it, but a template off by a
    /// fraction of a sample took little of it, and what is left is no quieter than a click
    /// left in place. The tap at 13.504 s (6.5 ms after its click) was timed at the click,
    /// 5.75 ms early, and one at 7.292 s in the held split 4.58 ms early (timing SD 0.73 and
    /// 0.59 ms) until the heard click's rule was tried where the residue's finds no step
    /// (0.14 and 0.25 ms).
    @Test func aTapOnAClickTheSubtractionLeftIsTimedAtTheTap() throws {
        let scores = try Self.scores(seed: 1, itemsPerSplit: 2, conditions: [.rate8k], split: .dev)
        let errors = scores.flatMap(\.timingErrorsMS)
        #expect(scores.reduce(0) { $0 + $1.hits } == scores.reduce(0) { $0 + $1.taps })
        #expect(errors.allSatisfy { abs($0) < 1 }, "\(errors.filter { abs($0) >= 1 })")
        #expect(try #require(Summary(errors)?.standardDeviation) <= 0.3)
    }

    /// The default detector's score of each item of a freshly rendered corpus; with
    /// `withStimulus`, each item's stimulus file's bleed removed first, as `tapkit latency` does
    /// in an experiment folder. Both splits are rendered (the corpus is drawn as a whole); only
    /// `split`'s items are scored.
    /// The false onsets and the taps missed over `scores`.
    /// Renders the items (as `scores(seed:itemsPerSplit:conditions:split:withStimulus:)`) and
    /// expects their false onsets and missed taps, summed, at most the bounds given.
    static func expectItems(seed: UInt64, itemsPerSplit: Int, conditions: [CorpusCondition], split: CorpusSplit,
                            withStimulus: Bool = false, falseOnsetsAtMost: Int, missedAtMost: Int,
                            sourceLocation: SourceLocation = #_sourceLocation) throws {
        let scores = try scores(seed: seed, itemsPerSplit: itemsPerSplit, conditions: conditions, split: split,
                                withStimulus: withStimulus)
        let falseOnsets = scores.reduce(0) { $0 + $1.onsets - $1.hits }, missed = scores.reduce(0) { $0 + $1.taps - $1.hits }
        #expect(falseOnsets <= falseOnsetsAtMost && missed <= missedAtMost,
                "\(falseOnsets) false onsets, \(missed) taps missed: \(scores.map(\.falseOnsetCauses))", sourceLocation: sourceLocation)
    }

    static func scores(seed: UInt64, itemsPerSplit: Int, conditions: [CorpusCondition], split: CorpusSplit,
                       withStimulus: Bool = false) throws -> [ItemScore] {
        try detectedTaps(seed: seed, itemsPerSplit: itemsPerSplit, conditions: conditions, split: split, withStimulus: withStimulus)
            .map { CorpusScoring.score(entry: $0.entry, taps: $0.taps, onsets: $0.onsets, events: $0.events) }
    }

    /// Each rendered item of `split` with its true taps, its events and the times of the taps
    /// `detectTapOnsets` reports.
    static func detectedTaps(seed: UInt64, itemsPerSplit: Int, conditions: [CorpusCondition], split: CorpusSplit,
                             withStimulus: Bool = false) throws
        -> [(entry: ManifestEntry, taps: [Double], events: [CorpusEvent], onsets: [Double])] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tapkit-corpus-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let entries = try CorpusDirectory.render(to: directory, seed: seed, itemsPerSplit: itemsPerSplit, conditions: conditions)
        return try entries.filter { $0.split == split }.map { entry in
            let taps = try CorpusDirectory.readTimes(directory + "/" + entry.taps)
            let events = entry.events.isEmpty ? [] : try CorpusDirectory.readEvents(directory + "/" + entry.events)
            let stimulus = withStimulus && !entry.stimulus.isEmpty ? StimulusInput(path: directory + "/" + entry.stimulus) : nil
            let onsets = try detectTapOnsets(inFile: directory + "/" + entry.audio, stimulus: stimulus).onsets.map(\.time)
            return (entry, taps, events, onsets)
        }
    }
}
