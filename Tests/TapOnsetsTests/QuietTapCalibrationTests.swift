import Foundation
import Testing
@testable import TapOnsets
import TapAudio

/// Taps on a surface that starts softly (the sound builds up over 3 ms) at 6–40 dB over a
/// steady noise: the start picker finds a quiet tap where it emerges from the noise, late.
/// Measured on the recording's own loud taps, that lateness is taken off the quiet taps.
@Suite struct QuietTapCalibrationTests {
    static let rate = 48_000.0

    /// 60 taps 0.5 s apart, each a noise burst whose amplitude rises linearly over 3 ms and then
    /// decays over 8 ms, at an SNR drawn from 6–40 dB; returns the signal, the true starts and
    /// each tap's SNR.
    static func session(seed: UInt64) -> (signal: Signal, starts: [Int], snr: [Double]) {
        var random = TestRandom(state: seed)
        let noise = 0.001
        let frames = Int(31.5 * rate)
        var samples = (0..<frames).map { _ in Float(noise * random.gaussian()) }
        var starts: [Int] = [], snr: [Double] = []
        for k in 0..<60 {
            let start = Int((1 + 0.5 * Double(k) + 0.02 * random.uniform()) * rate)
            let level = 6 + 34 * random.uniform()
            starts.append(start)
            snr.append(level)
            let amplitude = noise * pow(10, level / 20)
            for offset in 0..<Int(0.06 * rate) {
                let t = Double(offset) / rate
                let envelope = min(1, t / 0.003) * exp(-max(0, t - 0.003) / 0.008)
                samples[start + offset] += Float(amplitude * envelope * random.gaussian())
            }
        }
        return (Signal(samples: samples, sampleRate: rate), starts, snr)
    }

    /// The median error (ms) of the found starts of the taps under 15 dB and over 30 dB.
    static func medianErrors(calibrated: Bool, seed: UInt64) -> (quiet: Double, loud: Double) {
        let (signal, starts, snr) = session(seed: seed)
        var configuration = OnsetDetectorConfiguration.standard
        configuration.calibratesQuietTaps = calibrated
        let found = detectTapOnsets(in: signal, configuration: configuration, bleed: .keep).onsets.map(\.frame)
        return medianErrors(found: found, starts: starts, snr: snr)
    }

