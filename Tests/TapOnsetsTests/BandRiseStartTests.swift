import Foundation
import Testing
@testable import TapOnsets

/// A soft hit under the ring of a loud one is placed by the bands it adds.
@Suite struct BandRiseStartTests {
    static let rate = 44_100.0

    /// 80 ms of a kick's ring (a 180 Hz mode and a little noise, decaying from well before),
    /// with a hat at `hitTime`: a noise burst decaying over 10 ms, `hitLevel` of the mode's
    /// amplitude, which lifts the broadband power by under 1 dB but the high bands by far more.
    static func ringWithSoftHit(at hitTime: Double, hitLevel: Float) -> [Float] {
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

    @Test(arguments: [0.030, 0.041, 0.052] as [Double])
    func aSoftHitUnderARingIsPlacedByItsBands(hitTime: Double) throws {
        let samples = Self.ringWithSoftHit(at: hitTime, hitLevel: 0.1)
        // The hat adds little to the broadband power: under 1 dB over its first 10 ms.
        let hitFrame = Int(hitTime * Self.rate), tenMs = Int(0.010 * Self.rate)
        let alone = Self.ringWithSoftHit(at: 1, hitLevel: 0)
        func power(_ signal: [Float]) -> Double { signal[hitFrame..<(hitFrame + tenMs)].reduce(0) { $0 + Double($1 * $1) } }
        #expect(10 * log10(power(samples) / power(alone)) < 1)
        let start = try #require(BandRiseStart.start(in: samples, sampleRate: Self.rate))
        let error = (Double(start) / Self.rate - hitTime) * 1000
        #expect(abs(error) <= 3, "placed \(error) ms from the hit")
    }

    @Test func tooShortAStretchHasNoStart() {
        let length = BandRiseStart.frameLength(sampleRate: Self.rate)
        #expect(length == 1024)
        #expect(BandRiseStart.start(in: [Float](repeating: 0.1, count: length + 100), sampleRate: Self.rate) == nil)
    }
}
