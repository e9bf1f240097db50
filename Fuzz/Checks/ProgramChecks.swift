import Foundation
import TapMetronome

extension FuzzChecks {
    /// The sample rate schedules are built at: the lowest allowed, to stay fast.
    static let scheduleRate = 1_000
    /// Schedules are built only for programs of at most this many clicks (estimated), so one
    /// input stays in milliseconds; larger programs are still parsed and validated.
    static let scheduleClickBudget = 20_000

    /// `MetronomeProgram(parsing:path:)`, then `ProgramSchedule` when the program is small: a
    /// parsed program is within the documented ranges, and its schedule is in frame order,
    /// starts at frame ≥ 0, has finite times and volumes in 0–1, ends after its last steady
    /// click, and numbers bars within the program.
    static func program(_ bytes: UnsafeRawBufferPointer) -> String? {
        guard let program = try? MetronomeProgram(parsing: text(bytes), path: "fuzz.txt") else { return nil }
        if program.sections.isEmpty { return "a program without sections" }
        var beats = 0, bars = 0, clicks = 0
        for (index, section) in program.sections.enumerated() {
            if !(1...1_000_000).contains(section.bars) { return "section \(index + 1) has \(section.bars) bars" }
            do { try section.settings.validate() } catch { return "section \(index + 1) does not validate: \(error)" }
            let sectionBeats = section.bars * section.settings.beatsPerBar
            beats += sectionBeats
            bars += section.bars
            clicks += sectionBeats * (1 + section.settings.subdivisions.keys.reduce(0, +))
        }
        if beats > ProgramSchedule.maximumClicks { return "\(beats) beats, more than \(ProgramSchedule.maximumClicks)" }
        if !(0...1_000).contains(program.countInBars) { return "count-in of \(program.countInBars) bars" }
        if let bar = program.mutedBars.first(where: { !(1...bars).contains($0) }) { return "muted bar \(bar) outside 1–\(bars)" }
        if let beat = program.silentAfterBeat, !(0...beats).contains(beat) { return "silent after beat \(beat) outside 0–\(beats)" }
        if let perturbation = program.perturbations.first(where: { !(1...beats).contains($0.beat) }) {
            return "perturbation at beat \(perturbation.beat) outside 1–\(beats)"
        }

        clicks += program.countInBars * program.sections[0].settings.beatsPerBar
        guard clicks <= scheduleClickBudget, let schedule = try? ProgramSchedule(program, sampleRate: scheduleRate) else { return nil }
        if schedule.clicks.isEmpty { return "a schedule without clicks" }
        if schedule.clicks[0].frame < 0 { return "the first click is at frame \(schedule.clicks[0].frame)" }
        for (index, click) in schedule.clicks.enumerated() {
            if index > 0, click.frame < schedule.clicks[index - 1].frame { return "click \(index) at frame \(click.frame) before \(schedule.clicks[index - 1].frame)" }
            if !click.time.isFinite { return "click \(index) at time \(click.time)" }
            if !(0...1).contains(click.volume) { return "click \(index) has volume \(click.volume)" }
            if !((1 - program.countInBars)...bars).contains(click.bar) { return "click \(index) in bar \(click.bar)" }
            if click.played, click.bar > 0, program.mutedBars.contains(click.bar) { return "click \(index) plays in muted bar \(click.bar)" }
        }
        if program.jitter == nil, program.perturbations.isEmpty, let last = schedule.clicks.last, schedule.endFrame < last.frame {
            return "the schedule ends at frame \(schedule.endFrame), before its last click at \(last.frame)"
        }
        return nil
    }
}
