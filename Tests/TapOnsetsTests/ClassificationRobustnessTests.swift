import Testing
@testable import TapOnsets

/// Onsets that a script made, not the detector, may carry any value: the classification
/// (`TapOnsetDetection.classified(cut:)`) must neither stop the process nor lose or invent an
/// onset, whatever their times, levels and features hold.
@Suite(.serialized) struct ClassificationRobustnessTests {
    /// A small deterministic generator (a 64-bit linear congruential one): the same inputs on
    /// every run.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        mutating func unit() -> Double { Double(next() % 1_000_000) / 1_000_000 }
        mutating func chance(_ p: Double) -> Bool { unit() < p }
        /// A plausible value in `range`, or now and then one that is not a number, infinite or
        /// extreme.
        mutating func value(_ range: ClosedRange<Double>, oddity: Double) -> Double {
            guard chance(oddity) else { return range.lowerBound + unit() * (range.upperBound - range.lowerBound) }
            return [Double.nan, .infinity, -.infinity, 1e300, -1e300, 0][Int(next() % 6)]
        }
    }

    func randomOnsets(_ generator: inout Generator, count: Int, oddity: Double) -> [Onset] {
        var time = 0.5
        return (0..<count).map { _ in
            time += generator.chance(0.7) ? 0.5 + 0.1 * generator.unit() : 0.01 + 0.2 * generator.unit()
            let onsetTime = generator.chance(oddity) ? generator.value(0...1, oddity: 1) : time
            var features: OnsetFeatures?
            if !generator.chance(0.1) {
                let bands = generator.chance(0.9) ? 6 : Int(generator.next() % 8)
                features = OnsetFeatures(
                    sustainedSNR: generator.value(0...40, oddity: oddity), attackDuration: generator.value(0...0.03, oddity: oddity),
                    aboveMaskDB: generator.value(-5...40, oddity: oddity), decayDB: generator.value(-30...3, oddity: oddity),
                    spectralCentroid: generator.value(100...10_000, oddity: oddity),
                    spectralFlatness: generator.value(0...1, oddity: oddity),
                    soundCentroid: generator.value(100...10_000, oddity: oddity),
                    bandProfile: (0..<bands).map { _ in generator.value(-30...0, oddity: oddity) },
                    onEarlierSound: generator.chance(0.2))
            }
            let kinds: [OnsetKind] = [.tap, .tap, .tap, .other]
            return Onset(time: onsetTime, frame: Int(max(0, min(onsetTime.isFinite ? onsetTime : 0, 1e6)) * 48_000),
                         peakTime: onsetTime + 0.002, strength: generator.value(-60 ... -10, oddity: oddity),
                         snrDB: generator.value(0...50, oddity: oddity), features: features,
                         kind: kinds[Int(generator.next() % 4)])
        }
    }

    @Test(arguments: [0.0, 0.02, 0.2])
    func anyOnsetsAreClassifiedWithoutLossOrInvention(oddity: Double) {
        var generator = Generator(state: 42 + UInt64(oddity * 1000))
        for round in 0..<150 {
            let sounds = randomOnsets(&generator, count: Int(generator.next() % 60), oddity: oddity)
            let clicks = randomOnsets(&generator, count: Int(generator.next() % 20), oddity: oddity)
            let detection = TapOnsetDetection(onsets: sounds.filter { $0.kind == .tap }, otherOnsets: sounds.filter { $0.kind == .other },
                                              stimulusOnsets: clicks)
            for cut in [0.05, 0.5, 0.9] {
                let classified = detection.classified(cut: cut)
                // Every onset comes back, at its own time (compared bit for bit: NaN too).
                let timesIn = (sounds + clicks).map(\.time.bitPattern).sorted()
                let timesOut = [classified.onsets, classified.otherOnsets, classified.stimulusOnsets].joined().map(\.time.bitPattern).sorted()
                #expect(timesOut == timesIn, "round \(round), cut \(cut)")
                // Every score is a number between 0 and 1.
                #expect(classified.onsets.allSatisfy { (0...1).contains($0.tapScore) }
                        && classified.otherOnsets.allSatisfy { (0...1).contains($0.tapScore) }, "round \(round), cut \(cut)")
            }
        }
    }
}
