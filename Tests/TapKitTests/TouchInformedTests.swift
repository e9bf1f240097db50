import Foundation
import Testing
import TapKit

/// The touches' say in detection: a quiet tap the score set aside is taken back where a touch
/// asks for it, a cough is not, and onsets left without a touch are split into taps the device
/// missed and other sounds.
@Suite struct TouchInformedTests {
    func onset(_ time: Double, attack: Double, decay: Double, kind: OnsetKind, score: Double = 0.95,
               aboveMask: Double = 15) -> Onset {
        Onset(time: time, frame: Int(time * 44_100), peakTime: time + attack, strength: -20, snrDB: 25,
              features: OnsetFeatures(sustainedSNR: 20, attackDuration: attack, aboveMaskDB: aboveMask, decayDB: decay),
              tapScore: score, kind: kind)
    }

    /// Twenty taps 0.5 s apart from 1 s, alike but for small spreads, and their touches 15–17 ms
    /// late.
    func twentyTaps() -> (onsets: [Onset], touches: [Double]) {
        let times = (0..<20).map { 1.0 + 0.5 * Double($0) }
        return (times.indices.map { k in
                    onset(times[k], attack: 0.002 + 0.0001 * Double(k % 5), decay: -12 + 0.3 * Double(k % 7), kind: .tap)
                },
                times.indices.map { times[$0] + 0.015 + 0.001 * Double($0 % 3) })
    }

    /// ``twentyTaps()`` and one at 11.5 s that the score set aside (a sound 12 ms after it
    /// spoils its decay); that sound, which passes for a tap, is what its touch was paired with.
    func tapWithSpoiledDecay(risingDB: Double) -> TaskLatency {
        var (onsets, touches) = twentyTaps()
        touches.append(11.516)
        onsets.append(onset(11.512, attack: 0.002, decay: -12, kind: .tap))
        let spoiled = onset(11.5, attack: 0.0021, decay: 3, kind: .other, score: 0.3, aboveMask: risingDB)
        return analyzeLatency(id: TaskID(user: 1, track: 1), touches: touches.sorted(),
                              detection: TapOnsetDetection(onsets: onsets.sorted { $0.time < $1.time }, otherOnsets: [spoiled]))
    }

    @Test func aTouchPairedFarFromItsTapTakesTheTapBack() throws {
        let task = tapWithSpoiledDecay(risingDB: 12)
        #expect(task.match.pairs.count == 21 && task.rescuedOnsets == 1)
        let pair = try #require(task.match.pairs.first { abs($0.touchTime - 11.516) < 1e-9 })
        #expect(abs(pair.onsetTime - 11.5) < 1e-9)
        // The sound after it is left without a touch.
        #expect(task.match.unmatchedOnsetIndices.map { task.onsets[$0].time }.contains { abs($0 - 11.512) < 1e-9 })
        // Rising only 3 dB over what sounded before it, it is no clear new contact: its decay
        // counts, does not fit the taps', and the pair stays.
        let faint = tapWithSpoiledDecay(risingDB: 3)
        #expect(faint.rescuedOnsets == 0)
        #expect(faint.match.pairs.contains { abs($0.touchTime - 11.516) < 1e-9 && abs($0.onsetTime - 11.512) < 1e-9 })
    }

    @Test func touchesTakeBackQuietTapsAndSortTheRest() {
        var (taps, touches) = twentyTaps()
        // A quiet tap the score set aside, with a touch: taken back.
        let quiet = onset(11.5, attack: 0.0022, decay: -11, kind: .other, score: 0.3)
        touches.append(11.516)
        // A cough where a touch asks for a tap: not taken back (it builds up and does not decay).
        let cough = onset(12.0, attack: 0.015, decay: 2, kind: .other, score: 0.1)
        touches.append(12.016)
        // Without touches: a tap the device did not log, and a sustained sound the score let through.
        let unlogged = onset(13.0, attack: 0.0021, decay: -12.5, kind: .tap)
        let sustained = onset(13.7, attack: 0.003, decay: 3, kind: .tap, score: 0.6)
        let detection = TapOnsetDetection(onsets: (taps + [unlogged, sustained]).sorted { $0.time < $1.time },
                                          otherOnsets: [quiet, cough])
        let task = analyzeLatency(id: TaskID(user: 1, track: 1), touches: touches.sorted(), detection: detection)
        #expect(task.match.pairs.count == 21)
        #expect(task.match.pairs.contains { abs($0.onsetTime - 11.5) < 1e-9 })
        #expect(task.rescuedOnsets == 1)
        #expect(task.match.unmatchedTouchIndices.count == 1)
        #expect(task.missedTouches == 1)
        #expect(task.otherOnsets == 2)
        let row = LatencyRow(task)
        #expect(row.nMissedTouches == 1 && row.nOtherOnsets == 2)
    }

