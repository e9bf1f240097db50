import Foundation
import Testing
@testable import TapOnsets
import TapAudio

/// Loud metronome clicks whose starts a lossy codec smeared: AAC spreads quantisation noise up
/// to a few milliseconds ahead of each click, rising towards it (pre-echo), so each click's
/// first change point falls 0–4 ms early, click by click, while its peak stays. The click grid
/// is then found by the peaks (`StimulusLockedOnsets.gridOfPeaks`), and the clicks are not taps.
@Suite struct SmearedClickTests {
    static let rate = 48_000.0
    static let period = 0.44
    static let clicks = (0..<40).map { 1.0 + period * Double($0) }
    /// A tap 20–60 ms before every third click from the seventh on.
    static let taps = clicks.indices.filter { $0 >= 4 && $0 % 3 == 0 }.map { clicks[$0] - 0.02 - 0.01 * Double($0 % 5) }

    /// One noise click (the same 4 ms-decay burst every time) at about −10 dBFS, each led by
    /// a noise ramp 0.3–3.5 ms long rising to 8 dB under the click; noise-burst taps near
    /// −20 dBFS; white noise at −70 dBFS.
    static func recording() -> Signal { render().recording }

    /// The recording above (without the clicks' pre-echo when `preEcho` is false, the random
    /// draws the same) with its taps at `taps` (``taps`` by default) and also at `earlyTaps`
    /// (the time of each, seconds), and the stimulus the clicks were played from: the clicks
    /// alone, without pre-echo. `leastSmeared`: indices of clicks whose pre-echo is the shortest
    /// (0.3 ms).
    static func render(preEcho: Bool = true, taps: [Double] = Self.taps, earlyTaps: [Double] = [],
                       leastSmeared: (Int) -> Bool = { _ in false }) -> (recording: Signal, stimulus: Signal) {
        var random = TestRandom(state: 21)
        var samples = (0..<Int(19 * rate)).map { _ in Float(0.0003 * random.gaussian()) }
        var stimulus = [Float](repeating: 0, count: samples.count)
        let click = (0..<Int(0.03 * rate)).map { index in 0.3 * exp(-Double(index) / rate / 0.004) * random.gaussian() }
        for (index, time) in clicks.enumerated() {
            let start = Int(time * rate)
            for (offset, value) in click.enumerated() {
                samples[start + offset] += Float(value)
                stimulus[start + offset] = Float(value)
            }
            let spread = 0.0032 * random.uniform()
            let lead = Int((0.0003 + (leastSmeared(index) ? 0 : spread)) * rate)
            for offset in 0..<lead {
                let rise = Double(offset + 1) / Double(lead)
                let value = Float(0.3 * 0.4 * rise * rise * random.gaussian())
                if preEcho { samples[start - lead + offset] += value }
            }
        }
        for tap in taps + earlyTaps {
            let start = Int(tap * rate)
            for offset in 0..<Int(0.06 * rate) {
                samples[start + offset] += Float(0.1 * exp(-Double(offset) / rate / 0.006) * random.gaussian())
            }
        }
        return (Signal(samples: samples, sampleRate: rate), Signal(samples: stimulus, sampleRate: rate))
    }

    @Test func clicksSmearedAheadAreTheStimulusNotTaps() {
        let detection = detectTapOnsets(in: Self.recording())
        let clicksAsTaps = Self.clicks.filter { click in detection.onsets.contains { abs($0.time - click) <= 0.005 } }
        // Before the grid of peaks all 40 clicks were taps and 4 taps lost. One is left: what
        // the subtraction leaves of it starts in its own pre-echo, 1.0 ms before where the
        // click was heard, just outside the residue window (`separateClickResidues`).
        #expect(clicksAsTaps.count <= 1, "\(clicksAsTaps.count) of \(Self.clicks.count) clicks reported as taps")
        let found = Self.taps.filter { tap in detection.onsets.contains { abs($0.time - tap) <= 0.002 } }
        #expect(found.count == Self.taps.count, "\(found.count) of \(Self.taps.count) taps")
    }
}

/// The codec smeared every third click least (0.3 ms of pre-echo): their starts make a grid of
/// their own, three beats apart, whose clicks sound alike. The peaks' grid holds all the
/// clicks, and is taken.
extension SmearedClickTests {
    @Test func aFewLeastSmearedClicksDoNotHideTheBeat() {
        let recording = Self.render(leastSmeared: { $0 % 3 == 1 }).recording
        let detection = detectTapOnsets(in: recording)
        let clicksAsTaps = Self.clicks.filter { click in detection.onsets.contains { abs($0.time - click) <= 0.005 } }
        // With only the starts' grid sought (three beats apart, 13 clicks, subtracted), the
        // other 27 clicks were taps and 7 of the 12 taps were lost.
        #expect(clicksAsTaps.isEmpty, "\(clicksAsTaps.count) of \(Self.clicks.count) clicks reported as taps")
        let found = Self.taps.filter { tap in detection.onsets.contains { abs($0.time - tap) <= 0.002 } }
        #expect(found.count == Self.taps.count, "\(found.count) of \(Self.taps.count) taps")
    }
}

