import Foundation
import Testing
import TapMetronome
import TapTestSupport

/// Random live changes at random block boundaries, recorded for checking against the rules.
struct LiveRun {
    var plans: [LivePlan] = []
    /// The first frame rendered after each accepted change was applied (0 for version 0).
    var requested = [0]
    var events: [LiveClickEvent] = []
    var changes: [LiveSettingsChange] = []
    var frames = 0
    var refused = 0
    /// Clicks reported outside the block that rendered them (a click starting part-way).
    var startedOutsideBlock = 0
    /// Frames where the signal differs from the sum of whole clips at their events' frames.
    var differingFrames: [Int] = []
    var largestDifference: Float = 0
    var droppedClicks = 0
    var droppedEvents = 0
    var compiledAtEnd = 0

    /// Makes `count` changes, then renders until every clip has ended; after every block the
    /// rendered samples are compared with a model: the sum, over the click events so far, of
    /// volume × the sound of the settings that scheduled the click, from the event's frame on.
    ///
    /// `settings(random, dense)` draws settings; `dense` asks for clicks close together (used
    /// in bursts of a change before every block, with `longSounds`, so that replaced settings
    /// keep sounding and changes must wait for a retired slot and can find the queue full).
    init(seed: UInt64, rate: Int, count: Int, soundSets: [ClickSounds], longSounds: Int,
         settings: (inout SplitMix64, Bool) -> MetronomeSettings) throws {
        var random = SplitMix64(seed: seed)
        plans = [try LivePlan(settings(&random, false), sounds: soundSets[0], rate: rate)]
        let live = try LiveMetronome(settings: plans[0].settings, sounds: plans[0].sounds, sampleRate: rate,
                                     voiceCapacity: 8_192, eventCapacity: 1 << 16, changeCapacity: 8)
        let longest = soundSets.map(\.longest).max()!
        var window = 1
        while window < longest + 2_048 { window <<= 1 }
        let mask = window - 1
        var model = [Float](repeating: 0, count: window)
        var block = [Float](repeating: 0, count: 2_048)
        var quiet = 0, burst = 0, tail = 0, sounds = 0
        while tail < longest + 2 * rate {
            if plans.count <= count && (burst > 0 || (quiet == 0 && random.chance(0.4))) {
                for _ in 0..<(burst > 0 ? 2 : random.chance(0.1) ? 2 + Int(random.next() % 2) : 1) {
                    if burst > 0 { sounds = longSounds } else if random.chance(0.25) { sounds = Int(random.next() % UInt64(soundSets.count)) }
                    let plan = try LivePlan(settings(&random, burst > 0), sounds: soundSets[sounds], rate: rate)
                    if try live.apply(plan.settings, sounds: plan.sounds) {
                        plans.append(plan)
                        requested.append(frames)
                    } else {
                        refused += 1
                    }
                }
                if burst == 0 && random.chance(0.02) { quiet = 40 }                 // a long steady stretch
                if burst == 0 && quiet == 0 && random.chance(0.01) { burst = 30 }   // a change every block
            } else {
                quiet = max(0, quiet - 1)
            }
            burst = max(0, burst - 1)
            let size = random.chance(0.1) ? Int(random.next() % 16) + 1 : Int(random.next() % 2_048) + 1
            block.withUnsafeMutableBufferPointer { live.render(into: UnsafeMutableBufferPointer(rebasing: $0[0..<size])) }
            var fresh: [LiveClickEvent] = []
            live.pollEvents(into: &fresh)
            live.pollChanges(into: &changes)
            for event in fresh {
                if event.frame < frames || event.frame >= frames + size { startedOutsideBlock += 1 }
                guard event.played else { continue }
                for (index, sample) in plans[event.settingsVersion].sounds.sound(for: event.kind).enumerated() {
                    model[(event.frame + index) & mask] += event.volume * sample
                }
            }
            for index in 0..<size {
                let difference = abs(block[index] - model[(frames + index) & mask])
                largestDifference = max(largestDifference, difference)
                if difference > 1e-5 { differingFrames.append(frames + index) }
                model[(frames + index) & mask] = 0
            }
            events += fresh
            frames += size
            if plans.count > count { tail += size }
        }
        live.collectGarbage()
        droppedClicks = live.droppedClicks
        droppedEvents = live.droppedEvents + live.droppedChanges
        compiledAtEnd = live.compiledSettingsCount
    }

    /// Every version's clicks recomputed from the rules: each change carries the anchor (bar
    /// start and number) from the last, and a version owns the clicks from its change's frame
    /// to the next one's.
    func expectedEvents() -> [LiveClickEvent] {
        let starts = [0] + changes.map(\.frame), ends = changes.map(\.frame) + [frames]
        var anchor = LiveAnchor(origin: 0, offset: Exact(0), bar: 1)
        var expected: [LiveClickEvent] = []
        for version in plans.indices {
            if version > 0 { anchor = anchor.carried(at: starts[version], from: plans[version - 1], to: plans[version]) }
            expected += plans[version].clicks(from: starts[version], to: ends[version], anchor: anchor, version: version)
        }
        return expected
    }