    /// A touch whose tap was silent asks for a tap where this participant's latency puts it,
    /// as near as the pairs lie to the latency model (2.5 robust SDs, at least 5 ms), not the
    /// whole matching tolerance: a sound that sounds like the taps 12 ms off (a click, a note)
    /// is not its tap; 3 ms off, it is.
    @Test func aTouchAsksForATapOnlyAsNearAsThePairsLie() throws {
        for (offset, taken) in [(0.012, false), (0.003, true)] {
            var (taps, touches) = twentyTaps()
            touches.append(11.516)
            let sound = onset(11.5 - offset, attack: 0.0021, decay: -11.5, kind: .other, score: 0.3)
            taps.sort { $0.time < $1.time }
            let task = analyzeLatency(id: TaskID(user: 1, track: 1), touches: touches.sorted(),
                                      detection: TapOnsetDetection(onsets: taps, otherOnsets: [sound]))
            #expect(task.rescuedOnsets == (taken ? 1 : 0), "\(offset)")
            #expect(task.match.pairs.contains { abs($0.onsetTime - sound.time) < 1e-9 } == taken, "\(offset)")
            #expect(task.match.unmatchedTouchIndices.count == (taken ? 0 : 1), "\(offset)")
        }
    }

    /// ``twentyTaps()`` with the taps' band profile, and two sounds set aside at clicks where a
    /// touch asks for a tap: one spreads its power as the taps do (a tap that sounded with its
    /// click, set aside as the click's leftover), one as a click does.
    /// One of the taps was added from the 8 kHz band, which profiles it over fewer bands: the
    /// taps' profile is taken without it. With `pairedAt`, the touch is paired with a sound
    /// there, far from where the latency model puts its tap.
    func tapsAndClickLeftovers(leftoverProfile: [Double], pairedAt paired: Double? = nil) -> TaskLatency {
        let tapProfile = [-1.0, -8, -20]
        var (taps, touches) = twentyTaps()
        taps = taps.indices.map { k in
            var tap = taps[k]
            tap.features?.bandProfile = tapProfile.map { $0 + 0.5 * Double(k % 3 - 1) }
            return tap
        }
        taps[4].highBandCutoff = 8_000
        taps[4].features?.bandProfile = [-0.5, -9]
        if let paired { taps.append(onset(paired, attack: 0.002, decay: -12, kind: .tap)) }
        var leftover = onset(11.5, attack: 0.0022, decay: -11, kind: .stimulus, score: 1)
        leftover.features?.bandProfile = leftoverProfile
        // A heard click of the first pass: listed without features.
        let heardClick = Onset(time: 11.4998, frame: Int(11.4998 * 44_100), peakTime: 11.5008, strength: -15, snrDB: 30,
                               tapScore: 1, kind: .stimulus)
        touches.append(11.516)
        return analyzeLatency(id: TaskID(user: 1, track: 1), touches: touches.sorted(),
                              detection: TapOnsetDetection(onsets: taps, stimulusOnsets: [heardClick, leftover]))
    }

