import Foundation
import Testing
import TapMetronome

@Suite struct RationalTests {
    @Test func parsesDecimalsAndFractionsExactly() {
        #expect(Rational("120") == Rational(120))
        #expect(Rational("120.5") == Rational(241, 2))
        #expect(Rational("241/2") == Rational(241, 2))
        #expect(Rational("0.1") == Rational(1, 10))
        #expect(Rational("-1.25") == Rational(-5, 4))
        for bad in ["", "abc", "1.2.3", "1/0", "1e3", "12.", "1.1234567"] { #expect(Rational(bad) == nil, "\(bad)") }
        #expect(Rational(".5") == Rational(1, 2) && Rational("-.5") == Rational(-1, 2))
    }

    /// Found by fuzzing (Fuzz/regressions/numbers): a lone minus sign read as 0, so
    /// `phase-shift 5 -` was a shift of 0 ms, and spaces around a number were dropped.
    @Test func refusesALoneMinusAndSpaces() throws {
        for bad in ["-", "-.", " 120", "120 ", "120\u{A0}", "\t1/2", "1/2 "] { #expect(Rational(bad) == nil, "\(bad.debugDescription)") }
        #expect(throws: MetronomeError.self) { try MetronomeProgram(parsing: "tempo 100\nbars 2\nphase-shift 5 -\n", path: "p.txt") }
    }

    @Test func roundsHalvesUp() {
        #expect(Rational(5, 2).roundedToNearest == 3)
        #expect(Rational(-5, 2).roundedToNearest == -2)
        #expect(Rational(7, 3).roundedToNearest == 2)
        #expect(Rational(1, 3) + Rational(1, 6) == Rational(1, 2))
        #expect(Rational(2, 3) * Rational(9, 4) == Rational(3, 2))
    }
}

@Suite struct ScheduleTests {
    /// round(k × 60/BPM × rate), halves up, straight from the tempo's fraction.
    static func closedForm(_ k: Int, tempo: Rational, rate: Int) -> Int {
        let numerator = Int128(k) * 60 * Int128(rate) * Int128(tempo.denominator)
        let denominator = Int128(tempo.numerator)
        return Int((2 * numerator + denominator) / (2 * denominator))
    }

    /// Every beat of 24 hours of clicks sits at exactly round(k × 60/BPM × rate), at tempos
    /// whose periods are not whole frames and at several rates.
    @Test(arguments: [("120", 48_000), ("100.3", 44_100), ("7/3", 96_000), ("999", 44_100), ("61.7", 22_050)])
    func beatsAreExactOverTwentyFourHours(tempo text: String, rate: Int) throws {
        let tempo = try #require(Rational(text))
        let schedule = try ClickSchedule(MetronomeSettings(tempo: tempo, meter: Meter(4, 4)!), sampleRate: rate)
        let beats = Int((Rational(24 * 60) * tempo).roundedToNearest)  // 24 h of beats
        let clicks = schedule.clicks(inBars: 0..<(beats / 4))
        #expect(clicks.count == beats / 4 * 4)
        var wrong = 0
        for (k, click) in clicks.enumerated() where click.frame != Self.closedForm(k, tempo: tempo, rate: rate) { wrong += 1 }
        #expect(wrong == 0, "\(wrong) of \(clicks.count) beats off their exact frame")
        #expect(abs(clicks.last!.time - (Rational(Int64(clicks.count - 1) * 60) / tempo).doubleValue) < 1e-9)
    }

    /// 6/8 counted in dotted quarters at 60: two beats a bar, one a second; a 7/8 bar counted
    /// in quarters has four beats, the last half as long.
    @Test func beatUnitsAndMeters() throws {
        let compound = try ClickSchedule(MetronomeSettings(tempo: Rational(60), meter: Meter(6, 8)!, beatUnit: NoteValue("4.")),
                                         sampleRate: 48_000)
        #expect(compound.clicks(inBars: 0..<2).map(\.frame) == [0, 48_000, 96_000, 144_000])
        #expect(compound.clicks(inBars: 0..<2).map(\.kind) == [.accent, .beat, .accent, .beat])
        let odd = try ClickSchedule(MetronomeSettings(tempo: Rational(120), meter: Meter(7, 8)!, beatUnit: NoteValue("4")),
                                    sampleRate: 48_000)
        #expect(odd.clicks(inBars: 0..<2).map(\.frame) == [0, 24_000, 48_000, 72_000, 84_000, 108_000, 132_000, 156_000])
        // An irrational meter: 4/3 at 90 thirds-of-a-whole per minute.
        let irrational = try ClickSchedule(MetronomeSettings(tempo: Rational(90), meter: Meter(4, 3)!), sampleRate: 48_000)
        #expect(irrational.clicks(inBars: 0..<1).map(\.frame) == [0, 32_000, 64_000, 96_000])
    }

    /// Subdivisions 2 and 4 together: the shared half-beat click is labelled 1/2 and plays at
    /// the louder volume; beats win over subdivisions.
    @Test func simultaneousSubdivisions() throws {
        var settings = MetronomeSettings(tempo: Rational(60), meter: Meter(1, 4)!)
        settings.subdivisions = [2: 0.25, 4: 0.5, 3: 1]
        settings.subdivisionVolume = 1
        let clicks = try ClickSchedule(settings, sampleRate: 48_000).clicks(inBars: 0..<1)
        #expect(clicks.map(\.subdivisionLabel) == ["0", "1/4", "1/3", "1/2", "2/3", "3/4"])
        #expect(clicks.map(\.frame) == [0, 12_000, 16_000, 24_000, 32_000, 36_000])
        #expect(clicks.map(\.volume) == [1, 0.5, 1, 0.5, 1, 0.5])
    }

    @Test func outOfRangeValuesAreNamed() {
        var settings = MetronomeSettings(tempo: Rational(1_000), meter: Meter(4, 4)!)
        #expect(throws: MetronomeError.outOfRange("tempo", "1000 BPM", "1–999 BPM")) { try settings.validate() }
        settings.tempo = Rational(60)
        settings.subdivisions = [10: 1]
        #expect(throws: MetronomeError.outOfRange("subdivision", "10", "2–9")) { try settings.validate() }
        #expect(Meter(0, 4) == nil && Meter(4, 100) == nil && NoteValue("4...") == nil && NoteValue("0") == nil)
    }
}