    /// Checks (a)–(e) of the property tests.
    func check(rate: Int) throws {
        // (a) the signal is the sum of whole clips at the events' frames; (b) none started
        // outside its block, none differs anywhere (so none was cut short), none was dropped.
        #expect(differingFrames.isEmpty, "\(differingFrames.count) samples differ, by up to \(largestDifference)")
        let clipsNotWhole = events.filter { event in
            // The first differing frame at or after the click's (the frames are in order).
            var (low, high) = (0, differingFrames.count)
            while low < high {
                let middle = (low + high) / 2
                if differingFrames[middle] < event.frame { low = middle + 1 } else { high = middle }
            }
            let length = plans[event.settingsVersion].sounds.sound(for: event.kind).count
            return low < differingFrames.count && differingFrames[low] < event.frame + length
        }.count
        #expect(clipsNotWhole == 0 && startedOutsideBlock == 0)
        #expect(droppedClicks == 0 && droppedEvents == 0)
        #expect(events.allSatisfy { $0.played == ($0.volume > 0) })

        // Every accepted change took effect once, in order, no earlier than requested.
        try #require(changes.map(\.settingsVersion) == Array(1..<plans.count))
        #expect(zip(changes, changes.dropFirst()).allSatisfy { $0.frame <= $1.frame })
        #expect(changes.allSatisfy { $0.frame >= requested[$0.settingsVersion] })

        // (c), (e): every click where the rules put it, none missing, none doubled.
        let expected = expectedEvents()
        #expect(events.count == expected.count)
        let misplaced = zip(events, expected).filter { $0 != $1 }.count
        #expect(misplaced == 0, "\(misplaced) of \(events.count) clicks differ from the rules")

        // (d): until the first change, the offline schedule.
        let end = changes.first?.frame ?? frames
        let schedule = try ClickSchedule(plans[0].settings, sampleRate: rate)
        var bars = 1
        while schedule.frame(ofBar: bars) < end { bars += 1 }
        let offline = schedule.clicks(inBars: 0..<bars).filter { $0.frame < end }
        #expect(events.filter { $0.settingsVersion == 0 }.map { [$0.frame, $0.bar, $0.beat, $0.step, $0.of] }
                == offline.map { [$0.frame, $0.bar, $0.beat, $0.step, $0.of] })

        // Everything replaced was freed once its clips ended.
        #expect(compiledAtEnd == 1)
    }

    /// Changes that waited for a retired slot, and changes taken in the same block as the one
    /// before.
    var waited: Int { changes.filter { $0.frame > requested[$0.settingsVersion] }.count }
    var together: Int { zip(changes, changes.dropFirst()).filter { $0.frame == $1.frame }.count }
}

@Suite struct LiveMetronomePropertyTests {
    static func randomSettings(_ random: inout SplitMix64, dense: Bool) -> MetronomeSettings {
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        func number(_ range: ClosedRange<Int>) -> Int64 { Int64(range.lowerBound) + Int64(random.next() % UInt64(range.count)) }
        var tempo: Rational
        switch random.next() % 6 {
        case 0: tempo = Rational(number(20...300))
        case 1: tempo = Rational(number(200...3_000), 10)            // 20.0–300.0
        case 2: tempo = Rational(number(2_000...30_000), 100)        // 20.00–300.00
        case 3: tempo = Rational(number(60...900), pick([3, 7]))     // thirds and sevenths
        case 4: tempo = Rational(number(1...19))                     // very slow
        default: tempo = Rational(number(300...999))                 // very fast
        }
        if dense { tempo = Rational(number(150...400)) }
        let meter = Meter(Int(number(1...13)), pick([1, 2, 3, 4, 5, 6, 8, 12, 16]))!
        let unit = random.chance(0.5) ? nil : NoteValue(denominator: pick([1, 2, 3, 4, 5, 6, 8, 10, 12, 16]), dots: Int(number(0...2)))
        var settings = MetronomeSettings(tempo: tempo, meter: meter, beatUnit: unit)
        func volume() -> Float { random.chance(0.05) ? 0 : Float(random.uniform(0.1...1)) }
        for subdivision in 2...9 where random.chance(0.2) { settings.subdivisions[subdivision] = random.chance(0.1) ? 0 : volume() }
        settings.accentVolume = volume()
        settings.beatVolume = volume()
        settings.subdivisionVolume = volume()
        settings.masterVolume = volume()
        if dense {
            // A click every sixth of a beat at least, all audible.
            settings.subdivisions[6] = 1
            (settings.subdivisionVolume, settings.masterVolume) = (0.5, 0.5)
        }
        return settings
    }

