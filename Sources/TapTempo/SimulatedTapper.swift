import TapStatistics

/// A simulated person tapping along, for evaluating tap-tempo estimators: the two-level timing
/// model of Wing and Kristofferson (1973). A central timer produces intervals with mean P and
/// SD `timerSD`·P; each tap lands after a motor delay with SD `motorSD` seconds, independent
/// from tap to tap, so consecutive intervals are negatively correlated (lag-one covariance
/// −σm²). On top: double taps, mis-taps, skipped taps and one tempo switch.
public struct TapperCondition: Sendable, Hashable {
    /// Beats per minute before the switch.
    public var bpm: Double
    /// Timer SD as a fraction of the period (default 0.025).
    public var timerSD = 0.025
    /// Motor SD, seconds (default 0.010).
    public var motorSD = 0.010
    /// Chance per tap of an extra tap 30–80 ms after it.
    public var doubleTapRate = 0.0
    /// Chance per tap of landing 20–40 % of a period early or late.
    public var misTapRate = 0.0
    /// Chance per beat (after the first two) of no tap.
    public var skipRate = 0.0
    /// The tempo is multiplied by this at beat `switchBeat` (nil: no switch).
    public var switchFactor: Double?
    /// The beat at which the tempo switches.
    public var switchBeat = 8
    /// Beats tapped.
    public var beats = 40

    /// Steady tapping at `bpm` with typical noise and no mistakes; set the rest as needed.
    public init(bpm: Double) { self.bpm = bpm }
}

/// The taps of one simulated trial: times, and the tempo in force at each.
public struct SimulatedTaps: Sendable {
    /// Tap times, seconds, increasing.
    public var times: [Double]
    /// True BPM at each tap.
    public var bpm: [Double]
    /// Index of the first tap at the new tempo (nil without a switch).
    public var firstTapAfterSwitch: Int?
}

extension TapperCondition {
    /// One trial, reproducible from `seed`.
    public func simulate(seed: UInt64) -> SimulatedTaps {
        var random = SeededGenerator(seed: seed)
        var taps: [(time: Double, bpm: Double, afterSwitch: Bool)] = []
        var timer = 0.0
        for beat in 0..<beats {
            let switched = switchFactor != nil && beat >= switchBeat
            let tempo = switched ? bpm * switchFactor! : bpm
            let period = 60 / tempo
            if beat > 0 { timer += max(0.2 * period, random.nextGaussian(mean: period, standardDeviation: timerSD * period)) }
            if beat >= 2 && random.nextUniform() < skipRate { continue }
            var time = timer + random.nextGaussian(mean: 0, standardDeviation: motorSD)
            if random.nextUniform() < misTapRate {
                let shift = random.nextUniform(in: 0.2...0.4) * period
                time += random.nextBool(probability: 0.5) ? shift : -shift
            }
            taps.append((time, tempo, switched))
            if random.nextUniform() < doubleTapRate { taps.append((time + random.nextUniform(in: 0.03...0.08), tempo, switched)) }
        }
        taps.sort { $0.time < $1.time }
        return SimulatedTaps(times: taps.map(\.time), bpm: taps.map(\.bpm), firstTapAfterSwitch: taps.firstIndex { $0.afterSwitch })
    }
}
