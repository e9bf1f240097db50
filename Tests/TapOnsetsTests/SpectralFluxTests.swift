import Foundation
import Testing
@testable import TapOnsets
import TapAudio

/// The spectral flux finds each burst of a train once, at every sample rate, where the dense
/// percussion step looks for its start; silence has no peaks; a loud first sound after a
/// silent lead-in does not hide the softer ones after it.
@Suite struct SpectralFluxTests {
    /// Digital silence, then from 0.6 s faint noise with 40 bursts every 0.2 s, each decaying
    /// over 20 ms: the first at full level, the rest alternating 6 dB under it and 15 dB over
    /// the noise. The first rises out of silence in every band, far more than any other.
    static func train(rate: Double) -> (signal: Signal, starts: [Double]) {
        var random = TestRandom(state: 7)
        let frames = Int(9 * rate)
        var samples = (0..<frames).map { $0 < Int(0.6 * rate) ? Float(0) : Float(0.0005 * random.gaussian()) }
        var starts: [Double] = []
        for index in 0..<40 {
            let start = 0.6 + 0.2 * Double(index)
            starts.append(start)
            let amplitude = index == 0 ? 0.5 : (index % 2 == 0 ? 0.25 : 0.003)
            for offset in 0..<Int(0.1 * rate) {
                let t = Double(offset) / rate
                samples[Int(start * rate) + offset] += Float(amplitude * exp(-t / 0.02) * random.gaussian())
            }
        }
        return (Signal(samples: samples, sampleRate: rate), starts)
    }

    @Test(arguments: [8_000, 16_000, 44_100, 48_000] as [Double])
    func everyBurstIsOnePeakWhereItsStartIsSought(rate: Double) throws {
        let (signal, starts) = Self.train(rate: rate)
        let flux = SpectralFlux(sampleRate: rate)
        let peaks = flux.peaks(in: try flux.envelope(of: SignalSource(signal: signal)))
        #expect(peaks.count == starts.count, "\(rate) Hz: \(peaks.count) peaks for \(starts.count) bursts: \(peaks.prefix(5).map { flux.time(ofFrame: $0) })")
        // Each burst starts inside the stretch the dense-percussion step searches around its peak.
        let halfFrame = Double(flux.frameLength / 2) / rate
        for (peak, start) in zip(peaks, starts) {
            let centre = flux.time(ofFrame: peak)
            #expect(start >= centre - DensePercussion.startMargin && start <= centre + halfFrame,
                    "\(rate) Hz: burst at \(start) s, frame centre \(centre) s")
        }
    }

    @Test func silenceHasNoPeaks() throws {
        let flux = SpectralFlux(sampleRate: 44_100)
        let silence = Signal(samples: [Float](repeating: 0, count: 44_100), sampleRate: 44_100)
        #expect(flux.peaks(in: try flux.envelope(of: SignalSource(signal: silence))).isEmpty)
        #expect(flux.peaks(in: []).isEmpty)
    }
}
