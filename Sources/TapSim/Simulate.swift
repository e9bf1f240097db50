import TapStatistics
import TapData
/// Simulates one task: a participant tapping along to a metronome while the phone records the
/// microphone and logs touches.
///
/// Deterministic: the result depends only on the arguments, bit for bit, on every platform.
/// The randomness comes from `(seed, user, track)`, so a task is the same whether it is
/// simulated alone or as part of a session of any size.
///
/// - Precondition: `configuration.validate()` does not throw.
public func simulateTask(user: Int, track: Int, configuration: SimulationConfiguration,
                         seed: UInt64) -> SimulatedTask {
    let plan = TaskPlan(user: user, track: track, configuration: configuration, seed: seed)
    var mix = [Float](repeating: 0, count: plan.frameCount)
    var scratch: [Double] = []
    for component in SoundComponent.allCases {
        plan.render(component, into: &mix, scratch: &scratch)
    }
    let gain = plan.headroomGain(for: mix)
    scale(&mix, by: gain)
    return plan.task(user: user, track: track, samples: mix, gain: gain)
}

/// Simulates one task and also returns each sound component separately (for checking levels
/// and detectors against individual sources). `stems.task` is bit-identical to
/// ``simulateTask(user:track:configuration:seed:)``'s result; this costs about twice as much
/// and needs six signals in memory.
public func simulateTaskStems(user: Int, track: Int, configuration: SimulationConfiguration,
                              seed: UInt64) -> SimulatedStems {
    let plan = TaskPlan(user: user, track: track, configuration: configuration, seed: seed)
    var mix = [Float](repeating: 0, count: plan.frameCount)
    var stems: [[Float]] = []
    var scratch: [Double] = []
    for component in SoundComponent.allCases {
        // Rendered into the mix exactly as simulateTask does, and again on its own.
        plan.render(component, into: &mix, scratch: &scratch)
        var stem = [Float](repeating: 0, count: plan.frameCount)
        plan.render(component, into: &stem, scratch: &scratch)
        stems.append(stem)
    }
    let gain = plan.headroomGain(for: mix)
    scale(&mix, by: gain)
    for index in stems.indices { scale(&stems[index], by: gain) }
    return SimulatedStems(task: plan.task(user: user, track: track, samples: mix, gain: gain),
                          backgroundNoise: stems[0], hum: stems[1], bleed: stems[2],
                          distractors: stems[3], taps: stems[4])
}

/// The ground truth of a task without synthesising its audio — cheap even for hours of
/// tapping. Equal to `simulateTask(…).truth` for the same arguments.
///
/// - Precondition: `configuration.validate()` does not throw.
public func simulateTruth(user: Int, track: Int, configuration: SimulationConfiguration,
                          seed: UInt64) -> TaskTruth {
    TaskPlan(user: user, track: track, configuration: configuration, seed: seed).truth
}

/// Simulates `users × tasksPerUser` tasks: users 1...users, tracks 1...tasksPerUser, ordered
/// by user, then track. Each equals the corresponding ``simulateTask(user:track:configuration:seed:)``.
/// The order in which a user played the tracks is ``playOrder(user:tasksPerUser:seed:)``.
public func simulateSession(users: Int, tasksPerUser: Int,
                            configuration: SimulationConfiguration,
                            seed: UInt64) -> [SimulatedTask] {
    guard users > 0, tasksPerUser > 0 else { return [] }
    var tasks: [SimulatedTask] = []
    tasks.reserveCapacity(users * tasksPerUser)
    for user in 1...users {
        for track in 1...tasksPerUser {
            tasks.append(simulateTask(user: user, track: track, configuration: configuration,
                                      seed: seed))
        }
    }
    return tasks
}

/// The order in which `user` played the tracks: `shuffledPlayOrder(count:seed:)` of
/// `0..<tasksPerUser` (element i is the 0-based index of the track played i-th, i.e.
/// track number − 1). Depends only on `(seed, user, tasksPerUser)`.
public func playOrder(user: Int, tasksPerUser: Int, seed: UInt64) -> [Int] {
    shuffledPlayOrder(count: tasksPerUser, seed: SeededGenerator.derivedSeed(
        seed, [SeedDomain.playOrder.rawValue, UInt64(bitPattern: Int64(user))]))
}
