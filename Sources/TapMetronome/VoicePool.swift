/// One sounding click: its own clip, how far it has played, its volume, and the compiled
/// settings that own the clip (whose voice count it holds up until it ends).
struct Voice {
    var clip: UnsafePointer<Float>
    var length: Int
    var position: Int
    var volume: Float
    var owner: UnsafeMutablePointer<LiveSettings>
}

/// A fixed number of voices in preallocated memory, kept in the order they started.
///
/// A voice always plays its clip to the last sample; a click that finds every voice busy is
/// not played (the caller counts it). Voices are mixed in start order, which is click order,
/// so each output sample adds the clicks in the same order as the offline ``ClickRenderer``.
struct VoicePool {
    let voices: UnsafeMutablePointer<Voice>
    let capacity: Int
    private(set) var count = 0

    /// A pool of `capacity` voices. Control thread; free it with ``destroy()``.
    init(capacity: Int) {
        self.capacity = capacity
        voices = .allocate(capacity: capacity)
    }

    /// Frees the memory.
    func destroy() {
        voices.deinitialize(count: count)
        voices.deallocate()
    }

    /// Adds the next `frames` samples of every voice into `output`. Voices that end are removed
    /// (keeping the others' order) and released from their owner's count.
    mutating func mix(into output: UnsafeMutablePointer<Float>, frames: Int) {
        var kept = 0
        for index in 0..<count {
            var voice = voices[index]
            let run = min(frames, voice.length - voice.position)
            Self.add(voice.clip + voice.position, times: voice.volume, into: output, count: run)
            voice.position += run
            if voice.position < voice.length {
                voices[kept] = voice
                kept += 1
            } else {
                voice.owner.pointee.voices -= 1
            }
        }
        count = kept
    }

    /// Starts `clip` of `owner` at `offset` in an output block of `frames` samples, mixing its
    /// first part at once. False (and nothing sounds) if the clip lasts beyond the block and
    /// every voice is busy; a clip that ends within the block needs no voice.
    mutating func start(_ clip: LiveClip, volume: Float, owner: UnsafeMutablePointer<LiveSettings>,
                        at offset: Int, into output: UnsafeMutablePointer<Float>, frames: Int) -> Bool {
        let run = min(frames - offset, clip.count)
        guard run == clip.count || count < capacity else { return false }
        Self.add(clip.samples, times: volume, into: output + offset, count: run)
        if run < clip.count {
            (voices + count).initialize(to: Voice(clip: clip.samples, length: clip.count, position: run,
                                                  volume: volume, owner: owner))
            count += 1
            owner.pointee.voices += 1
        }
        return true
    }

    /// `output[i] += volume × clip[i]` for `count` samples.
    @inline(__always)
    private static func add(_ clip: UnsafePointer<Float>, times volume: Float, into output: UnsafeMutablePointer<Float>,
                            count: Int) {
        for index in 0..<count { output[index] += volume * clip[index] }
    }
}