/// The same clicks with their stimulus file given: the file predicts each click as played, not
/// as the codec smeared it, so the subtraction leaves each click's pre-echo, 0.3–3.5 ms before
/// it. The predicted bleed's own onsets tell where the clicks start; where most of them have a
/// clearly weaker onset just ahead or at them, those onsets are residues
/// (`separateBleedResidues`). Where the recording keeps the clicks' shape, taps a few
/// milliseconds before a click are taps.
extension SmearedClickTests {
    @Test func whatTheFileLeavesOfSmearedClicksIsNotTaps() throws {
        let (recording, stimulus) = Self.render()
        let detection = detectTapOnsets(in: recording, stimulus: StimulusInput(signal: stimulus))
        #expect(detection.stimulusBleed?.removed == true, "\(detection.stimulusBleed?.message ?? "no report")")
        let clicksAsTaps = Self.clicks.filter { click in detection.onsets.contains { abs($0.time - click) <= 0.005 } }
        // Without the residues set aside, 31 of the 40 clicks' pre-echoes were taps.
        #expect(clicksAsTaps.isEmpty, "\(clicksAsTaps.count) of \(Self.clicks.count) clicks reported as taps")
        let residues = detection.stimulusOnsets.filter { onset in Self.clicks.contains { abs($0 - onset.time) <= 0.005 } }
        #expect(residues.count >= Self.clicks.count / 2, "\(residues.count) residues listed as the stimulus's")
        let found = Self.taps.filter { tap in detection.onsets.contains { abs($0.time - tap) <= 0.002 } }
        #expect(found.count == Self.taps.count, "\(found.count) of \(Self.taps.count) taps")
    }

    @Test func tapsJustBeforeCleanClicksStayTaps() throws {
        // Five taps 2–4 ms before a click (one in eight clicks) with no other tap near, 10 dB
        // under it.
        let early = [5, 13, 23, 29, 37].map { Self.clicks[$0] - 0.002 - 0.0005 * Double($0 % 5) }
        let (recording, stimulus) = Self.render(preEcho: false, earlyTaps: early)
        let detection = detectTapOnsets(in: recording, stimulus: StimulusInput(signal: stimulus))
        #expect(detection.stimulusBleed?.removed == true, "\(detection.stimulusBleed?.message ?? "no report")")
        #expect(detection.stimulusOnsets.isEmpty, "\(detection.stimulusOnsets.count) onsets taken for residues")
        let found = (Self.taps + early).filter { tap in detection.onsets.contains { abs($0.time - tap) <= 0.002 } }
        #expect(found.count == Self.taps.count + early.count, "\(found.count) of \(Self.taps.count + early.count) taps")
    }
}

/// What the subtraction leaves of a click a codec smeared starts in the click's pre-echo, up
/// to a few milliseconds before its instant, at about the level every fitted click leaves:
/// that is the click, not a tap, where many clicks leave one. Louder, outside the window, or
/// where too few clicks have such an onset, it is a sound of its own.
extension SmearedClickTests {
    static func smearedOnset(_ time: Double, _ strength: Double) -> Onset {
        Onset(time: time, frame: Int(time * rate), peakTime: time + 0.002, strength: strength, snrDB: 30)
    }

    /// `count` clicks at −10 dB, 0.5 s apart, whose fits left about 10 dB under them.
    static func fittedClicks(_ count: Int) -> (instants: [Double], fitted: [(frame: Int, unexplainedDB: Double)]) {
        let instants = (0..<count).map { 1.0 + 0.5 * Double($0) }
        return (instants, instants.enumerated().map { (frame: Int($1 * rate), unexplainedDB: [-10.0, -12, -8][$0 % 3]) })
    }

    @Test func whatASubtractionTypicallyLeavesOfASmearedClickIsNoTap() {
        let (instants, fitted) = Self.fittedClicks(12)
        // Onsets from 4.9 ms ahead of the first eight to 0.8 ms after, at the typical leftover
        // (−20 dB) or under it.
        let ahead = [0.0049, 0.004, 0.003, 0.002, 0.001, 0.0005, 0, -0.0008]
        let leftovers = ahead.enumerated().map { Self.smearedOnset(instants[$0] - $1, -20 - Double($0 % 3)) }
        let sounds = [
            Self.smearedOnset(instants[8] - 0.0052, -21),  // 5.2 ms ahead: a tap before the click
            Self.smearedOnset(instants[9] - 0.0015, -16),  // 4 dB over the typical leftover: a tap on the click
            Self.smearedOnset(instants[10] + 0.0012, -25), // 1.2 ms after the instant: not the click's start
        ]
        let pass2 = (leftovers + sounds).sorted { $0.time < $1.time }
        let (kept, residues) = separateSmearedResidues(pass2, fittedClicks: fitted, clickLevel: -10, sampleRate: Self.rate)
        #expect(residues.map(\.time) == leftovers.map(\.time))
        #expect(kept.map(\.time) == sounds.map(\.time))
        // Without clicks fitted or a click level, nothing is set aside.
        #expect(separateSmearedResidues(pass2, fittedClicks: [], clickLevel: -10, sampleRate: Self.rate).residues.isEmpty)
        #expect(separateSmearedResidues(pass2, fittedClicks: fitted, clickLevel: nil, sampleRate: Self.rate).residues.isEmpty)
    }

