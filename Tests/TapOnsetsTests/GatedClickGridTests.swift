import Foundation
import Testing
@testable import TapOnsets
import TapAudio

/// A phone's noise gate lets a metronome's bleed through only while it is open: some clicks
/// of every group of grid points sound at full gain, the rest not at all. With the few points
/// a short run of heard clicks gives, one group's median gain can fall under ½ by chance, and
/// the grid check once took that group for the silent points of a sub-multiple grid and never
/// subtracted its clicks, which then passed as taps.
@Suite struct GatedClickGridTests {
    static let rate = 48_000.0
    static let period = 0.6 * 48_000

    /// The template checked against clicks (gain 1, 40 dB over the noise) at grid points
    /// `sounding` of −4…15, the run the check reads around heard clicks 0…11.
    static func check(sounding: Set<Int>, heard: [Int]) -> BleedTemplate? {
        var random = TestRandom(state: 7)
        let origin = 5 * period
        let frames = Int(origin + 17 * period)
        var signal = (0..<frames).map { _ in Float(0.0001 * random.gaussian()) }
        for k in sounding {
            let start = Int(origin + Double(k) * period)
            for index in 0..<sineBurstLength { signal[start + index] += sineBurstClick(index) }
        }
        let template = BleedTemplate(samples: (0..<sineBurstLength).map(sineBurstClick), leadFrames: 0, phaseFrames: origin,
                                     periodFrames: period, heardClicks: heard)
        return template.verified { start, length in
            start >= 0 && start + length <= frames ? Array(signal[start..<(start + length)]) : nil
        }
    }

    @Test func aGateThatLetsSomeClicksThroughLeavesNoPointSilent() throws {
        // Odd points: 6 of 10 sound; even points: 3 of 10 (their median gain is 0).
        let sounding: Set<Int> = [-3, -1, 1, 3, 7, 11, 0, 6, 12]
        let template = try #require(Self.check(sounding: sounding, heard: [0, 1, 3, 6, 7, 11]))
        #expect(template.silentResidues.isEmpty, "silent residues \(template.silentResidues) of \(template.clickModulus)")
    }

    @Test func aHalfPeriodGridOfFewPointsStillFindsItsSilentPoints() throws {
        let sounding = Set(stride(from: -4, through: 14, by: 2))
        let template = try #require(Self.check(sounding: sounding, heard: [0, 2, 4, 6, 8, 10]))
        #expect(template.clickModulus == 2 && template.silentResidues == [1], "\(template.clickModulus) \(template.silentResidues)")
    }

    /// A heard click the canceller left in place (its shape the template's, its gain outside
    /// what it subtracts) is heard again in pass 2 at its own level: that is the click, not a
    /// tap. A sound clearly louder than the clicks there is a tap on it, and where the click
    /// was subtracted only a residue 8 dB under it is set aside.
    @Test func aClickLeftInPlaceIsNoTap() {
        func onset(_ time: Double, _ strength: Double) -> Onset {
            Onset(time: time, frame: Int(time * Self.rate), peakTime: time + 0.002, strength: strength, snrDB: 30)
        }
        let clicks = [onset(1.0, -40), onset(1.6, -40.5), onset(2.2, -39.8)]
        let pass2 = [onset(1.0003, -40.2), onset(1.6002, -40.5), onset(2.2001, -34)]
        let (kept, residues) = separateClickResidues(pass2, clicks: clicks, leftInPlace: [0, 2])
        #expect(residues.map(\.time) == [1.0003])
        #expect(kept.map(\.time) == [1.6002, 2.2001])
        let (keptBefore, _) = separateClickResidues(pass2, clicks: clicks)
        #expect(keptBefore.count == 3)
    }
}