    /// The median error (ms) of the `found` starts (frames) nearest the true `starts` of the
    /// taps under 15 dB and over 30 dB (`snr`), those within 10 ms.
    static func medianErrors(found: [Int], starts: [Int], snr: [Double]) -> (quiet: Double, loud: Double) {
        var quiet: [Double] = [], loud: [Double] = []
        for (start, level) in zip(starts, snr) {
            guard let frame = found.min(by: { abs($0 - start) < abs($1 - start) }), abs(frame - start) < Int(0.01 * rate) else { continue }
            let error = Double(frame - start) / rate * 1000
            if level < 15 { quiet.append(error) } else if level >= 30 { loud.append(error) }
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        return (median(quiet), median(loud))
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func quietTapsAreNoLongerLate(seed: UInt64) {
        let before = Self.medianErrors(calibrated: false, seed: seed)
        let after = Self.medianErrors(calibrated: true, seed: seed)
        // Uncalibrated, quiet taps are found far later than loud ones; calibrated, about as
        // late (the loud taps' own lateness, which a recording cannot show, stays).
        #expect(before.quiet - before.loud > 0.5, "seed \(seed): quiet \(before.quiet) ms, loud \(before.loud) ms uncalibrated")
        #expect(abs(after.quiet - after.loud) < 0.15, "seed \(seed): quiet \(after.quiet) ms, loud \(after.loud) ms calibrated")
        #expect(after.loud == before.loud)
    }

    /// A quiet sound scored under the cut is re-timed as it would be as a tap: latency matching
    /// may take it back for a touch.
    @Test func quietOtherSoundsAreRetimedAsTapsAre() {
        let (signal, _, _) = Self.session(seed: 1)
        var plain = OnsetDetectorConfiguration.standard
        plain.calibratesQuietTaps = false
        let found = detectTapOnsets(in: signal, configuration: plain, bleed: .keep)
        // Every second quiet tap handed over to the other sounds, as a score under the cut would.
        let quiet = found.onsets.indices.filter { found.onsets[$0].snrDB < QuietTapCalibration.quietSNR }
        let handed = Set(quiet.enumerated().filter { $0.offset % 2 == 0 }.map(\.element))
        var split = found
        split.onsets = found.onsets.indices.filter { !handed.contains($0) }.map { found.onsets[$0] }
        split.otherOnsets = handed.sorted().map { found.onsets[$0] }
        let source = SignalSource(signal: signal)
        let asTaps = QuietTapCalibration.calibrated(found, source: source, configuration: .standard)
        let asOthers = QuietTapCalibration.calibrated(split, source: source, configuration: .standard)
        #expect(handed.count >= 5)
        #expect(asOthers.otherOnsets.map(\.frame) == handed.sorted().map { asTaps.onsets[$0].frame })
        #expect(zip(asOthers.otherOnsets, split.otherOnsets).filter { $0.frame != $1.frame }.count >= handed.count / 2)
    }
}

/// A loud click 7 ms after a loud tap (a metronome from a loudspeaker, 15 dB over the tap) is
/// in the reference stretch, which is read from the recording as it is, not as the detector
/// heard it with the clicks subtracted: mixed in at a quiet tap's level by the power of its
/// start, click and all, such a reference does not show how late a quiet tap is found. Loud
/// taps with a stimulus sound more than ``QuietTapCalibration/referenceClickMarginDB`` over
/// them in that stretch are no references.
extension QuietTapCalibrationTests {
    /// The median error (ms) of the calibrated starts of the taps under 15 dB and over 30 dB,
    /// with a click after every other tap at 32 dB or more, in the audio and among the
    /// detection's stimulus onsets.
    static func medianErrorsWithClicks(seed: UInt64) -> (quiet: Double, loud: Double) {
        let (signal, starts, snr) = session(seed: seed)
        var samples = signal.samples
        var random = TestRandom(state: seed + 100)
        let clicked = starts.indices.filter { snr[$0] >= 32 }.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        // Enough loud taps are left without a click to calibrate on.
        #expect(starts.indices.filter { snr[$0] >= QuietTapCalibration.referenceSNR }.count - clicked.count
                >= QuietTapCalibration.minimumReferences)
        for index in clicked {
            let start = starts[index] + Int(0.007 * rate), amplitude = 0.001 * pow(10, (snr[index] + 15) / 20)
            for offset in 0..<Int(0.03 * rate) {
                samples[start + offset] += Float(amplitude * exp(-Double(offset) / rate / 0.004) * random.gaussian())
            }
        }
        let recording = Signal(samples: samples, sampleRate: rate)
        // The onsets as detected with the clicks subtracted: those of the recording without them.
        var plain = OnsetDetectorConfiguration.standard
        plain.calibratesQuietTaps = false
        var found = detectTapOnsets(in: signal, configuration: plain, bleed: .keep)
        found.stimulusOnsets = clicked.map { index in
            let frame = starts[index] + Int(0.007 * rate)
            return Onset(time: Double(frame) / rate, frame: frame, peakTime: Double(frame) / rate + 0.001,
                         strength: 20 * log10(0.001) + snr[index] + 15, snrDB: snr[index] + 15)
        }
        let calibrated = QuietTapCalibration.calibrated(found, source: SignalSource(signal: recording), configuration: .standard)
        return medianErrors(found: calibrated.onsets.map(\.frame), starts: starts, snr: snr)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func loudTapsWithALoudClickAreNoReferences(seed: UInt64) {
        let errors = Self.medianErrorsWithClicks(seed: seed)
        // With the clicked taps as references (the clicks not listed as stimulus onsets), the
        // quiet taps' median lay +0.813, −0.250 and −0.146 ms off the loud taps' (seeds 1–3):
        // seeds 1 and 2 tell the difference, seed 3 does not.
        #expect(abs(errors.quiet - errors.loud) < 0.15, "seed \(seed): quiet \(errors.quiet) ms, loud \(errors.loud) ms")
    }
}
