/// Finite event times in ascending order, with the caller's index of each.
///
/// Lets the matcher accept unsorted input and NaN/infinite values (which are simply
/// never paired) while its algorithms rely on sorted, finite arrays.
struct EventList {
    /// Finite times, ascending.
    var times: [Double]
    /// `originalIndex[k]` is the caller's index of `times[k]`.
    var originalIndex: [Int]

    init(_ input: [Double]) {
        var times: [Double] = []
        var indices: [Int] = []
        times.reserveCapacity(input.count)
        indices.reserveCapacity(input.count)
        var sorted = true
        for (index, time) in input.enumerated() where time.isFinite {
            if let last = times.last, time < last { sorted = false }
            times.append(time)
            indices.append(index)
        }
        if !sorted {
            // Stable order by time, then by original index, so ties stay deterministic.
            let order = indices.indices.sorted {
                times[$0] != times[$1] ? times[$0] < times[$1] : indices[$0] < indices[$1]
            }
            times = order.map { times[$0] }
            indices = order.map { indices[$0] }
        }
        self.times = times
        self.originalIndex = indices
    }

    var count: Int { times.count }
}
