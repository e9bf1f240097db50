#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Circular statistics of angles (radians), e.g. tap phases relative to a stimulus period.
///
/// With C = mean cos θᵢ and S = mean sin θᵢ: mean direction atan2(S, C), mean resultant
/// length R = √(C² + S²), circular standard deviation √(−2 ln R) (Mardia & Jupp 2000,
/// *Directional Statistics*, §2.3–2.4; Fisher 1993, *Statistical Analysis of Circular Data*).
public struct CircularSummary: Sendable, Equatable, Codable {
    /// Number of angles.
    public let count: Int
    /// Mean direction in (−π, π]. Meaningless when ``resultantLength`` is (close to) 0, i.e.
    /// when the angles spread evenly around the circle.
    public let meanDirection: Double
    /// Mean resultant length R in 0...1: 1 when all angles agree, near 0 for uniform spread.
    public let resultantLength: Double
    /// Circular standard deviation √(−2 ln R) in radians; 0 when R = 1, +∞ when R = 0. For
    /// concentrated data it approaches the linear SD of the angles.
    public let circularStandardDeviation: Double

    /// Circular variance 1 − R.
    public var circularVariance: Double { 1 - resultantLength }

    /// Summarizes angles in radians (any range; only their cosines and sines matter).
    ///
    /// - Parameter angles: Finite angles (NaN or infinity is a precondition failure).
    /// - Returns: `nil` for an empty input.
    public init?(angles: [Double]) {
        guard !angles.isEmpty else { return nil }
        var cosineSum = 0.0
        var sineSum = 0.0
        for angle in angles {
            precondition(angle.isFinite, "CircularSummary needs finite angles; filter NaN and infinity first")
            cosineSum += cos(angle)
            sineSum += sin(angle)
        }
        let n = Double(angles.count)
        count = angles.count
        // Rounding can push R a hair above 1; clamp so that the SD stays real.
        let length = Swift.min(hypot(cosineSum / n, sineSum / n), 1)
        resultantLength = length
        let direction = atan2(sineSum, cosineSum)
        meanDirection = direction == -Double.pi ? Double.pi : direction
        circularStandardDeviation = length == 1 ? 0 : (-2 * log(length)).squareRoot()
    }

    /// Summarizes times as phases of a period: each time t becomes the angle 2π·t/period
    /// (see ``phaseAngle(time:period:)``), so asynchronies relative to stimulus onsets
    /// summarize as phases of the inter-onset interval.
    ///
    /// - Parameters:
    ///   - times: Finite times, seconds.
    ///   - period: Positive, finite period, seconds.
    /// - Returns: `nil` for an empty input.
    public init?(times: [Double], period: Double) {
        self.init(angles: times.map { phaseAngle(time: $0, period: period) })
    }
}

/// The phase angle of `time` within a cycle of length `period`, 2π·time/period wrapped into
/// (−π, π] (so time 0 is phase 0 and half a period is +π).
///
/// The wrap is done on the cycle fraction before scaling by 2π, which is exact in floating
/// point, so whole periods add no rounding error.
///
/// - Parameters:
///   - time: A finite time (seconds), e.g. a tap's asynchrony to the nearest stimulus onset.
///   - period: Positive, finite period (seconds), e.g. the inter-onset interval.
/// - Returns: The angle in radians, in (−π, π].
public func phaseAngle(time: Double, period: Double) -> Double {
    precondition(period > 0 && period.isFinite, "period must be positive and finite")
    precondition(time.isFinite, "time must be finite")
    let cycles = time / period
    var fraction = cycles - cycles.rounded(.toNearestOrEven)
    if fraction == -0.5 { fraction = 0.5 }
    return 2 * Double.pi * fraction
}

/// Converts an angle (radians) back to a time within one period: angle·period/(2π), after
/// wrapping the angle into (−π, π]. The inverse of ``phaseAngle(time:period:)`` up to whole
/// periods; use it to report a ``CircularSummary/meanDirection`` in seconds.
///
/// - Parameters:
///   - angle: A finite angle in radians.
///   - period: Positive, finite period (seconds).
/// - Returns: A time in (−period/2, period/2].
public func timeFromPhaseAngle(_ angle: Double, period: Double) -> Double {
    precondition(period > 0 && period.isFinite, "period must be positive and finite")
    precondition(angle.isFinite, "angle must be finite")
    return phaseAngle(time: angle, period: 2 * Double.pi) / (2 * Double.pi) * period
}
