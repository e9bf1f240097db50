import Foundation
import Testing
@testable import TapOnsets

/// Clicks that fall between frames. A click subtracted a fraction of a frame off leaves a
/// residue that grows with its frequency: at 8 kHz a 1.5 kHz click half a frame off is little
/// reduced. The canceller subtracts each clean click at the fraction of a frame where it sits.
@Suite struct FractionalClickCancellationTests {
    static let rate = 8_000.0

    /// A damped 1.5 kHz click at `offset` frames (any real number) from the first frame.
    static func click(at offset: Double, frames: Int) -> [Float] {
        (0..<frames).map { frame in
            let t = (Double(frame) - offset) / rate
            return t < 0 ? 0 : Float(0.03 * exp(-t / 0.004) * sin(2 * Double.pi * 1_500 * t))
        }
    }

    @Test func clicksBetweenFramesLeaveLittleBehind() {
        let period = 4_802.37, lead = 40, length = 400, count = 30
        // The template: the click on a frame, with its lead.
        let template = BleedTemplate(samples: Self.click(at: Double(lead), frames: length), leadFrames: lead,
                                     phaseFrames: 1_000, periodFrames: period, heardClicks: Array(0..<count))
        let frames = Int(1_000 + Double(count) * period) + 1_000
        var signal = [Float](repeating: 0, count: frames)
        var positions: [Double] = []
        for k in 0..<count {
            let position = 1_000 + Double(k) * period
            positions.append(position)
            let start = Int(position) - 10
            let click = Self.click(at: position - Double(start), frames: length)
            for index in click.indices { signal[start + index] += click[index] }
        }
        let (output, cancelledClicks) = cancelled(signal, template: template, sampleRate: Self.rate)
        #expect(output.count == frames)
        // Residue and click energy over each click's first 30 ms, and what subtracting the
        // template on the nearest frame would leave.
        var residue = 0.0, clickEnergy = 0.0, onTheFrame = 0.0
        for position in positions {
            let first = Int(position.rounded(.down)), last = first + 240
            let nearest = Int(position.rounded()) - lead
            for frame in first..<last {
                residue += Double(output[frame]) * Double(output[frame])
                clickEnergy += Double(signal[frame]) * Double(signal[frame])
                let left = Double(signal[frame]) - Double(template.samples[frame - nearest])
                onTheFrame += left * left
            }
        }
        let residueDB = 10 * log10(residue / clickEnergy), onTheFrameDB = 10 * log10(onTheFrame / clickEnergy)
        #expect(cancelledClicks == count)
        #expect(residueDB <= -15 && residueDB <= onTheFrameDB - 10, "residue \(residueDB) dB, on the frame \(onTheFrameDB) dB")
    }
}