    @Test func onlyARecordingWhoseClicksLeaveSuchOnsetsHasThem() {
        // Of 40 fitted clicks, 9 with an onset at the leftover's level are fewer than a quarter:
        // taps just before the clicks, kept. With 10 the recording leaves leftovers. Of 12
        // clicks, 7 are a quarter but fewer than 8.
        let (instants, fitted) = Self.fittedClicks(40)
        func residues(at clicks: Range<Int>, of fitted: [(frame: Int, unexplainedDB: Double)]) -> Int {
            let onsets = clicks.map { Self.smearedOnset(instants[$0] - 0.002, -21) }
            return separateSmearedResidues(onsets, fittedClicks: fitted, clickLevel: -10, sampleRate: Self.rate).residues.count
        }
        #expect(residues(at: 0..<9, of: fitted) == 0)
        #expect(residues(at: 0..<10, of: fitted) == 10)
        #expect(residues(at: 0..<7, of: Array(fitted.prefix(12))) == 0)
        #expect(residues(at: 0..<8, of: Array(fitted.prefix(12))) == 8)
    }
}

/// Taps 6–9 ms before smeared clicks, on the tapper's beats: the probe hears each such tap and
/// its click as one sound, which starts at the tap and peaks with the click, so the grid of
/// peaks took the tap's start for the click's, and the tap's own onset after the subtraction,
/// starting there and 9 dB under the click, for the click's residue. A member of the grid that
/// starts more than the codec's pre-echo lead ahead of where its clicks start is taken to start
/// where they do (`clickStartsPastEarlierSounds`).
extension SmearedClickTests {
    @Test func tapsSomeMillisecondsBeforeSmearedClicksAreTaps() {
        let moved = [9, 18, 27, 36]
        let early = moved.map { Self.clicks[$0] - 0.006 - 0.001 * Double($0 % 4) }
        let taps = Self.clicks.indices.filter { $0 >= 4 && $0 % 3 == 0 && !moved.contains($0) }
            .map { Self.clicks[$0] - 0.02 - 0.01 * Double($0 % 5) }
        let detection = detectTapOnsets(in: Self.render(taps: taps, earlyTaps: early).recording)
        // With the members' starts left where the probe heard them, 2 of the 4 early taps were
        // residues.
        let found = (taps + early).filter { tap in detection.onsets.contains { abs($0.time - tap) <= 0.002 } }
        #expect(found.count == taps.count + early.count, "\(found.count) of \(taps.count + early.count) taps")
        let clicksAsTaps = Self.clicks.filter { click in detection.onsets.contains { abs($0.time - click) <= 0.005 } }
        #expect(clicksAsTaps.count <= 1, "\(clicksAsTaps.count) of \(Self.clicks.count) clicks reported as taps")
    }

    @Test func onlyAMemberStartingPastThePreEchoLeadMoves() {
        let grid = StimulusLockedOnsets.Grid(phase: 1.0, period: 0.5)
        // Members starting 1.5 ms before their lines (as a click's peak 1.5 ms after its start
        // puts them on a grid of peaks), one 4.8 ms before (pre-echo), one 6.6 ms before (a tap
        // heard with its click), and a heard click 7 ms before a line that is no member (it would
        // move if it were).
        let offsets = [-0.0015, -0.0015, -0.0048, -0.0015, -0.0066, -0.0015]
        var clicks = offsets.enumerated().map { index, offset in
            let line = 1.0 + 0.5 * Double(index), time = line + offset
            return Onset(time: time, frame: Int(time * Self.rate), peakTime: line, strength: -10, snrDB: 30)
        }
        clicks[4].precursorTime = clicks[4].time - 0.001
        clicks.append(SmearedClickTests.smearedOnset(3.993, -10))
        let moved = clickStartsPastEarlierSounds(clicks, isMember: clicks.indices.map { $0 < offsets.count },
                                                 grid: grid, sampleRate: Self.rate)
        #expect(abs(moved[4].time - 2.9985) < 1e-9 && moved[4].frame == Int((2.9985 * Self.rate).rounded()))
        #expect(moved[4].precursorTime == nil)
        #expect(moved.indices.filter { $0 != 4 }.allSatisfy { moved[$0] == clicks[$0] })
    }
}
