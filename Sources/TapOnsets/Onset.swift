import TapAudio

/// One detected acoustic onset: where a transient starts, how strong it is, and how far it
/// stands above the local noise floor.
public struct Onset: Sendable, Equatable, Codable {
    /// Where the transient starts (not its peak), in seconds from frame 0.
    public var time: Seconds
    /// The same instant as a frame index.
    public var frame: Int
    /// Where the short-time energy of the transient peaks, in seconds.
    public var peakTime: Seconds
    /// Peak short-time power of the high-passed signal, in dB relative to full scale.
    public var strength: Double
    /// Peak short-time power over the local noise floor, in dB.
    public var snrDB: Double

    /// Creates an onset.
    public init(time: Seconds, frame: Int, peakTime: Seconds, strength: Double, snrDB: Double) {
        self.time = time
        self.frame = frame
        self.peakTime = peakTime
        self.strength = strength
        self.snrDB = snrDB
    }
}
