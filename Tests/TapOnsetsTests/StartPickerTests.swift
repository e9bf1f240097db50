import Foundation
import Testing
@testable import TapOnsets

/// The start picker on a stretch of noise, an optional lead-in and a transient: the lead-in
/// of a lossy codec's pre-echo (far fainter than the transient) is stepped over, and a sound
/// that merely swells into its loudest part is not cut.
@Suite struct StartPickerTests {
    /// 20 ms of noise at `noiseRMS`, then `leadIn` samples of noise at `leadInRMS`, then 2 ms
    /// of a noise burst at `burstRMS`, ending where its power peaks as the detector's stretches
    /// do (48 kHz); returns the samples and where the lead-in and the burst start.
    func stretch(noiseRMS: Double = 0.001, leadIn: Int, leadInRMS: Double, burstRMS: Double,
                 seed: UInt64) -> (samples: [Float], leadInStart: Int, burstStart: Int) {
        var random = TestRandom(state: seed)
        let leadInStart = 960, burstStart = leadInStart + leadIn, count = burstStart + 96
        let samples = (0..<count).map { index -> Float in
            let rms = index < leadInStart ? noiseRMS : index < burstStart ? leadInRMS : burstRMS
            return Float(rms * random.gaussian())
        }
        return (samples, leadInStart, burstStart)
    }

    @Test(arguments: [48, 144, 288])  // 1, 3 and 6 ms of pre-echo at 48 kHz
    func preEchoThirtyDecibelsUnderTheTransientIsSteppedOver(leadIn: Int) {
        for seed in UInt64(1)...20 {
            let (samples, leadInStart, burstStart) = stretch(leadIn: leadIn, leadInRMS: 0.01, burstRMS: 0.3, seed: seed)
            let picked = samples.withUnsafeBufferPointer { StartPicker.pickSkippingPrecursor($0) }
            #expect(abs(picked.start - burstStart) <= 3, "seed \(seed): start \(picked.start), burst \(burstStart)")
            #expect(abs((picked.precursor ?? -1000) - leadInStart) <= 6, "seed \(seed): precursor \(String(describing: picked.precursor))")
            // The plain picker stops at the pre-echo.
            #expect(abs(samples.withUnsafeBufferPointer { StartPicker.pick($0) } - leadInStart) <= 6)
        }
    }

    /// AAC at 48 kbit/s leaves its pre-echo about 16 dB under the tap (median; Docs/robustness.md,
    /// `Scripts/codec-smear`): 18 dB under the transient, it is stepped over too.
    @Test func preEchoEighteenDecibelsUnderTheTransientIsSteppedOver() {
        for seed in UInt64(1)...20 {
            let (samples, leadInStart, burstStart) = stretch(leadIn: 144, leadInRMS: 0.3 * pow(10, -18.0 / 20), burstRMS: 0.3, seed: seed)
            let picked = samples.withUnsafeBufferPointer { StartPicker.pickSkippingPrecursor($0) }
            // Within 0.125 ms: at this contrast the change point wanders a few samples.
            #expect(abs(picked.start - burstStart) <= 6, "seed \(seed): start \(picked.start), burst \(burstStart)")
            #expect(abs((picked.precursor ?? -1000) - leadInStart) <= 6, "seed \(seed)")
        }
    }

    /// The step's other side: TapSim taps' own build-up is stepped over from 13 dB on
    /// (session 6), so a lead-in 12 dB under the transient stays part of the sound.
    @Test func aLeadInTwelveDecibelsFainterIsPartOfTheSound() {
        for seed in UInt64(1)...20 {
            let (samples, leadInStart, _) = stretch(leadIn: 144, leadInRMS: 0.3 * pow(10, -12.0 / 20), burstRMS: 0.3, seed: seed)
            let picked = samples.withUnsafeBufferPointer { StartPicker.pickSkippingPrecursor($0) }
            #expect(picked.precursor == nil, "seed \(seed)")
            #expect(abs(picked.start - leadInStart) <= 6, "seed \(seed): start \(picked.start), lead-in \(leadInStart)")
        }
    }

    @Test func aLeadInOnlyTenDecibelsFainterIsPartOfTheSound() {
        for seed in UInt64(1)...20 {
            let (samples, leadInStart, _) = stretch(leadIn: 144, leadInRMS: 0.1, burstRMS: 0.3, seed: seed)
            let picked = samples.withUnsafeBufferPointer { StartPicker.pickSkippingPrecursor($0) }
            #expect(picked.precursor == nil, "seed \(seed)")
            #expect(abs(picked.start - leadInStart) <= 6, "seed \(seed): start \(picked.start), lead-in \(leadInStart)")
        }
    }

    @Test func aCleanTransientKeepsItsStart() {
        for seed in UInt64(1)...20 {
            let (samples, _, burstStart) = stretch(leadIn: 0, leadInRMS: 0, burstRMS: 0.3, seed: seed)
            let picked = samples.withUnsafeBufferPointer { StartPicker.pickSkippingPrecursor($0) }
            #expect(picked.precursor == nil, "seed \(seed)")
            #expect(abs(picked.start - burstStart) <= 3, "seed \(seed)")
        }
    }
}
