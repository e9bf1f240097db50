/// The latency expected at an audio time: `offset + slope × (t − referenceTime)`.
///
/// Referencing the line to a time inside the session keeps offset and slope nearly
/// uncorrelated, which is what the search and the fit work with.
struct LatencyModel: Equatable {
    var offset: Double
    var slope: Double
    var referenceTime: Double

    static func constant(_ offset: Double) -> LatencyModel {
        LatencyModel(offset: offset, slope: 0, referenceTime: 0)
    }

    @inline(__always)
    func latency(at t: Double) -> Double { offset + slope * (t - referenceTime) }
}
