/// The files of one task found in a Tap-It data folder.
///
/// Either path is `nil` when the file is missing or ambiguous (two recordings for one
/// task); ``TapItFolder/problems`` then says why.
public struct TapItTask: Sendable, Hashable {
    /// Which user and track.
    public var id: TaskID
    /// The tap-timestamp file (`NNN_TT.txt`).
    public var timestampsPath: String?
    /// The microphone recording (`NNN_TT.wav` or another audio format).
    public var audioPath: String?

    /// A task from its id and file paths.
    public init(id: TaskID, timestampsPath: String? = nil, audioPath: String? = nil) {
        self.id = id
        self.timestampsPath = timestampsPath
        self.audioPath = audioPath
    }

    /// Whether both files are there, so that the task can be analysed.
    public var isComplete: Bool { timestampsPath != nil && audioPath != nil }
}
