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
        // Up to about 60 points per residue of the largest modulus, spread over the heard run.
        let range = (lowest - playingReach)...(highest + playingReach)
        let stride = max(1, range.count / 240)
        var gains: [(k: Int, gain: Double)] = []
        var k = range.lowerBound
        while k <= range.upperBound {
            for point in k..<min(k + 12, range.upperBound + 1) {
                guard let gain = fittedGain(from: startFrame(ofClick: point), energy: energy, segment: segment) else { continue }
                gains.append((point, gain))
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

extension BleedTemplate {
    /// The gain at which the template best fits the recording from `start` (frames), within
    /// ±2 frames: the largest dot product over the template's `energy`. Nil where the
    /// recording cannot be read.
    func fittedGain(from start: Int, energy: Double, segment: (_ start: Int, _ length: Int) -> [Float]?) -> Double? {
        let margin = 2
        guard start - margin >= 0, let read = segment(start - margin, samples.count + 2 * margin) else { return nil }
        var best = -Double.infinity
        for shift in 0...(2 * margin) {
            var dot = 0.0
            for index in samples.indices { dot += Double(samples[index]) * Double(read[shift + index]) }
            best = max(best, dot)
        }
        return best / energy
    }

    /// The template on a grid 4, 3 or 2 times finer (the first that holds) when its clicks also
    /// sound between the grid's points: at every new point of each group (`k mod d`) the
    /// typical (median) fitted gain is at least ½, as at a click (``fittedGain(from:energy:segment:)``).
    ///
    /// A lossy codec scatters the clicks' starts wider than the grid's tolerance (AAC's
    /// pre-echo put them 4–8.5 ms ahead of the clicks on seed 103's `loudspeaker-aac-dev-2`,
    /// a sine burst every 0.427 s), and the grid search can then settle on a line at a multiple
    /// of the beat that happens to hold the starts of some (there every third: 1.280 s, 15
    /// clicks), whose template is clean. The clicks themselves are strictly periodic, so the template fits at the
    /// points between, to the frame. Not where the recording bears out a finer grid's silent
    /// points already (``clickModulus`` > 1). The finer grid's heard clicks are the grid's.
    /// - Parameter segment: reads `length` high-passed frames from a start frame; nil past the end.
    func subdivided(segment: (_ start: Int, _ length: Int) -> [Float]?) -> BleedTemplate {
        guard clickModulus == 1, let lowest = heardClicks.first, let highest = heardClicks.last else { return self }
        let energy = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        guard energy > 0 else { return self }
        // Up to about 30 points per new group, spread over the heard run.
        let stride = max(1, (highest - lowest + 1) / 30)
        // The finest first: clicks every quarter of the grid's period sound at its halves too.
        for divisor in [4, 3, 2] {
            let period = periodFrames / Double(divisor)
            // The template must end before the next click starts.
            guard Double(samples.count) < period - Double(leadFrames) else { continue }
            let sounds = (1..<divisor).allSatisfy { part in
                let gains = Swift.stride(from: lowest, through: highest, by: stride).compactMap { k in
                    fittedGain(from: Int((phaseFrames + (Double(k) + Double(part) / Double(divisor)) * periodFrames).rounded()) - leadFrames,
                               energy: energy, segment: segment)
                }.sorted()
                return gains.count >= 6 && gains[gains.count / 2] >= 0.5
            }
            guard sounds else { continue }
            var finer = self
            finer.periodFrames = period
            finer.heardClicks = heardClicks.map { $0 * divisor }
            return finer
        }
        return self
    }
}

/// How improbable a silent residue's few clicks must be, had it clicked as often as the
/// clicking residues do, for the grid check to take it for silent.
let silenceChance = 0.05
