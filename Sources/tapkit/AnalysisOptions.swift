import ArgumentParser
import TapKit

extension BleedHandling: ExpressibleByArgument {}
extension StimulusBleedMode: ExpressibleByArgument {}

/// Whether a recording is taken for a drum kit (`--dense-percussion`).
enum DensePercussionChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}

/// Options shared by the commands that detect onsets.
struct OnsetOptions: ParsableArguments {
    @Option(help: "Onset detection preset: \(OnsetDetectorConfiguration.presetNames.joined(separator: ", ")).")
    var preset = "standard"

    @Option(help: "Onset threshold above the local noise floor, in dB (overrides the preset).", transform: strictDecimal)
    var thresholdDb: Double?

    @Option(help: "Tap-score cut, 0–1: onsets scoring below it are 'other' sounds, not taps (default \(OnsetDetectorConfiguration.standard.minimumTapScore)).",
            transform: strictDecimal)
    var minScore: Double?

    @Option(help: "Channel to analyse, 1-based, or 'mix' to average all channels.")
    var channel = "mix"

    @Option(help: "Metronome bleed: cancel (subtract the clicks and detect again), reject (set click onsets aside) or keep.")
    var bleed = BleedHandling.cancel

    @Flag(help: "Detect in the configured band only (a 400 Hz high-pass): never in a higher band chosen where music or speech drowns the taps, nor with taps added from an 8 kHz high-pass, so that strengths and features compare across recordings.")
    var fixedBand = false

    @Flag(help: "Never take a sound for a tap because it sounds like the taps and fills a beat their steady rhythm leaves empty (a tap that rings long then stays among the other sounds): for an analysis of that rhythm.")
    var noEmptyBeats = false

    @Option(help: "Dense percussion (a drum kit): auto (completed from the spectral flux where the taps found look like a kit's hits), always (the recording is a kit: completed whatever the test says; not after a stimulus file's subtraction, where the flux would hear the stimulus again) or never.")
    var densePercussion = DensePercussionChoice.auto

    func detectorConfiguration() throws -> OnsetDetectorConfiguration {
        guard var configuration = OnsetDetectorConfiguration.preset(named: preset) else {
            throw ValidationError("unknown preset '\(preset)'; choose one of \(OnsetDetectorConfiguration.presetNames.joined(separator: ", "))")
        }
        if let thresholdDb {
            guard thresholdDb > 0 else { throw ValidationError("--threshold-db must be positive") }
            configuration.thresholdDB = thresholdDb
        }
        if let minScore {
            guard (0...1).contains(minScore) else { throw ValidationError("--min-score must lie between 0 and 1") }
            configuration.minimumTapScore = minScore
        }
        configuration.choosesDetectionBand = !fixedBand
        configuration.fillsEmptyBeats = !noEmptyBeats
        configuration.completesDensePercussion = densePercussion != .never
        configuration.assumesDensePercussion = densePercussion == .always
        return configuration
    }

    /// The latency pipeline's options from these flags.
    func latencyOptions() throws -> LatencyAnalysisOptions {
        LatencyAnalysisOptions(onsetDetection: try detectorConfiguration(), channel: try channelSelection(), bleed: bleed)
    }

    func channelSelection() throws -> ChannelSelection {
        if channel == "mix" { return .mix }
        guard let number = Int(channel), number >= 1 else {
            throw ValidationError("--channel takes a channel number from 1, or 'mix'")
        }
        return .channel(number - 1)
    }
}

extension OnsetOptions {
    /// The `"tapkit"` block of a run with these options (the threshold actually used).
    func provenance() -> Provenance {
        let threshold = (try? detectorConfiguration())?.thresholdDB
        return Provenance(commandLine: CommandLine.arguments, preset: preset, thresholdDb: threshold, bleed: bleed.rawValue,
                          channel: channel)
    }
}

extension StimulusBleedReport {
    /// The stderr line for a stimulus whose bleed was not removed, about `subject` (a file, or a
    /// file and its task): a warning when the file could not be used, a note when it was read
    /// but its subtraction was not kept (nothing found to subtract, or the click grid matched
    /// clearly more touches); nil when the bleed was removed.
    func diagnostic(about subject: String) -> String? {
        guard !removed else { return nil }
        if case .unusable = status { return "warning: \(subject): \(message)" }
        return "note: \(subject): \(message)"
    }
}
