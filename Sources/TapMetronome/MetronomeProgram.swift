/// A metronome program for an experiment: sections of bars, each at its own tempo, meter and
/// settings (steady or ramping), with an optional count-in, muted bars, a silent
/// continuation phase, perturbations at chosen beats and seeded jitter.
///
/// Beats are numbered from 1 at the first beat after the count-in, across all sections; bars
/// likewise from 1. Count-in bars are numbered −n+1 … 0.
public struct MetronomeProgram: Sendable, Hashable {
    /// The sections, played in order.
    public var sections: [Section]
    /// Bars of count-in before the first section, at its meter, beat unit and starting tempo,
    /// beats only (accent on the first). Count-in clicks are never muted, perturbed or jittered.
    public var countInBars = 0
    /// Program bars (1-based) whose clicks are scheduled but silent.
    public var mutedBars: Set<Int> = []
    /// Synchronization–continuation: after this beat every click is silent while the timing
    /// runs on (`nil`: clicks play throughout).
    public var silentAfterBeat: Int?
    /// Phase shifts and period steps.
    public var perturbations: [Perturbation] = []
    /// Random displacement of every program click (`nil`: isochronous).
    public var jitter: Jitter?

    /// A program of `sections`.
    public init(sections: [Section]) { self.sections = sections }

    /// One stretch of bars at one setting.
    public struct Section: Sendable, Hashable {
        /// Tempo (at the start, for a ramp), meter, beat unit, subdivisions, volumes, swing.
        public var settings: MetronomeSettings
        /// Bars, 1…1 000 000.
        public var bars: Int
        /// Where a linear ramp ends (beat units per minute), reached at the end of the last
        /// bar: the tempo changes linearly in **time**, so click times follow from the exact
        /// integral of the tempo (`nil`: steady).
        public var rampTo: Rational?
        /// Every click of the section is silent (for example the continuation phase).
        public var silent = false

        /// A section of `bars` bars with `settings`, optionally ramping linearly in time to `rampTo` BPM, optionally silent.
        public init(settings: MetronomeSettings, bars: Int, rampTo: Rational? = nil, silent: Bool = false) {
            self.settings = settings
            self.bars = bars
            self.rampTo = rampTo
            self.silent = silent
        }
    }

    /// A change of the stimulus timing at a chosen beat, as in phase- and period-perturbation
    /// studies of sensorimotor synchronization (Repp 2005, §4).
    public enum Perturbation: Sendable, Hashable {
        /// From `beat` on, every click comes `milliseconds` later (earlier if negative): one
        /// interval is lengthened or shortened, the tempo is unchanged.
        case phaseShift(beat: Int, milliseconds: Rational)
        /// From `beat` to the end of its section the tempo is `tempo` beat units per minute:
        /// the interval after `beat` is the first at the new period. Not inside a ramp.
        case periodStep(beat: Int, tempo: Rational)

        /// The beat it acts at.
        public var beat: Int {
            switch self {
            case .phaseShift(let beat, _), .periodStep(let beat, _): return beat
            }
        }
    }

    /// Seeded random displacement of each click, independently (not accumulated), drawn in
    /// whole microseconds so every click time stays exact.
    public struct Jitter: Sendable, Hashable {
        /// How the displacement is drawn.
        public enum Distribution: String, Sendable, Hashable, CaseIterable {
            /// Uniform over −amount…+amount.
            case uniform
            /// Normal with standard deviation `amount`.
            case normal
        }
        /// Half-width (uniform) or standard deviation (normal), in milliseconds, 0…1000.
        public var milliseconds: Rational
        /// Uniform within ±`milliseconds`, or normal with that SD.
        public var distribution: Distribution
        /// Same seed, same displacements, on every platform.
        public var seed: UInt64

        /// Jitter of `milliseconds` (the half-width, or the SD), drawn reproducibly from `seed`.
        public init(milliseconds: Rational, distribution: Distribution = .uniform, seed: UInt64) {
            self.milliseconds = milliseconds
            self.distribution = distribution
            self.seed = seed
        }
    }
}
