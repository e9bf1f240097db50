extension Resampler {
    /// How much filtering the resampler does: a trade of speed (filter length) against
    /// stopband attenuation and passband width.
    ///
    /// Frequencies are fractions of the lower of the two sample rates (`min(in, out)`). Every
    /// preset's stopband starts at half that rate, so nothing above the output's Nyquist
    /// frequency folds back (downsampling), and no image of the input reaches the output
    /// (upsampling) by more than the stopband attenuation. Between the passband edge and half
    /// the rate lies the transition band, where the gain falls from 1 to the stopband.
    public enum Quality: Sendable, Hashable, CaseIterable {
        /// Stopband ≥ 80 dB down, passband flat to 0.40 × the lower rate (17.6 kHz at
        /// 44.1 kHz). 56 taps per output sample and channel when upsampling,
        /// twice that when halving the rate.
        case fast
        /// Stopband ≥ 100 dB down, passband flat to 0.45 × the lower rate (19.8 kHz at
        /// 44.1 kHz). 136 taps per output sample and channel when upsampling,
        /// twice that when halving the rate.
        case standard
        /// Stopband ≥ 120 dB down, passband flat to 0.475 × the lower rate (20.9 kHz at
        /// 44.1 kHz). 328 taps per output sample and channel when upsampling,
        /// twice that when halving the rate.
        case high

        /// The promised stopband attenuation, in dB.
        public var stopbandAttenuation: Double {
            switch self {
            case .fast: 80
            case .standard: 100
            case .high: 120
            }
        }

        /// The passband edge as a fraction of the lower sample rate: tones below it pass with
        /// a gain error under the stopband attenuation (e.g. 10^(−100/20) for `.standard`).
        public var passbandEdge: Double {
            switch self {
            case .fast: 0.40
            case .standard: 0.45
            case .high: 0.475
            }
        }

        /// The stopband edge as a fraction of the lower sample rate: half of it, for every preset.
        public var stopbandEdge: Double { 0.5 }

        /// The attenuation the Kaiser formulas are asked for: a little more than promised,
        /// because Kaiser's length estimate is approximate and the coefficients are stored as
        /// `Float`.
        var designAttenuation: Double { stopbandAttenuation + 5 }
    }
}
