import Foundation
import TapSim

/// Mean power of `samples[range]` in Double.
func meanPower(_ samples: [Float], _ range: Range<Int>) -> Double {
    guard !range.isEmpty else { return 0 }
    var sum = 0.0
    for i in range { sum += Double(samples[i]) * Double(samples[i]) }
    return sum / Double(range.count)
}

func decibels(_ ratio: Double) -> Double {
    10 * log10(ratio)
}

/// Bit patterns, for bit-exact comparisons.
func bits(_ samples: [Float]) -> [UInt32] {
    samples.map(\.bitPattern)
}

/// FNV-1a over the bit patterns (a compact fingerprint of a signal).
func fingerprint(_ samples: [Float]) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for sample in samples {
        var v = sample.bitPattern
        for _ in 0..<4 {
            hash = (hash ^ UInt64(v & 0xFF)) &* 0x0000_0100_0000_01B3
            v >>= 8
        }
    }
    return hash
}

/// A short task configuration for fast tests.
func shortConfiguration(_ base: SimulationConfiguration = .tapIt, seconds: Double = 8) -> SimulationConfiguration {
    var c = base
    c.taskDuration = seconds
    return c
}