    /// Thousands of random live changes — tempos whole, decimal and fractional (1–999 BPM),
    /// meters, beat units with dots and n-lets, subdivision sets with volumes, volumes, and
    /// sometimes other sounds, some far longer than the time between clicks, one empty — at
    /// random block boundaries (blocks of 1–2048 frames), at 11 025 Hz.
    ///
    /// Checked: (a) the signal is the sum over click events of volume × the sound of the
    /// settings that scheduled it, whole, from the event's frame (bit for bit here; 1e-5
    /// allowed); (b) no click started outside its block, no clip differs anywhere (none cut
    /// short), none dropped; (c) every click of every version is where the rules put it — the
    /// phase-keeping anchor snapped to 1/1024 frame, exact positions rounded once; (d) until
    /// the first change, the clicks are the offline schedule's; (e) no click is missing or
    /// doubled at a change. Bursts of a change before every block with long clips make
    /// changes wait for a retired slot and find the queue full; both must happen.
    @Test func randomLiveChangesKeepEveryClickExactAndWhole() throws {
        let rate = 11_025
        let soundSets: [ClickSounds] = [
            .builtIn(sampleRate: rate),
            clickSounds(accent: ping(1_800, seconds: 0.004, rate: rate), beat: ping(1_300, seconds: 0.006, rate: rate),
                        subdivision: ping(900, seconds: 0.003, rate: rate)),
            clickSounds(accent: ping(700, seconds: 1.5, rate: rate), beat: ping(500, seconds: 1.2, rate: rate),
                        subdivision: ping(350, seconds: 1, rate: rate)),
            clickSounds(accent: ping(1_000, seconds: 0.12, rate: rate), beat: [], subdivision: ping(2_500, seconds: 0.2, rate: rate)),
            clickSounds(accent: ping(440, seconds: 0.9, rate: rate), beat: ping(660, seconds: 0.05, rate: rate),
                        subdivision: ping(880, seconds: 0.45, rate: rate)),
        ]
        let run = try LiveRun(seed: 0x11FE_C1C4, rate: rate, count: 3_000, soundSets: soundSets, longSounds: 2,
                              settings: Self.randomSettings)
        try run.check(rate: rate)
        #expect(run.plans.count > 3_000 && run.events.count > 10_000)
        #expect(run.waited > 0 && run.refused > 0 && run.together > 0,
                "waited \(run.waited), refused \(run.refused), together \(run.together)")
    }

    /// The same with degenerate bars, from a few frames down to 0.6 of a frame at 1000 Hz
    /// (several clicks in one frame): a change can then find clicks of the bar before the
    /// carried one rounding to its first frame, which must still play, once.
    @Test func randomChangesBetweenTinyBars() throws {
        let rate = 1_000
        let soundSets = [clickSounds(accent: [0.5, -0.25, 0.125], beat: [0.3], subdivision: [0.2, 0.1]),
                         clickSounds(accent: ping(300, seconds: 0.05, rate: rate), beat: [], subdivision: [0.7, 0.7, 0.7, 0.7])]
        let run = try LiveRun(seed: 0x7E57, rate: rate, count: 1_000, soundSets: soundSets, longSounds: 1) { random, _ in
            func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
            let tempo = Rational(Int64(5_000 + random.next() % 4_991), 10)                    // 500.0–999.0
            let meter: Meter, unit: NoteValue
            switch random.next() % 5 {
            case 0, 1:  // bars of 0.35–2.5 frames: one accent each
                (meter, unit) = (Meter(pick([1, 2]), pick([98, 99]))!, NoteValue(pick(["1..", "1.", "1"]))!)
            case 2, 3:  // bars of 60–120 frames whose last beat is 0.16–1.2 frames long
                (meter, unit) = pick([(Meter(93, 53)!, NoteValue("1..")!), (Meter(98, 65)!, NoteValue("1.")!),
                                      (Meter(99, 98)!, NoteValue("1")!), (Meter(99, 56)!, NoteValue("1..")!)])
            default:    // a few frames, and subdivisions
                (meter, unit) = (Meter(Int(1 + random.next() % 3), pick([16, 32, 64, 99]))!, NoteValue(denominator: pick([1, 2, 4]))!)
            }
            var settings = MetronomeSettings(tempo: tempo, meter: meter, beatUnit: unit)
            if random.chance(0.3) { settings.subdivisions[Int(2 + random.next() % 8)] = 1 }
            return settings
        }
        try run.check(rate: rate)
        // Clicks the rules place in a bar before the carried one: the case under test.
        let starts = [0] + run.changes.map(\.frame)
        var anchorBars = [1]
        var anchor = LiveAnchor(origin: 0, offset: Exact(0), bar: 1)
        for version in 1..<run.plans.count {
            anchor = anchor.carried(at: starts[version], from: run.plans[version - 1], to: run.plans[version])
            anchorBars.append(anchor.bar)
        }
        let earlier = run.events.filter { $0.settingsVersion > 0 && $0.bar < anchorBars[$0.settingsVersion] }.count
        #expect(earlier > 0)
    }
}

