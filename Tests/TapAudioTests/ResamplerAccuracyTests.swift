import Foundation
import Testing
@testable import TapAudio

/// `sin(2π f t + phase)` sampled at `rate`, in Double for references.
func exactSine(_ frequency: Double, rate: Int, frames: Int, phase: Double = 0.3) -> [Double] {
    (0..<frames).map { sin(2 * Double.pi * frequency * Double($0) / Double(rate) + phase) }
}

/// Signal-to-error ratio of `output` against `reference` over `range`, in dB.
func snr(_ output: [Float], _ reference: [Double], over range: Range<Int>) -> Double {
    var signal = 0.0
    var error = 0.0
    for k in range {
        signal += reference[k] * reference[k]
        error += (Double(output[k]) - reference[k]) * (Double(output[k]) - reference[k])
    }
    return 10 * log10(signal / error)
}

@Suite struct ResamplerTimingTests {
    /// A Gaussian pulse (σ = 0.5 ms) is band-limited to far below every passband here (its
    /// spectrum is down by e⁻⁵⁰ at 3.2 kHz), so the exact output is the same pulse sampled at
    /// the output rate, centred at the same time in seconds.
    @Test(arguments: resamplingPairs)
    func pulseKeepsItsTime(inputRate: Int, outputRate: Int) throws {
        let centre: Seconds = 0.123_456_7
        let sigma: Seconds = 0.000_5
        let pulse = { (rate: Int, frames: Int) in
            (0..<frames).map { frame -> Double in
                let t = Double(frame) / Double(rate) - centre
                return exp(-t * t / (2 * sigma * sigma))
            }
        }
        let input = Signal(samples: pulse(inputRate, inputRate / 4).map { Float($0) }, sampleRate: Double(inputRate))
        let output = try input.resampled(to: outputRate).samples
        let exact = pulse(outputRate, output.count)

        // Centroid over ±10 σ, in output frames.
        let centreFrame = centre * Double(outputRate)
        let reach = Int(10 * sigma * Double(outputRate))
        let frames = (Int(centreFrame) - reach)...(Int(centreFrame) + reach)
        let weight = frames.map { Double(output[$0]) }.reduce(0, +)
        let centroid = frames.map { Double($0) * Double(output[$0]) }.reduce(0, +) / weight
        #expect(abs(centroid - centreFrame) <= 0.01, "centroid \(centroid), expected \(centreFrame)")

        let worst = zip(output, exact).map { abs(Double($0) - $1) }.max()!
        #expect(worst <= 1e-5)
    }

    /// A one-frame click: the output is the filter's impulse response, which is symmetric
    /// about the click's time.
    @Test(arguments: resamplingPairs)
    func clickStaysCentred(inputRate: Int, outputRate: Int) throws {
        var samples = [Float](repeating: 0, count: inputRate / 4)
        let clickFrame = 1_234
        samples[clickFrame] = 1
        let output = try Signal(samples: samples, sampleRate: Double(inputRate)).resampled(to: outputRate).samples
        let expected = Double(clickFrame) * Double(outputRate) / Double(inputRate)
        let weight = output.map(Double.init).reduce(0, +)
        let centroid = output.indices.map { Double($0) * Double(output[$0]) }.reduce(0, +) / weight
        #expect(abs(centroid - expected) <= 0.01, "centroid \(centroid), expected \(expected)")
        let peak = output.indices.max { output[$0] < output[$1] }!
        #expect(abs(Double(peak) - expected) <= 0.5)
    }
}

@Suite struct ResamplerQualityTests {
    static let presetsAndPairs: [(Resampler.Quality, Int, Int)] = Resampler.Quality.allCases.flatMap { quality in
        [(quality, 44_100, 48_000), (quality, 48_000, 44_100), (quality, 96_000, 48_000), (quality, 8_000, 44_100)]
    }

    /// Full-scale sines across the passband (from 100 Hz to 98 % of the passband edge)
    /// against the exact sine at the output rate: the error is below the stopband promise.
    @Test(arguments: presetsAndPairs)
    func passbandSinesMatchTheExactSine(quality: Resampler.Quality, inputRate: Int, outputRate: Int) throws {
        let edge = quality.passbandEdge * Double(min(inputRate, outputRate))
        let frequencies = [100, 1_000, 10_000, 19_000].map(Double.init).filter { $0 < 0.98 * edge } + [0.98 * edge]
        for frequency in frequencies {
            let input = exactSine(frequency, rate: inputRate, frames: inputRate / 5).map { Float($0) }
            let output = try Resampler.resample([input], from: inputRate, to: outputRate, quality: quality)[0]
            let exact = exactSine(frequency, rate: outputRate, frames: output.count)
            // Away from the ends, where the input's abrupt start and stop are filtered.
            let margin = outputRate / 50
            let ratio = snr(output, exact, over: margin..<(output.count - margin))
            #expect(ratio >= quality.stopbandAttenuation, "\(frequency) Hz: SNR \(ratio) dB")
        }
    }

