import Foundation
import TapAudio
import TapData

/// The ground truth of a written folder (`truth.json`): what the simulator was asked and what
/// happened in every task.
public struct SimulationTruthDocument: Sendable, Codable {
    /// The seed everything derives from.
    public var seed: UInt64
    /// The configuration used.
    public var configuration: SimulationConfiguration
    /// Per task, keyed `001_01`.
    public var tasks: [String: TaskTruth]

    /// The file name beside the data.
    public static let fileName = "truth.json"

    /// Reads `truth.json` from a folder written by ``writeSimulatedSession(to:users:tasksPerUser:configuration:seed:format:)``.
    public static func read(folder: String) throws -> SimulationTruthDocument {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + fileName))
        return try JSONDecoder().decode(SimulationTruthDocument.self, from: data)
    }
}

/// Simulates a session and writes it as a Tap-It data folder: `NNN_TT.wav` (the microphone
/// on every channel, as Tap-It recorded it), `NNN_TT.txt` (the logged touches, `%f`),
/// `NNN_play_order.txt`, and `truth.json` with the ground truth.
///
/// Tasks are simulated and written one at a time, so memory holds one task.
/// - Returns: the truth document that was written.
@discardableResult
public func writeSimulatedSession(to folder: String, users: Int, tasksPerUser: Int,
                                  configuration: SimulationConfiguration, seed: UInt64,
                                  format: AudioFileFormat = .wav16) throws -> SimulationTruthDocument {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    var document = SimulationTruthDocument(seed: seed, configuration: configuration, tasks: [:])
    for user in 1...max(users, 1) where users > 0 {
        try PlayOrderFile.write(playOrder(user: user, tasksPerUser: tasksPerUser, seed: seed),
                                to: folder + "/" + PlayOrderFile.fileName(user: user))
        for track in 1...max(tasksPerUser, 1) where tasksPerUser > 0 {
            let task = simulateTask(user: user, track: track, configuration: configuration, seed: seed)
            let id = TaskID(user: user, track: track)
            let extensionName = format == .flac16 || format == .flac24 ? "flac" : "wav"
            try Signal(samples: task.samples, sampleRate: task.sampleRate)
                .write(to: folder + "/" + id.audioFileName(extension: extensionName), format: format,
                       channelCount: task.channels)
            try TimestampFile.write(task.truth.touches, to: folder + "/" + id.timestampsFileName)
            document.tasks[id.description] = task.truth
        }
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(document).write(to: URL(fileURLWithPath: folder + "/" + SimulationTruthDocument.fileName))
    return document
}
