import Foundation
import TapKit
import TapMetronome

/// The tap-along display of `metronome play`: each tap's asynchrony to the nearest beat
/// (negative: before the click), and where the metronome is.
struct TapAlong {
    let sampleRate: Double
    /// Frames of recent beats (accents and beats, played), oldest first.
    private var beats: [Int] = []
    /// Taps waiting for the first beat after them.
    private var pending: [Double] = []
    private(set) var asynchronies: [Double] = []
    private var position = (bar: 0, beat: 0)

    init(sampleRate: Double) { self.sampleRate = sampleRate }

    mutating func tap(atFrame frame: Double) { pending.append(frame) }

    /// Takes new click events and settles every tap whose next beat is now known.
    mutating func add(_ events: [LiveClickEvent]) {
        for event in events where event.kind != .subdivision && event.played {
            beats.append(event.frame)
            position = (event.bar, event.beat)
        }
        if beats.count > 64 { beats.removeFirst(beats.count - 64) }
        pending.removeAll { tap in
            guard let next = beats.firstIndex(where: { Double($0) >= tap }) else { return false }
            var nearest = Double(beats[next])
            if next > 0, tap - Double(beats[next - 1]) < nearest - tap { nearest = Double(beats[next - 1]) }
            asynchronies.append((tap - nearest) / sampleRate * 1_000)
            return true
        }
    }

    func statusLine(tempo: Rational, meter: Meter) -> String {
        var line = String(format: "%@ BPM %@  bar %d beat %d", tempoText(tempo), meter.description, position.bar, position.beat)
        if let last = asynchronies.last {
            let (mean, sd) = statistics()
            line += String(format: "  |  taps %d  last %+.1f ms  mean %+.1f ms  SD %.1f ms", asynchronies.count, last, mean, sd)
        }
        return line
    }

    func summary(tempo: Rational, xruns: Int, droppedClicks: Int) -> String {
        let (mean, sd) = statistics()
        return "tempo_bpm \(tempoText(tempo))\ntaps \(asynchronies.count)\n"
            + (asynchronies.isEmpty ? "" : String(format: "mean_asynchrony_ms %.2f\nsd_asynchrony_ms %.2f\n", mean, sd))
            + "xruns \(xruns)\ndropped_clicks \(droppedClicks)"
    }

    /// Mean and SD of the asynchronies (0 where undefined).
    private func statistics() -> (mean: Double, sd: Double) {
        guard let summary = Summary(asynchronies) else { return (0, 0) }
        return (summary.mean, summary.standardDeviation ?? 0)
    }

    private func tempoText(_ tempo: Rational) -> String {
        tempo.denominator == 1 ? "\(tempo.numerator)" : String(format: "%.3f", tempo.doubleValue)
    }
}
