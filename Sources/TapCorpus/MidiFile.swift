import TapStatistics

/// A Standard MIDI File (format 0, one track) written byte by byte: a few instruments
/// playing a simple groove, for the `music` condition.
struct MidiSong: Sendable {
    /// Ticks per quarter note.
    static let division = 960

    /// A note: start and length in ticks, channel, key, velocity.
    struct Note: Sendable { var start, length, channel, key, velocity: Int }

    var microsecondsPerQuarter: Int
    /// Ticks of silence before the first beat.
    var leadInTicks: Int
    var notes: [Note]
    /// (channel, General MIDI program) set at the start.
    var programs: [(channel: Int, program: Int)]

    /// Piano chords, a bass line and a drum kit (channel 10), one beat per quarter note, from
    /// `firstBeat` seconds for `beats` beats `beatInterval` seconds apart.
    init(beatInterval: Double, firstBeat: Double, beats: Int, generator g: inout SeededGenerator) {
        microsecondsPerQuarter = Int((beatInterval * 1_000_000).rounded())
        leadInTicks = Int((firstBeat / beatInterval * Double(Self.division)).rounded())
        let q = Self.division
        let key = 48 + g.nextInt(below: 12)  // the tonic around C3
        // I–V–vi–IV or I–vi–IV–V, one chord per bar of four beats.
        let progressions = [[0, 7, 9, 5], [0, 9, 5, 7], [0, 5, 7, 5]]
        let progression = progressions[g.nextInt(below: progressions.count)]
        let pianoProgram = [0, 1, 4][g.nextInt(below: 3)]  // grand, bright, electric piano
        let bassProgram = [32, 33, 34][g.nextInt(below: 3)]
        programs = [(0, pianoProgram), (1, bassProgram)]
        var notes: [Note] = []
        for beat in 0..<beats {
            let tick = beat * q
            let bar = beat / 4, inBar = beat % 4
            let root = key + progression[bar % progression.count]
            let minor = progression[bar % progression.count] == 9
            func velocity(_ base: Int) -> Int { max(1, min(127, base + g.nextInt(below: 17) - 8)) }
            // Drums: kick on 1 and 3, snare on 2 and 4, closed hi-hat on every eighth.
            notes.append(Note(start: tick, length: q / 4, channel: 9, key: inBar % 2 == 0 ? 36 : 38,
                              velocity: velocity(inBar % 2 == 0 ? 100 : 90)))
            notes.append(Note(start: tick, length: q / 4, channel: 9, key: 42, velocity: velocity(70)))
            notes.append(Note(start: tick + q / 2, length: q / 4, channel: 9, key: 42, velocity: velocity(55)))
            // Bass: the root on every beat, an octave jump on beat 3.
            notes.append(Note(start: tick, length: q * 3 / 4, channel: 1,
                              key: root - 12 + (inBar == 2 ? 12 : 0), velocity: velocity(95)))
            // Piano: the triad on beats 1 and 3, held two beats.
            if inBar % 2 == 0 {
                for interval in [0, minor ? 3 : 4, 7] {
                    notes.append(Note(start: tick, length: q * 2 - q / 8, channel: 0, key: root + 12 + interval,
                                      velocity: velocity(75)))
                }
            }
        }
        self.notes = notes
    }

    /// The file's bytes.
    var bytes: [UInt8] {
        var track: [UInt8] = []
        func variableLength(_ value: Int) {
            var v = value
            var groups = [UInt8(v & 0x7F)]
            v >>= 7
            while v > 0 { groups.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
            track += groups.reversed()
        }
        // Tempo meta event, then program changes, all at tick 0.
        variableLength(0)
        track += [0xFF, 0x51, 0x03, UInt8((microsecondsPerQuarter >> 16) & 0xFF),
                  UInt8((microsecondsPerQuarter >> 8) & 0xFF), UInt8(microsecondsPerQuarter & 0xFF)]
        for (channel, program) in programs {
            variableLength(0)
            track += [0xC0 | UInt8(channel), UInt8(program)]
        }
        // Note-ons and note-offs in time order (offs first at equal ticks).
        var events: [(tick: Int, order: Int, bytes: [UInt8])] = []
        for note in notes {
            let start = leadInTicks + note.start
            events.append((start, 1, [0x90 | UInt8(note.channel), UInt8(note.key), UInt8(note.velocity)]))
            events.append((start + note.length, 0, [0x80 | UInt8(note.channel), UInt8(note.key), 0x40]))
        }
        events.sort { ($0.tick, $0.order) < ($1.tick, $1.order) }
        var now = 0
        for event in events {
            variableLength(event.tick - now)
            now = event.tick
            track += event.bytes
        }
        variableLength(0)
        track += [0xFF, 0x2F, 0x00]  // end of track

        func be32(_ v: Int) -> [UInt8] { [UInt8((v >> 24) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
        func be16(_ v: Int) -> [UInt8] { [UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
        return Array("MThd".utf8) + be32(6) + be16(0) + be16(1) + be16(Self.division)
            + Array("MTrk".utf8) + be32(track.count) + track
    }

    /// The times (seconds) at which notes start, once per time, each with the longest note
    /// starting then (seconds): the music's own onsets.
    var noteOnsets: [(time: Double, duration: Double)] {
        let secondsPerTick = Double(microsecondsPerQuarter) / 1_000_000 / Double(Self.division)
        var longest: [Int: Int] = [:]
        for note in notes { longest[note.start + leadInTicks] = max(longest[note.start + leadInTicks] ?? 0, note.length) }
        return longest.keys.sorted().map { (Double($0) * secondsPerTick, Double(longest[$0]!) * secondsPerTick) }
    }
}
