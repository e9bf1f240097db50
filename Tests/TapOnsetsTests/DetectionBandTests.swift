import Foundation
import Testing
@testable import TapOnsets
import TapAudio
import TapTestSupport

/// The band the detector listens in (`DetectionBandChoice`): taps under loud low-pitched
/// music are found in a higher band; a recording with a quiet background keeps the configured
/// band, and its detection is unchanged.
struct DetectionBandTests {
    static let tapTimes = TapsUnderMusic.tapTimes

    static func recording(musicLevel: Double) -> Signal {
        Signal(samples: TapsUnderMusic.recording(musicLevel: musicLevel), sampleRate: TapsUnderMusic.sampleRate)
    }

    static func hits(_ onsets: [Onset]) -> Int {
        tapTimes.filter { truth in onsets.contains { abs($0.time - truth) <= 0.010 } }.count
    }

    @Test func tapsUnderLoudLowMusicAreFoundInAHigherBand() throws {
        // The configured band finds 26 of the 36 taps (measured: its contrast is 10 dB, a 4 kHz
        // high-pass's 26 dB), the higher band all of them.
        let signal = Self.recording(musicLevel: 0.008)
        var configured = OnsetDetectorConfiguration.standard
        configured.choosesDetectionBand = false
        let inTheConfiguredBand = detectTapOnsets(in: signal, configuration: configured)
        let chosen = detectTapOnsets(in: signal)
        let band = try #require(chosen.detectionBand)
        #expect(band.cutoff > 400)
        #expect(band.contrastDB - band.configuredContrastDB >= DetectionBandChoice.leastGainDB)
        #expect(Self.hits(chosen.onsets) == Self.tapTimes.count)
        #expect(chosen.onsets.count == Self.tapTimes.count)
        #expect(Self.hits(inTheConfiguredBand.onsets) <= Self.tapTimes.count - 8)
    }

    @Test func aQuietBackgroundKeepsTheConfiguredBand() {
        let starts = (0..<30).map { 22_050 + $0 * 22_050 }
        let signal = syntheticTaps(starts: starts, amplitude: 300, frames: 44_100 * 17)
        var configured = OnsetDetectorConfiguration.standard
        configured.choosesDetectionBand = false
        let detection = detectTapOnsets(in: signal)
        #expect(detection.detectionBand == nil)
        #expect(detection == detectTapOnsets(in: signal, configuration: configured))
    }
}

extension DetectionBandTests {
    /// Too few taps to measure (the music masks all but a handful in the configured band):
    /// nothing is chosen, and the detection is the configured band's.
    @Test func tooFewTapsKeepTheConfiguredBand() {
        let signal = Self.recording(musicLevel: 0.03)
        var configured = OnsetDetectorConfiguration.standard
        configured.choosesDetectionBand = false
        let detection = detectTapOnsets(in: signal)
        #expect(detection.onsets.count < DetectionBandChoice.leastTaps)
        #expect(detection.detectionBand == nil)
        #expect(detection == detectTapOnsets(in: signal, configuration: configured))
    }
}

extension DetectionBandTests {
    /// With the music's own file given, its bleed is subtracted before detection and the taps
    /// stand clear in the configured band: the survey, which reads the recording as it is
    /// (the music still in it), is not asked.
    @Test func aStimulusFilesSubtractionKeepsTheConfiguredBand() throws {
        let signal = Self.recording(musicLevel: 0.012)
        let detection = detectTapOnsets(in: signal, stimulus: StimulusInput(signal: Signal(samples: TapsUnderMusic.music(level: 0.012), sampleRate: TapsUnderMusic.sampleRate)))
        #expect(try #require(detection.stimulusBleed).removed)
        #expect(detection.detectionBand == nil)
        #expect(Self.hits(detection.onsets) == Self.tapTimes.count)
    }
}
