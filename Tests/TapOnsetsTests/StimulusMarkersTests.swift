import Testing
import TapOnsets

/// REPP-style alignment markers: three alike sounds 280 and 230 ms apart.
@Suite struct StimulusMarkersTests {
    func onset(_ time: Double, _ level: Double, centroid: Double? = 500) -> Onset {
        let features = centroid.map {
            OnsetFeatures(sustainedSNR: 30, attackDuration: 0.005, aboveMaskDB: 30, decayDB: -6, spectralCentroid: $0)
        }
        return Onset(time: time, frame: Int(time * 48_000), peakTime: time + 0.005, strength: level, snrDB: 40,
                     features: features)
    }

    @Test func aTripletAmongTapsIsFound() {
        // Taps every 0.55 s with levels ±4 dB; the markers at 2.09 s lie between them.
        var onsets = (0..<12).map { onset(0.3 + 0.55 * Double($0), -20 + 4 * Double($0 % 3 - 1), centroid: 2_000) }
        onsets += [onset(2.090, -11.6), onset(2.370, -11.6), onset(2.600, -10.9)]
        onsets.sort { $0.time < $1.time }
        let markers = StimulusMarkers.indices(in: onsets)
        #expect(markers.map { onsets[$0].time }.sorted() == [2.090, 2.370, 2.600])
    }

    @Test func tapsThatDoNotFitStayTaps() {
        // The gaps right but the levels 4 dB apart (taps vary), or the levels alike and one
        // gap 5 ms off, or the spectra an octave apart.
        let unlike = [onset(1.0, -20), onset(1.280, -16), onset(1.510, -20)]
        let offBeat = [onset(1.0, -20), onset(1.285, -20), onset(1.515, -20)]
        let otherSounds = [onset(1.0, -20, centroid: 500), onset(1.280, -20, centroid: 1_000), onset(1.510, -20, centroid: 500)]
        for onsets in [unlike, offBeat, otherSounds] {
            #expect(StimulusMarkers.indices(in: onsets).isEmpty, "\(onsets.map(\.time))")
        }
    }

    @Test func onsetsWithoutFeaturesAreJudgedByTimingAndLevel() {
        let onsets = [onset(3.0, -30, centroid: nil), onset(3.2805, -30.5, centroid: nil), onset(3.5100, -29.8, centroid: nil)]
        #expect(StimulusMarkers.indices(in: onsets) == [0, 1, 2])
    }
}
