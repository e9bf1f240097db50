import Foundation
import TapStatistics

extension BleedTemplate {
    /// The template checked against the recording at its grid's points: at each point the
    /// gain at which the template best fits there (the dot product over the template's energy,
    /// at the best of ±2 frames). Subtracting lowers the energy where that gain exceeds ½, so a
    /// point whose typical (median) gain is below ½, and below a third of that of points where
    /// clicks sound, is one where no click sounds.
    ///
    /// The grid search can settle on a half or a third of the click period (clicks hidden under
    /// taps leave gaps that a sub-multiple bridges as well), and then every other, or every
    /// second and third, grid point falls where no click sounds. The points are grouped by
    /// `k mod d` for d = 2, 3, 4; the first d whose groups split into clicking and silent ones
    /// marks the silent residues (``silentResidues``), which are never subtracted. A split stands
    /// only where each silent residue shows clicks at fewer of its points than the clicking
    /// residues' share would give beyond chance (a binomial tail under ``silenceChance``): a
    /// noise gate that lets some clicks of every residue through, judged on a dozen points,
    /// can put one residue's median under ½ by chance. When all
    /// groups click the template stands as it is; when none does, it is refused (nil): the
    /// recording does not bear the grid out.
    /// - Parameter segment: reads `length` high-passed frames from a start frame; nil past the end.
    func verified(segment: (_ start: Int, _ length: Int) -> [Float]?) -> BleedTemplate? {
        guard let lowest = heardClicks.first, let highest = heardClicks.last else { return nil }
        let energy = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        guard energy > 0 else { return nil }
        let margin = 2
        // Up to about 60 points per residue of the largest modulus, spread over the heard run.
        let range = (lowest - playingReach)...(highest + playingReach)
        let stride = max(1, range.count / 240)
        var gains: [(k: Int, gain: Double)] = []
        var k = range.lowerBound
        while k <= range.upperBound {
            for point in k..<min(k + 12, range.upperBound + 1) {
                let start = startFrame(ofClick: point) - margin
                guard start >= 0, let read = segment(start, samples.count + 2 * margin) else { continue }
                var best = -Double.infinity
                for shift in 0...(2 * margin) {
                    var dot = 0.0
                    for index in samples.indices { dot += Double(samples[index]) * Double(read[shift + index]) }
                    best = max(best, dot)
                }
                gains.append((point, best / energy))
            }
            // Runs of twelve consecutive points keep every residue of 2, 3 and 4 represented.
            k += 12 * stride
        }
        guard gains.count >= 6 else { return nil }
        func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            return sorted.isEmpty ? -.infinity : sorted[sorted.count / 2]
        }
        var allClick = true
        // A split set aside as chance still showed clicks at every residue's points.
        var clicksEverywhere = false
        for modulus in 2...4 {
            // Each residue's gains, once per modulus.
            let groups = (0..<modulus).map { residue in
                gains.filter { (($0.k % modulus) + modulus) % modulus == residue }.map(\.gain)
            }
            let medians = groups.map(median)
            // Under an automatic gain control the clicks' gains spread (0.1–1.9 around a
            // median near ½), so a residue is silent only when it is also far below one that
            // clicks: a silent point's gain is that of the noise, near 0.
            let loudest = medians.max() ?? 0
            var silent = medians.indices.filter { medians[$0] < 0.5 && (loudest < 0.5 || medians[$0] < loudest / 3) }
            // A residue that falls between the clicks (a sub-multiple grid) shows a click at
            // hardly any of its points. Under a gate or a gain control some clicks of every
            // residue sound at full gain, and a few points can put one residue's median under ½
            // by chance; the split stands only if every silent residue shows fewer clicks than
            // the clicking ones would show there, beyond chance (`silenceChance`).
            if !silent.isEmpty, silent.count < modulus {
                let clicks = groups.map { group in group.filter { $0 >= 0.5 }.count }
                let clicking = groups.indices.filter { !silent.contains($0) }
                // The clicking residues' share of points with a click, with one of each added
                // (so that a handful of points never makes the share 1).
                let share = Double(clicking.reduce(0) { $0 + clicks[$1] } + 1)
                    / Double(clicking.reduce(0) { $0 + groups[$1].count } + 2)
                if silent.contains(where: { binomialCDF(atMost: clicks[$0], trials: groups[$0].count, probability: share) >= silenceChance }) {
                    silent = []
                    clicksEverywhere = true
                }
            }
            if silent.isEmpty { continue }
            allClick = false
            if silent.count < modulus {
                var template = self
                template.clickModulus = modulus
                template.silentResidues = silent
                template.heardClicks = heardClicks.filter { template.canSound($0) }
                return template
            }
        }
        // Clicks at every residue of every modulus, or a split that was only chance (clicks at
        // some of every residue's points): the grid is the clicks', and each click is judged
        // as the canceller fits it. No residue of any modulus clicks: the template does not
        // fit the recording.
        return allClick || clicksEverywhere ? self : nil
    }
}

/// How improbable a silent residue's few clicks must be, had it clicked as often as the
/// clicking residues do, for the grid check to take it for silent.
let silenceChance = 0.05
