import TapAudio
import TapStatistics

/// The share of the stimulus's audible sounds that must have a residue candidate for the
/// recording to be taken as leaving residues: taps alone put an onset in a sound's 6 ms
/// window before a few per cent of the sounds (taps come tens of milliseconds early).
let residueShare = 0.25
/// The fewest sounds of the stimulus that must have one.
let residueMinimumSounds = 8

/// Whether `withResidue` of a recording's `sounds` (the stimulus's audible sounds, or the
/// clicks subtracted) having a residue candidate make it a recording that leaves residues: at
/// least ``residueShare`` of them and ``residueMinimumSounds``.
func reachesResidueShare(_ withResidue: Int, of sounds: Int) -> Bool {
    withResidue >= residueMinimumSounds && Double(withResidue) >= residueShare * Double(sounds)
}
/// The sounds counted for the share lie within this range under the loudest tenth, dB.
let residueAudibleRangeDB = 20.0
/// How long after a sound's start what the subtraction left inside the sound may start,
/// seconds: the corpus's longest tonal metronome sound, a 50 ms beep, and a little. The first
/// ``clickResidueWindow`` after the start belongs to the judgement at the start.
let residueInSoundWindow: Seconds = 0.055
/// How much weaker than its sound a candidate inside it is, at least, dB. On the eight corpus
/// seeds with their files (362 false onsets before; the rule's first form, which judged only
/// recordings with no residue at the sounds' starts), a margin of 8 dB set aside 52 false onsets
/// and took 8 taps (8–16 dB under the beeps they landed in, four of them a lossless
/// loudspeaker's), 16 dB 51 and no tap, 20 dB 50: a tap inside a sound and within 20 dB of it
/// keeps its place.
let residueInSoundMarginDB = 20.0

/// Splits the onsets found after a stimulus file's subtraction into sounds and what the
/// subtraction left of the stimulus's own sounds (`sounds`: the onsets of the predicted bleed,
/// in time order).
///
/// A residue candidate starts from `lead` before a sound's start to ``clickResidueWindow``
/// after it and is at least ``clickResidueMarginDB`` weaker than the sound. A lossy codec
/// (AAC, MP3, Opus) re-shapes each sound and smears it up to one short transform block ahead
/// of its start (pre-echo); the prediction, made from the stimulus file, has neither, so the
/// subtraction leaves a residue at each sound that starts up to a few milliseconds early. Where
/// at least ``residueShare`` of the audible sounds (and ``residueMinimumSounds``) have a
/// candidate, the recording leaves residues, and every candidate is one. Where they do not (a
/// lossless recording, whose sounds the subtraction takes out), the few candidates are taps
/// that came just before or on a sound, and keep their place. `leavesResidues`, when given,
/// says so instead of the share. Only candidates at audible sounds count for the share.
///
/// Inside a sound the same holds apart: the subtraction can leave onsets through a loud tonal
/// sound's length (6–44 ms into the beeps of the corpus's `loudspeaker-aac` items). A candidate
/// starts later than ``clickResidueWindow`` and within ``residueInSoundWindow`` after a sound's
/// start and lies ``residueInSoundMarginDB`` or more under it; where ``residueShare`` of the
/// audible sounds (and ``residueMinimumSounds``) have one, every such candidate is a residue
/// too. The returned `leavesResidues` is the first judgement's (at the sounds' starts) alone.
func separateBleedResidues(_ onsets: [Onset], sounds: [Onset], lead: Seconds, leavesResidues known: Bool? = nil)
    -> (onsets: [Onset], residues: [Onset], leavesResidues: Bool) {
    guard !sounds.isEmpty else { return (onsets, [], known ?? false) }
    // A candidate is clearly weaker than the sound it starts at.
    let soundTimes = sounds.map(\.time)
    let under = onsets.map { onset in
        clickStart(near: onset, clickTimes: soundTimes, lead: lead)
            .flatMap { onset.strength <= sounds[$0].strength - clickResidueMarginDB ? $0 : nil }
    }
    let inside = onsets.map { onset -> Int? in
        let time = onset.precursorTime ?? onset.time
        let sound = soundTimes.firstIndex(notBelow: time) - 1
        guard sound >= 0, time - soundTimes[sound] > clickResidueWindow, time - soundTimes[sound] <= residueInSoundWindow,
              onset.strength <= sounds[sound].strength - residueInSoundMarginDB else { return nil }
        return sound
    }
    // The share among the sounds loud enough to leave a residue that could be heard: a
    // prediction also starts faint sounds (a filter's ringing between the clicks).
    let loudest = quantile(sounds.map(\.strength).sorted(), 0.9)
    let isAudible = sounds.map { $0.strength >= loudest - residueAudibleRangeDB }
    let audible = isAudible.filter { $0 }.count
    func reachesShare(_ candidates: [Int?]) -> Bool {
        reachesResidueShare(Set(candidates.compactMap { $0 }.filter { isAudible[$0] }).count, of: audible)
    }
    let leavesResidues = known ?? reachesShare(under)
    let leavesResiduesInside = reachesShare(inside)
    guard leavesResidues || leavesResiduesInside else { return (onsets, [], false) }
    let split = splitResidues(onsets) { (leavesResidues && under[$0] != nil) || (leavesResiduesInside && inside[$0] != nil) }
    return (split.onsets, split.residues, leavesResidues)
}
