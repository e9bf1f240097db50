/// One touch paired with one acoustic onset.
public struct MatchedPair: Sendable, Codable, Equatable {
    /// Index of the touch in the array passed to ``matchTouches(_:toOnsets:configuration:)``.
    public var touchIndex: Int
    /// Index of the onset in the array passed to ``matchTouches(_:toOnsets:configuration:)``.
    public var onsetIndex: Int
    /// The touch timestamp (seconds, touch clock).
    public var touchTime: Double
    /// The onset time (seconds, audio clock).
    public var onsetTime: Double
    /// `touchTime − onsetTime` (seconds): how late the device logged the tap.
    public var latency: Double

    /// Creates a pair; `latency` is derived from the two times.
    public init(touchIndex: Int, onsetIndex: Int, touchTime: Double, onsetTime: Double) {
        self.touchIndex = touchIndex
        self.onsetIndex = onsetIndex
        self.touchTime = touchTime
        self.onsetTime = onsetTime
        self.latency = touchTime - onsetTime
    }
}