@Suite struct LiveMetronomeLargeFractionTests {
    /// Tempo fractions with parts of 16–18 digits (beyond what `Rational("…")` parses, but
    /// valid), long bars and subdivisions 5, 7, 8, 9 make the exact 128-bit snap overflow, so
    /// it falls back to `Double`. One change each, from a steady start, in 100 random cases: every later click
    /// lies within ½ + 1/1024 frame of its exact phase-keeping position (computed here without
    /// any snap), is its rounding wherever that position is not within 1/1024 frame of a half,
    /// and none is missing or doubled.
    @Test func phaseIsKeptWhenTheSnapFallsBackToDouble() throws {
        let rate = 48_000
        var random = SplitMix64(seed: 0xD0B1E)
        func settings() -> MetronomeSettings {
            let denominator = Int64(1_000_000_000_000_001 + random.next() % 9_000_000_000_000_000)
            let tempo = Rational(denominator * Int64(20 + random.next() % 20) + Int64(random.next() % UInt64(denominator)), denominator)
            var settings = MetronomeSettings(tempo: tempo, meter: Meter(Int(5 + random.next() % 5), [1, 2][Int(random.next() % 2)])!,
                                             beatUnit: NoteValue(denominator: 4))
            for subdivision in [5, 7, 8, 9] { settings.subdivisions[subdivision] = 0.5 }
            return settings
        }
        let tolerance = 1.0 / 1_024 + 1e-9
        var checked = 0, wrong = 0, missing = 0, unexpected = 0
        for _ in 0..<100 {
            let old = try LivePlan(settings(), sounds: .builtIn(sampleRate: rate), rate: rate)
            let new = try LivePlan(settings(), sounds: .builtIn(sampleRate: rate), rate: rate)
            let live = try LiveMetronome(settings: old.settings, sounds: old.sounds, sampleRate: rate)
            let change = Int(random.next() % 100_000) + 1, end = change + 200_000
            var events = renderLive(live, frames: change, random: &random).events
            #expect(try live.apply(new.settings, sounds: new.sounds))
            events += renderLive(live, frames: 200_000, random: &random).events

            // The exact phase at the change, then positions without a snap, in Double (exact
            // parts first, so the error is about 10⁻¹⁰ frame).
            let bars = (Exact(change) / old.bar).floor
            let elapsed = Exact(change) - Exact(bars) * old.bar
            let share = Double(elapsed.n) / Double(elapsed.d) / (Double(old.bar.n) / Double(old.bar.d))
            let start = Double(change) - share * Double(new.bar.n) / Double(new.bar.d)
            var byClick: [[Int]: Int] = [:]
            for event in events where event.settingsVersion == 1 { byClick[[event.bar, event.beat, event.step, event.of]] = event.frame }
            var seen = 0
            for bar in (-1)...Int(Double(end - change) / (Double(new.bar.n) / Double(new.bar.d))) + 1 {
                for (offset, click) in new.clicks {
                    let exact = Exact(bar) * new.bar + offset
                    let position = start + Double(exact.n) / Double(exact.d)
                    guard position >= Double(change) - 0.5 - tolerance, position < Double(end) - 0.5 + tolerance else { continue }
                    let key = [Int(bars) + 1 + bar, click.beat, click.step, click.of]
                    let nearBoundary = position < Double(change) - 0.5 + tolerance || position >= Double(end) - 0.5 - tolerance
                    guard let frame = byClick[key] else {
                        if !nearBoundary { missing += 1 }
                        continue
                    }
                    seen += 1
                    checked += 1
                    let nearHalf = abs(position - position.rounded(.down) - 0.5) < tolerance
                    if abs(Double(frame) - position) > 0.5 + tolerance || (!nearHalf && frame != Int((position + 0.5).rounded(.down))) {
                        wrong += 1
                    }
                }
            }
            unexpected += byClick.count - seen
            #expect(events.filter { $0.settingsVersion == 0 }.map(\.frame)
                    == old.clicks(from: 0, to: change, anchor: LiveAnchor(origin: 0, offset: Exact(0), bar: 1), version: 0).map(\.frame))
        }
        #expect(checked > 1_000)
        #expect(wrong == 0 && missing == 0 && unexpected == 0, "\(wrong) off, \(missing) missing, \(unexpected) unexpected of \(checked)")
    }
}