    @Test func aTouchTakesBackATapSetAsideWithItsClick() {
        let task = tapsAndClickLeftovers(leftoverProfile: [-1.5, -7, -21])
        #expect(task.match.pairs.count == 21 && task.rescuedOnsets == 1)
        #expect(task.match.pairs.contains { abs($0.onsetTime - 11.5) < 1e-9 })
        #expect(task.stimulusOnsets.map(\.time) == [11.4998])
        #expect(task.otherOnsets == 0)
        // What a click leaves keeps the click's colour (its power an octave higher): it stays
        // set aside, and the touch unmatched.
        let click = tapsAndClickLeftovers(leftoverProfile: [-12, -1, -9])
        #expect(click.match.pairs.count == 20 && click.rescuedOnsets == 0)
        #expect(click.stimulusOnsets.count == 2)
        // A touch paired far from the model asks among the other sounds only: its pair already
        // holds a sound that passes for a tap.
        let far = tapsAndClickLeftovers(leftoverProfile: [-1.5, -7, -21], pairedAt: 11.508)
        #expect(far.match.pairs.contains { abs($0.touchTime - 11.516) < 1e-9 && abs($0.onsetTime - 11.508) < 1e-9 })
        #expect(far.rescuedOnsets == 0 && far.stimulusOnsets.count == 2)
    }

    /// ``twentyTaps()`` with their band profiles, a touch at 11.516 whose tap the detection did
    /// not hear, an `other` sound at `cough` (shaped as no tap is) and a listener that hears
    /// `heard`, wherever it lies. Also what the listener was asked.
    /// With `spread`, the touches' latencies spread ±4 ms (2.5 robust SDs of the pairs: 15 ms).
    /// With `pairedAt`, the touch at 11.516 is paired with a sound there, far from its tap.
    func tapsAndAListener(_ heard: [Onset], cough: Double = 12.3, spread: Bool = false, pairedAt paired: Double? = nil)
        -> (task: TaskLatency, asked: [(time: Double, reach: Double)]) {
        var (taps, touches) = twentyTaps()
        if spread { touches = taps.indices.map { taps[$0].time + 0.015 + 0.004 * Double($0 % 3 - 1) } }
        if let paired { taps.append(onset(paired, attack: 0.002, decay: -12, kind: .tap)) }
        taps = taps.indices.map { k in
            var tap = taps[k]
            tap.features?.bandProfile = [-1.0, -8, -20].map { $0 + 0.5 * Double(k % 3 - 1) }
            return tap
        }
        touches.append(11.516)
        let cough = onset(cough, attack: 0.015, decay: 2, kind: .other, score: 0.1)
        nonisolated(unsafe) var asked: [(time: Double, reach: Double)] = []
        let task = analyzeLatency(id: TaskID(user: 1, track: 1), touches: touches.sorted(),
                                  detection: TapOnsetDetection(onsets: taps, otherOnsets: [cough])) { time, reach in
            asked.append((time, reach))
            return heard   // near or not: what lies beyond the reach is the analysis's to leave

        }
        return (task, asked)
    }

    func heardOnset(_ time: Double, profile: [Double], attack: Double = 0.0021) -> Onset {
        var heard = onset(time, attack: attack, decay: -11.5, kind: .tap, score: 1)
        heard.features?.bandProfile = profile
        return heard
    }

