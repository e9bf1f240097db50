import Foundation
import Testing
@testable import TapData

/// `TapItFolder.taskStimuli(trackList:trackListPath:)`: each task's stimulus from the track
/// list, and what a capture sidecar naming another file does to it.
@Suite struct FolderChecksTaskStimuliTests {
    /// A data folder with the complete task 001_01 and, when `played` is given, its sidecar
    /// naming that stimulus; the stimuli found for a track list whose entry (line 3) is `listed`.
    func stimuli(listed: String, played: String?) throws -> (stimuli: TaskStimuli, folder: String) {
        var result: (TaskStimuli, String)?
        try withTemporaryDirectory { dir in
            try makeFile(dir, "001_01.txt", "0.5\n")
            try makeFile(dir, "001_01.wav")
            if let played {
                try TaskSidecar(task: "001_01", stimulus: played, sampleRate: 48_000, periodFrames: 128,
                                outputPorts: ["system:playback_1"], inputPort: "system:capture_1", tapInput: "keyboard",
                                taps: 1, stimulusSampleRate: 48_000, stimulusUnderrunFrames: 0, xruns: 0, droppedFrames: 0,
                                startedAt: "2026-11-24T00:00:00Z", tapkitVersion: "0.0.0", completed: true)
                    .write(to: dir + "/001_01.json")
            }
            let folder = try TapItFolder.scan(dir)
            result = (folder.taskStimuli(trackList: [(name: listed, line: 3)], trackListPath: "/experiment/trackList.xml"), dir)
        }
        return try #require(result)
    }

    let task = TaskID(user: 1, track: 1)

    @Test func theListsEntryWhenTheSidecarAgreesOrIsAbsent() throws {
        for played in ["music.wav", nil] {
            let (found, _) = try stimuli(listed: "music.wav", played: played)
            #expect(found == TaskStimuli(stimuli: [task: "music.wav"]))
        }
    }

    @Test func theFilePlayedWhenTheListWasChanged() throws {
        let (found, folder) = try stimuli(listed: "edited.wav", played: "songs/music.wav")
        #expect(found.stimuli == [task: "songs/music.wav"])
        #expect(found.errors.map(\.description) == [
            "/experiment/trackList.xml:3: track 1 is \"edited.wav\", but task 001_01 played \"songs/music.wav\" (\(folder)/001_01.json): the track list was changed after the session; the file played is used",
        ])
    }

    /// A sidecar naming a file the place check refuses: the error names it and says why, the
    /// task has no stimulus (the click grid), and nothing claims the file played is used.
    @Test(arguments: [("../music.wav", "leaves the experiment folder"), ("/elsewhere/music.wav", "is an absolute path")])
    func aFilePlayedThatFailsThePlaceCheckFallsBackToTheClickGrid(played: String, why: String) throws {
        let (found, folder) = try stimuli(listed: "edited.wav", played: played)
        #expect(found.stimuli.isEmpty)
        let message = try #require(found.errors.first?.description)
        #expect(found.errors.count == 1)
        #expect(message.hasPrefix("/experiment/trackList.xml:3: track 1 is \"edited.wav\", but task 001_01 played \"\(played)\" (\(folder)/001_01.json): the track list was changed after the session; "), "\(message)")
        #expect(message.contains("task 001_01 falls back to the click-grid method, as the file played cannot be used: \"\(played)\" \(why)"), "\(message)")
        #expect(!message.contains("is used"), "\(message)")
    }
}
