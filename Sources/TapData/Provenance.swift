/// Where a result came from: the top-level `"tapkit"` block of every JSON output (and of the
/// `--provenance FILE` written beside CSV). Every key is always present; a setting that does
/// not apply to the command is `null`.
public struct Provenance: Sendable, Equatable, Encodable {
    /// TapKit's version (``tapkitVersion``).
    public var version: String
    /// The command line as the program received it (`CommandLine.arguments`).
    public var commandLine: [String]
    /// The onset-detection preset (`standard`, `sensitive`, `conservative`).
    public var preset: String?
    /// The onset threshold in dB above the noise floor actually used: the preset's, or
    /// `--threshold-db`.
    public var thresholdDb: Double?
    /// Metronome bleed handling: `cancel`, `reject` or `keep`.
    public var bleed: String?
    /// The channel analysed: `mix`, or the 1-based channel number as text.
    public var channel: String?
    /// The tap-tempo estimator (`tapkit tempo` only).
    public var estimator: String?

    enum CodingKeys: String, CodingKey {
        case version, commandLine = "command_line", preset, thresholdDb = "threshold_db", bleed, channel, estimator
    }

    /// A block for this TapKit version; settings that do not apply stay nil (`null`).
    public init(commandLine: [String], preset: String? = nil, thresholdDb: Double? = nil, bleed: String? = nil,
                channel: String? = nil, estimator: String? = nil) {
        version = tapkitVersion
        self.commandLine = commandLine
        self.preset = preset
        self.thresholdDb = thresholdDb
        self.bleed = bleed
        self.channel = channel
        self.estimator = estimator
    }

    /// Every key written, `null` when a setting does not apply.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(commandLine, forKey: .commandLine)
        try container.encode(preset, forKey: .preset)
        try container.encode(thresholdDb, forKey: .thresholdDb)
        try container.encode(bleed, forKey: .bleed)
        try container.encode(channel, forKey: .channel)
        try container.encode(estimator, forKey: .estimator)
    }
}

/// The document of `--provenance FILE`: `{"tapkit": {…}}`, the same path as in JSON output.
public struct ProvenanceDocument: Sendable, Encodable {
    /// The block.
    public var tapkit: Provenance
    /// The document holding `tapkit`.
    public init(_ tapkit: Provenance) { self.tapkit = tapkit }
}
