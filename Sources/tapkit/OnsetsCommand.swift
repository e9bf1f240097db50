import ArgumentParser
import Foundation
import TapKit

struct OnsetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "onsets",
        abstract: "Detect tap onsets in audio recordings.",
        discussion: """
            Prints one row per tap onset: 'time' is where the transient starts, in seconds from the \
            first frame; 'strength' is its peak short-time power in dBFS after the high-pass; \
            'snr_db' is that power over the local noise floor; 'tap_score' (0–1) is how much the \
            sound looks like a tap (Docs/algorithms.md); 'kind' is tap, other (scored under \
            --min-score) or stimulus (metronome bleed, a count-in's clicks, or REPP-style alignment \
            markers); 'file' names the recording. Only taps are \
            listed unless --all is given. --features adds the measurements behind the score.

            --stimulus FILE is what the participant heard: its bleed into the microphone is \
            estimated and subtracted from every recording given before detection (a file at \
            another sample rate is converted). When it cannot be used or its bleed is not found, \
            the metronome click grid is used instead and stderr says why.

            Dense percussion (a drum kit's hits: taps close together that sound unlike each \
            other, or taps that rise little over what still rings and keep no steady beat, among \
            other sounds) is completed from the spectral flux, which hears a soft hit under a \
            loud one's ring: the hits it finds are taps, whatever their tap score, and stderr \
            says how many it added (Docs/robustness.md, "Dense material" and "A groove's drums \
            alone"). The tests read the taps found, and a kit whose taps keep a steady beat (a \
            steady kick, or hats loud enough to pass for taps), or whose cymbals the detector \
            hardly hears, can pass for tapping: give \
            --dense-percussion always for a recording known to be a kit, or --dense-percussion never \
            to turn the completion off. \
            Not after a --stimulus file's subtraction (stderr says so when always was given).

            Where another sound fills the low and middle frequencies for much of a recording \
            (music from a loudspeaker, speech, a loud tonal metronome) and the taps found rise \
            clearly further over it in a higher band, the whole detection runs again with a \
            high-pass at 1, 2 or 4 kHz instead of 400 Hz, and stderr says which \
            (Docs/robustness.md, "Taps under music and speech"). Where other sounds are at \
            least as many as the taps, the detection also runs with an 8 kHz high-pass, and the \
            taps it hears where the band detected in heard none are added, with what that band \
            measured, as is a sound it hears alone in a beat a steady rhythm leaves empty; \
            stderr says how many (Docs/robustness.md, "Taps heard in a high band"). \
            Neither where a --stimulus file's bleed was subtracted, nor with --fixed-band.

            Last, a sound that spreads its power over the octave bands as the taps do, and \
            fills a beat their steady rhythm leaves empty, scores 0.5 whatever it scored on its \
            own, a tap at the default cut: a tap that rings long (Docs/algorithms.md, "A sound \
            like the taps in an empty beat"). Not with --no-empty-beats.
            """)

    @Argument(help: "Audio files (any format libsndfile reads).")
    var files: [String]

    @Option(help: "Output format: table, csv or json.")
    var format = OutputFormat.table

    @OptionGroup var onsetOptions: OnsetOptions

    @Option(help: ArgumentHelp("The stimulus the participant heard, for every file given: its bleed is subtracted before detection.",
                               valueName: "file"))
    var stimulus: String?

    @Option(help: ArgumentHelp("Where the stimulus's first frame sounds in the recordings, seconds (negative: it started before them; default 0, playback and recording started together).",
                               valueName: "seconds"), transform: strictDecimal)
    var stimulusOffset: Double?

    @Flag(help: "List every onset: other sounds and stimulus bleed too, not only taps.")
    var all = false

    @Flag(help: "Add the sound's measurements: sustained_snr_db, attack_ms, above_mask_db, decay_db, centroid_hz, flatness, on_earlier_sound, sound_centroid_hz, band_profile_db (octave bands from the high-pass, dB, separated by semicolons).")
    var features = false

    @OptionGroup var provenanceOption: ProvenanceOption

    func validate() throws {
        if stimulusOffset != nil && stimulus == nil { throw ValidationError("--stimulus-offset needs --stimulus") }
    }

    func run() throws {
        let configuration = try onsetOptions.detectorConfiguration()
        let channel = try onsetOptions.channelSelection()
        let inputs = files + (stimulus.map { [$0] } ?? [])
        try provenanceOption.check(inputs: inputs)
        let stimulusInput = stimulus.map { StimulusInput(path: $0, offset: stimulusOffset ?? 0) }
        var errors: [ErrorRow] = []
        var results: [(file: String, onsets: [Onset], band: DetectionBand?)] = []
        var failures = 0
        for file in files {
            do {
                let detection = try detectTapOnsets(inFile: file, channel: channel, configuration: configuration,
                                                    bleed: onsetOptions.bleed, stimulus: stimulusInput)
                if let line = detection.stimulusBleed?.diagnostic(about: file) { printError(line) }
                if let band = detection.detectionBand { printError("note: \(file): \(band.message)") }
                if let line = HighBandTaps.message(added: detection.highBandTaps) { printError("note: \(file): \(line)") }
                if let completed = detection.densePercussionOnsets {
                    let found = completed == 0 ? "the spectral flux found no hit the detector had not"
                        : "\(completed) taps from the spectral flux, added or taken back from the other sounds"
                    let why = configuration.assumesDensePercussion ? "--dense-percussion always"
                        : "a drum kit's hits, not tapping"
                    printError("note: \(file): dense percussion (\(why)): \(found)")
                } else if configuration.assumesDensePercussion {
                    // Asked for, and not done: the detection does not complete after a stimulus
                    // file's subtraction, where the flux would hear the subtracted stimulus again.
                    printError("note: \(file): --dense-percussion always: not completed from the spectral flux after "
                               + "the stimulus file's bleed was subtracted (the flux would take the stimulus's sounds for hits)")
                }
                results.append((file, all ? detection.allOnsets : detection.onsets, detection.detectionBand))
            } catch {
                printError("error: \(error)")
                errors.append(ErrorRow(file: file, message: "\(error)"))
                failures += 1
            }
        }
        // `file` whatever the number of inputs, so one script reads the output of one file or many.
        let featureColumns = features ? ["sustained_snr_db", "attack_ms", "above_mask_db", "decay_db", "centroid_hz", "flatness",
                                          "on_earlier_sound", "sound_centroid_hz", "band_profile_db", "high_band_hz"] : []
        let columns = ["file", "time", "strength", "snr_db", "tap_score", "kind"] + featureColumns
        func cells(_ onset: Onset, _ file: String) -> [String] {
            var row = [file, String(format: "%.6f", onset.time), String(format: "%.2f", onset.strength), String(format: "%.2f", onset.snrDB),
                       String(format: "%.3f", onset.tapScore), onset.kind.rawValue]
            if features {
                let measured = onset.features
                row += [measured?.sustainedSNR, measured.map { $0.attackDuration * 1000 }, measured?.aboveMaskDB, measured?.decayDB]
                    .map { $0.map { String(format: "%.2f", $0) } ?? "" }
                row += [measured?.spectralCentroid.map { String(format: "%.0f", $0) } ?? "",
                        measured?.spectralFlatness.map { String(format: "%.3f", $0) } ?? "",
                        measured.map { $0.onEarlierSound ? "true" : "false" } ?? "",
                        measured?.soundCentroid.map { String(format: "%.0f", $0) } ?? "",
                        measured?.bandProfile.map { $0.map { String(format: "%.1f", $0) }.joined(separator: ";") } ?? "",
                        onset.highBandCutoff.map { String(format: "%.0f", $0) } ?? ""]
            }
            return row
        }
        switch format {
        case .json:
            struct FileOnsets: Encodable {
                var file: String
                /// The high-pass the detection ran with when it chose a higher band; null otherwise.
                var detection_band_hz: Double?
                var onsets: [Row]
                enum CodingKeys: String, CodingKey { case file, detection_band_hz, onsets }
                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: CodingKeys.self)
                    try container.encode(file, forKey: .file)
                    try container.encode(detection_band_hz, forKey: .detection_band_hz)
                    try container.encode(onsets, forKey: .onsets)
                }
                struct Row: Encodable {
                    var time: Double
                    var strength: Double
                    var snr_db: Double
                    var tap_score: Double
                    var kind: String
                    var sustained_snr_db: Double?
                    var attack_ms: Double?
                    var above_mask_db: Double?
                    var decay_db: Double?
                    var centroid_hz: Double?
                    var flatness: Double?
                    var on_earlier_sound: Bool?
                    var sound_centroid_hz: Double?
                    var band_profile_db: [Double]?
                    /// Only on a tap added from the 8 kHz band (`HighBandTaps`): that band's high-pass.
                    var high_band_hz: Double?
                }
            }
            struct Document: Encodable {
                var tapkit: Provenance
                var files: [FileOnsets]
                var errors: [ErrorRow]
            }
            let fileOnsets = results.map { result in
                FileOnsets(file: result.file, detection_band_hz: result.band?.cutoff, onsets: result.onsets.map { onset in
                    func hundredths(_ value: Double) -> Double { (value * 100).rounded() / 100 }
                    let measured = features ? onset.features : nil
                    return .init(time: (onset.time * 1e6).rounded() / 1e6, strength: hundredths(onset.strength),
                                 snr_db: hundredths(onset.snrDB), tap_score: (onset.tapScore * 1000).rounded() / 1000,
                                 kind: onset.kind.rawValue, sustained_snr_db: measured.map { hundredths($0.sustainedSNR) },
                                 attack_ms: measured.map { hundredths($0.attackDuration * 1000) },
                                 above_mask_db: measured.map { hundredths($0.aboveMaskDB) }, decay_db: measured.map { hundredths($0.decayDB) },
                                 centroid_hz: measured?.spectralCentroid.map { $0.rounded() },
                                 flatness: measured?.spectralFlatness.map { ($0 * 1000).rounded() / 1000 },
                                 on_earlier_sound: measured?.onEarlierSound,
                                 sound_centroid_hz: measured?.soundCentroid.map { $0.rounded() },
                                 band_profile_db: measured?.bandProfile.map { $0.map { ($0 * 10).rounded() / 10 } },
                                 high_band_hz: onset.highBandCutoff)
                })
            }
            printOutput(try renderJSON(Document(tapkit: onsetOptions.provenance(), files: fileOnsets, errors: errors)))
        case .csv, .table:
            let rows = results.flatMap { result in result.onsets.map { cells($0, result.file) } }
            printOutput((format == .csv ? renderCSV : renderTable)(columns, rows))
        }
        try provenanceOption.write(onsetOptions.provenance(), inputs: inputs)
        throw exitStatus(failures: failures)
    }
}
