import TapStatistics

extension TapScore {
    /// How far a click's leftover may lie from the recording's taps' median
    /// ``OnsetFeatures/bandProfile`` (root mean square over the bands, dB) to be taken back as a
    /// tap that sounded with its click (`tapsOnClicks`).
    public static let tapOnClickProfileDistance = 5.0
    /// How much nearer the taps' median profile than the other leftovers such a sound lies, at
    /// least, dB.
    public static let tapOnClickProfileMargin = 2.0
    /// How many other leftovers a leftover must sound like (within its distance from the
    /// taps plus ``tapOnClickProfileMargin``) to stay one: two, so that two taps on clicks
    /// cannot vouch for each other alone.
    public static let alikeLeftovers = 2
    /// How far over the leftovers' median peak level such a sound peaks, at least, dB: a tap
    /// adds at least as much power again as a click leaves (two equal powers make 3 dB more).
    public static let tapOnClickRiseDB = 3.0

    /// The indices of `leftovers` (onsets set aside as what the bleed's subtraction left of a
    /// click) that may be taps which sounded with their click: each spreads its power over the
    /// octave bands as the recording's taps do (within ``tapOnClickProfileDistance`` of their
    /// median profile, `tapProfile`) and not as the other leftovers do (fewer than
    /// ``alikeLeftovers`` of them lie within its distance from the taps' median plus
    /// ``tapOnClickProfileMargin``), and it peaks ``tapOnClickRiseDB`` or more over their
    /// median level.
    ///
    /// A leftover is told from a tap by where it starts (where a heard click started) and how
    /// loud it is (clearly under the click); a tap that falls on its click within a
    /// millisecond or two, or that the detector heard as the click's start, passes both tests
    /// (through a loudspeaker the tapper synchronises with what they hear, and the tap and click
    /// coincide). Its sound still tells: the profile is measured on what a sound adds over the
    /// 10 ms before it, and what the subtraction leaves of a click keeps that click's colour,
    /// like the leftovers of the other clicks (a recording can leave two kinds, from a click's
    /// start and from its tail, so the nearest leftovers are compared, not their median),
    /// while a tap keeps the taps'.
    static func tapsOnClicks(_ leftovers: [Onset], tapProfile: [Double]) -> [Int] {
        let measured = leftovers.indices.filter { leftovers[$0].features?.bandProfile?.count == tapProfile.count }
        guard measured.count > alikeLeftovers, !tapProfile.isEmpty else { return [] }
        let profiles = measured.map { leftovers[$0].features!.bandProfile! }
        let leftoverLevel = Summary(measured.map { leftovers[$0].strength })!.median
        return measured.indices.filter { position in
            guard leftovers[measured[position]].strength >= leftoverLevel + tapOnClickRiseDB else { return false }
            let profile = profiles[position]
            let toTaps = profileDistance(profile, tapProfile)
            guard toTaps <= tapOnClickProfileDistance else { return false }
            let alike = profiles.indices.filter { other in
                other != position && profileDistance(profile, profiles[other]) <= toTaps + tapOnClickProfileMargin
            }
            return alike.count < alikeLeftovers
        }.map { measured[$0] }
    }
}
