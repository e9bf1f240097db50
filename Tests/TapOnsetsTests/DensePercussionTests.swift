import Foundation
import Testing
@testable import TapOnsets
import TapAudio
import TapSim

/// A drum kit's soft hits under the ring of its loud ones are found by the spectral flux, and
/// tapping, however fast, is never taken for a kit.
@Suite struct DensePercussionTests {
    /// `Fixtures/drums`: 12.5 s of a General MIDI kit with its 54 note-on times.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/drums").path

    /// The hits found (an onset within `tolerance` of a note-on, one for one, in order) and the
    /// onsets that are no hit. The audible start lies 0–4 ms after the note-on.
    static func score(_ onsets: [Onset], hits: [Double], tolerance: Double = 0.010) -> (found: Int, false: Int) {
        var unmatched = onsets.map { $0.time - 0.0036 }
        var found = 0
        for hit in hits {
            if let index = unmatched.firstIndex(where: { abs($0 - hit) <= tolerance }) {
                unmatched.remove(at: index)
                found += 1
            }
        }
        return (found, unmatched.count)
    }

    @Test func softHitsUnderTheRingAreFound() throws {
        let path = Self.fixtures + "/kit.flac"
        let hits = try String(contentsOfFile: Self.fixtures + "/kit.onsets.csv", encoding: .utf8)
            .split(separator: "\n").dropFirst().compactMap { Double($0) }
        #expect(hits.count == 54)
        var plain = OnsetDetectorConfiguration.standard
        plain.completesDensePercussion = false
        let alone = try detectTapOnsets(inFile: path, configuration: plain, bleed: .keep)
        let completed = try detectTapOnsets(inFile: path, bleed: .keep)
        #expect(alone.densePercussionOnsets == nil)
        #expect(DensePercussion.applies(to: alone.onsets), "the kit is not taken for one")
        let before = Self.score(alone.onsets, hits: hits), after = Self.score(completed.onsets, hits: hits)
        // Alone, the detector misses a quarter of the hits (41 of 54 found) and reports nothing
        // else; completed, it misses two or three, still reports nothing else, and each added
        // start lies within 10 ms.
        #expect(before.false == 0 && before.found <= 42, "alone: \(before.found) of 54, \(before.false) false")
        #expect(after.false == 0 && after.found >= 51, "completed: \(after.found) of 54, \(after.false) false")
        #expect(completed.densePercussionOnsets == completed.onsets.count - alone.onsets.count)
    }

    /// Tapping at 2.4–6.7 taps a second (TapSim: varied taps, knocks, coughs, noise) keeps the
    /// detector's own onsets, untouched.
    @Test(arguments: [16, 17, 18] as [UInt64])
    func fastTappingIsNoKit(seed: UInt64) {
        var configuration = SimulationConfiguration()
        configuration.tempoRange = 0.15...0.42
        configuration.channels = 1
        for track in 1...2 {
            let task = simulateTask(user: 1, track: track, configuration: configuration, seed: seed)
            let signal = Signal(samples: task.samples, sampleRate: task.sampleRate)
            var plain = OnsetDetectorConfiguration.standard
            plain.completesDensePercussion = false
            let detection = detectTapOnsets(in: signal)
            #expect(detection.densePercussionOnsets == nil, "seed \(seed) track \(track)")
            #expect(detection == detectTapOnsets(in: signal, configuration: plain), "seed \(seed) track \(track)")
        }
    }
}