    /// Downsampling 48 → 22.05 kHz: tones above the output's Nyquist frequency (11.025 kHz)
    /// must not fold back into it by more than the stopband promise.
    @Test(arguments: Resampler.Quality.allCases)
    func tonesAboveTheOutputNyquistAreRemoved(quality: Resampler.Quality) throws {
        for frequency in [11_100.0, 12_000, 15_000, 20_000, 23_900] {
            let input = exactSine(frequency, rate: 48_000, frames: 9_600).map { Float($0) }
            let output = try Resampler.resample([input], from: 48_000, to: 22_050, quality: quality)[0]
            let middle = output[441..<(output.count - 441)]
            let power = middle.map { Double($0) * Double($0) }.reduce(0, +) / Double(middle.count)
            let level = 10 * log10(power / 0.5)  // relative to the full-scale sine's power
            #expect(level <= -quality.stopbandAttenuation, "\(frequency) Hz: \(level) dB")
        }
    }

    /// The filter bank's frequency response, all phases together (the prototype low-pass at
    /// L × the input rate), on a dense grid: within the promise of 1 in the passband and of
    /// 0 in the stopband. Covers a 1:2 upsampler's and a 2:1 decimator's whole stopband and
    /// the first 20 kHz of the 44.1 → 48 kHz stopband (160 phases), where its sidelobes peak.
    @Test(arguments: Resampler.Quality.allCases)
    func filterResponseMeetsThePromise(quality: Resampler.Quality) throws {
        for (inputRate, outputRate, stopbandSpan) in [(24_000, 48_000, 12_000.0), (96_000, 48_000, 24_000), (44_100, 48_000, 20_000)] {
            let divisor = inputRate == 44_100 ? 300 : min(inputRate, outputRate)
            let bank = try #require(PolyphaseFilterBank(upFactor: outputRate / divisor,
                                                        downFactor: inputRate / divisor, quality: quality))
            let lowerRate = Double(min(inputRate, outputRate))
            let tolerance = pow(10, -quality.stopbandAttenuation / 20)
            let passbandEdge = quality.passbandEdge * lowerRate
            let stopbandEdge = quality.stopbandEdge * lowerRate
            let step = Double(inputRate) / Double(bank.tapCount) / 8  // ⅛ of a sidelobe
            for frequency in stride(from: 0, through: passbandEdge, by: step) {
                let gain = response(of: bank, at: frequency, inputRate: inputRate)
                #expect(abs(gain - 1) <= tolerance, "\(inputRate) → \(outputRate) Hz, \(frequency) Hz: gain \(gain)")
            }
            var worst = 0.0
            for frequency in stride(from: stopbandEdge, through: stopbandEdge + stopbandSpan, by: step) {
                worst = max(worst, response(of: bank, at: frequency, inputRate: inputRate))
            }
            #expect(20 * log10(worst) <= -quality.stopbandAttenuation, "\(inputRate) → \(outputRate) Hz: \(20 * log10(worst)) dB")
        }
    }

    /// |H(f)| of all phases interleaved into one filter at L × the input rate, over L (each
    /// phase has unit gain at 0 Hz), by rotating a phasor rather than calling sin/cos per tap.
    func response(of bank: PolyphaseFilterBank, at frequency: Double, inputRate: Int) -> Double {
        let taps = bank.tapCount
        let up = bank.upFactor
        // Tap m of phase p sits at (p + (K − 1 − m)·L) / L input frames; visit them in order.
        let angle = 2 * Double.pi * frequency / (Double(inputRate) * Double(up))
        let (stepCos, stepSin) = (cos(angle), sin(angle))
        let start = Double(-bank.halfLength * up) * angle
        var (c, s) = (cos(start), sin(start))
        var (real, imaginary) = (0.0, 0.0)
        for position in (-bank.halfLength * up)..<(bank.halfLength * up) {
            // position = p + (K − 1 − m)·L with p in 0..<L.
            let phase = ((position % up) + up) % up
            let tap = bank.halfLength - 1 - (position - phase) / up
            let h = Double(bank.coefficients[phase * taps + tap])
            real += h * c
            imaginary += h * s
            (c, s) = (c * stepCos - s * stepSin, s * stepCos + c * stepSin)
        }
        return (real * real + imaginary * imaginary).squareRoot() / Double(up)
    }
}