    @Test func aTouchListensForATapTheDetectionDidNotHear() throws {
        let (task, asked) = tapsAndAListener([heardOnset(11.5005, profile: [-1.2, -7.5, -20.5])])
        // Only the unmatched touch asks, where the latency model puts its tap and as near as
        // the pairs lie (5 ms at least), 8 ms at most.
        #expect(asked.count == 1)
        let ask = try #require(asked.first)
        #expect(abs(ask.time - 11.5) < 0.002 && ask.reach >= 0.005 && ask.reach <= 0.008)
        #expect(task.match.pairs.count == 21 && task.rescuedOnsets == 1)
        #expect(task.match.pairs.contains { abs($0.touchTime - 11.516) < 1e-9 && abs($0.onsetTime - 11.5005) < 1e-9 })
        #expect(task.onsets.count == 21 && task.otherOnsets == 1)
        // A sound that spreads its power as no tap does (a note, a click) is not taken.
        let note = tapsAndAListener([heardOnset(11.5005, profile: [-14, -1, -9])]).task
        #expect(note.match.pairs.count == 20 && note.rescuedOnsets == 0 && note.onsets.count == 20)
        // Nor one shaped unlike the taps (a slow attack).
        let slow = tapsAndAListener([heardOnset(11.5005, profile: [-1.2, -7.5, -20.5], attack: 0.02)]).task
        #expect(slow.match.pairs.count == 20 && slow.rescuedOnsets == 0)
        // Nor one within 5 ms of a sound the detection judged already: here the cough.
        let judged = tapsAndAListener([heardOnset(11.5005, profile: [-1.2, -7.5, -20.5])], cough: 11.504)
        #expect(judged.task.match.pairs.count == 20 && judged.task.rescuedOnsets == 0)
        let clear = tapsAndAListener([heardOnset(11.5005, profile: [-1.2, -7.5, -20.5])], cough: 11.507)
        #expect(clear.task.match.pairs.count == 21 && clear.task.rescuedOnsets == 1)
        // Where the pairs spread widely, a heard onset is still sought no further than 8 ms
        // from the model's place (found with a lower threshold, it is weaker evidence).
        let wide = tapsAndAListener([heardOnset(11.5095, profile: [-1.2, -7.5, -20.5])], spread: true)
        #expect(wide.asked.count == 1 && abs((wide.asked.first?.reach ?? 0) - 0.008) < 1e-12)
        #expect(wide.task.match.pairs.count == 20 && wide.task.rescuedOnsets == 0)
        let near = tapsAndAListener([heardOnset(11.5065, profile: [-1.2, -7.5, -20.5])], spread: true)
        #expect(near.task.match.pairs.count == 21 && near.task.rescuedOnsets == 1)
        // A touch paired far from the model (with a sound 8 ms after its tap) listens too, half
        // as far as its pair lies, and the tap heard takes the pair.
        let far = tapsAndAListener([heardOnset(11.5005, profile: [-1.2, -7.5, -20.5])], pairedAt: 11.508)
        #expect(far.asked.count == 1 && (far.asked.first?.reach ?? 1) < 0.005)
        #expect(far.task.match.pairs.contains { abs($0.touchTime - 11.516) < 1e-9 && abs($0.onsetTime - 11.5005) < 1e-9 })
        #expect(far.task.rescuedOnsets == 1 && far.task.missedTouches + far.task.otherOnsets == 2)
    }

    @Test func withoutEnoughMatchedTapsThereIsNoModel() {
        let few = (0..<5).map { onset(1.0 + 0.5 * Double($0), attack: 0.002, decay: -12, kind: .tap) }
        #expect(TapModel(taps: few) == nil)
        let task = analyzeLatency(id: TaskID(user: 1, track: 1), touches: [1.015, 1.515, 2.015],
                                  detection: TapOnsetDetection(onsets: few, otherOnsets: [onset(3.5, attack: 0.002, decay: -12, kind: .other)]))
        #expect(task.rescuedOnsets == 0)
        // Every unmatched onset counts as a missed touch; the set-aside one stays other.
        #expect(task.missedTouches == task.match.unmatchedOnsetIndices.count && task.otherOnsets == 1)
    }
}

/// The tap model knows the taps' spectrum: a sound with the taps' attack and decay but its
/// power two octaves higher (a knuckle's knock, a click) does not fit it.
@Suite struct TapModelSpectrumTests {
    func onset(centroid: Double) -> Onset {
        Onset(time: 1, frame: 44_100, peakTime: 1.002, strength: -20, snrDB: 25,
              features: OnsetFeatures(sustainedSNR: 20, attackDuration: 0.002, aboveMaskDB: 15, decayDB: -12,
                                      spectralCentroid: centroid, spectralFlatness: 0.01))
    }

    @Test func aSoundTwoOctavesAwayDoesNotFit() throws {
        let taps = (0..<10).map { onset(centroid: 900 * pow(2, 0.1 * Double($0 % 3 - 1))) }
        let model = try #require(TapModel(taps: taps))
        #expect(model.fits(onset(centroid: 950)))
        #expect(!model.fits(onset(centroid: 3_600)))
        // Without a measured spectrum, attack and decay alone decide.
        var unmeasured = onset(centroid: 3_600)
        unmeasured.features?.spectralCentroid = nil
        #expect(model.fits(unmeasured))
    }
}
