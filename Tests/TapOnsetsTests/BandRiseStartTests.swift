import Foundation
import Testing
@testable import TapOnsets

/// A soft hit under the ring of a loud one is placed by the bands it adds.
@Suite struct BandRiseStartTests {
    /// 80 ms of a kick's ring (a 180 Hz mode and a little noise, decaying from well before),
    /// with a hat at `hitTime`: a noise burst decaying over 10 ms, `hitLevel` of the mode's
    /// amplitude, which lifts the broadband power by under 1 dB but the high bands by far more.
    static func ringWithSoftHit(at hitTime: Double, hitLevel: Float, rate: Double) -> [Float] {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func noise() -> Float {
            // A fixed xorshift sequence, so the test sees the same signal every run.
            seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17
            return Float(Double(seed % 2_000_001) / 1_000_000 - 1)
        }
        return (0..<Int(0.080 * rate)).map { index in
            let t = Double(index) / rate
            let ring = Float(exp(-(t + 0.05) / 0.1)) * (0.9 * Float(sin(2 * .pi * 180 * t)) + 0.05 * noise())
            let hat = noise()
            guard t >= hitTime else { return ring }
            return ring + hitLevel * Float(exp(-(t - hitTime) / 0.010)) * hat
        }
    }

    @Test(arguments: [0.030, 0.041, 0.052] as [Double], [16_000, 44_100, 48_000] as [Double])
    func aSoftHitUnderARingIsPlacedByItsBands(hitTime: Double, rate: Double) throws {
        let samples = Self.ringWithSoftHit(at: hitTime, hitLevel: 0.1, rate: rate)
        // The hat adds little to the broadband power: under 1 dB over its first 10 ms.
        let hitFrame = Int(hitTime * rate), tenMs = Int(0.010 * rate)
        let alone = Self.ringWithSoftHit(at: 1, hitLevel: 0, rate: rate)
        func power(_ signal: [Float]) -> Double { signal[hitFrame..<(hitFrame + tenMs)].reduce(0) { $0 + Double($1 * $1) } }
        #expect(10 * log10(power(samples) / power(alone)) < 1)
        let start = try #require(BandRiseStart.start(in: samples, sampleRate: rate, allowed: 0..<samples.count))
        let error = (Double(start) / rate - hitTime) * 1000
        #expect(abs(error) <= 3, "placed \(error) ms from the hit")
    }

    /// Only starts in `allowed` are taken: a louder hit later in the segment does not pull
    /// the start out of the stretch searched.
    @Test func aLouderHitOutsideTheStretchIsNotTaken() throws {
        let rate = 44_100.0
        var samples = Self.ringWithSoftHit(at: 0.030, hitLevel: 0.1, rate: rate)
        // A snare 30 ms after the hat, broadband and five times as loud.
        let later = Int(0.060 * rate)
        var state: UInt32 = 12_345
        for index in later..<samples.count {
            state = state &* 1_664_525 &+ 1_013_904_223
            let noise = Float(state >> 8) / Float(1 << 23) - 1
            samples[index] += 0.5 * Float(exp(-Double(index - later) / (0.010 * rate))) * noise
        }
        let whole = try #require(BandRiseStart.start(in: samples, sampleRate: rate, allowed: 0..<samples.count))
        #expect(abs(Double(whole) / rate - 0.060) <= 0.003, "the louder hit wins when allowed")
        let stretch = try #require(BandRiseStart.start(in: samples, sampleRate: rate, allowed: 0..<Int(0.050 * rate)))
        #expect(abs(Double(stretch) / rate - 0.030) <= 0.003, "placed \((Double(stretch) / rate - 0.030) * 1000) ms from the soft hit")
    }

    @Test func tooShortAStretchHasNoStart() {
        #expect(BandRiseStart.frameLength(sampleRate: 44_100) == 1024)
        #expect(BandRiseStart.frameLength(sampleRate: 16_000) == 372)
        let samples = [Float](repeating: 0.1, count: 1024 + 100)
        #expect(BandRiseStart.start(in: samples, sampleRate: 44_100, allowed: 0..<samples.count) == nil)
        #expect(BandRiseStart.start(in: samples + samples, sampleRate: 44_100, allowed: 0..<10) == nil,
                "no start can lie that early")
    }
}
