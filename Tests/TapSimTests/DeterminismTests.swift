import Testing
import TapSim

@Suite("Determinism")
struct DeterminismTests {
    let configuration = shortConfiguration()

    @Test("same seed gives bit-identical samples and truth; another seed does not")
    func sameSeed() {
        let a = simulateTask(user: 1, track: 1, configuration: configuration, seed: 99)
        let b = simulateTask(user: 1, track: 1, configuration: configuration, seed: 99)
        #expect(bits(a.samples) == bits(b.samples))
        #expect(a.truth == b.truth)
        let c = simulateTask(user: 1, track: 1, configuration: configuration, seed: 100)
        #expect(bits(a.samples) != bits(c.samples))
        #expect(a.truth.touches != c.truth.touches)
    }

    @Test("tasks of other users and tracks differ")
    func otherTasks() {
        let a = simulateTask(user: 1, track: 1, configuration: configuration, seed: 5)
        let b = simulateTask(user: 1, track: 2, configuration: configuration, seed: 5)
        let c = simulateTask(user: 2, track: 1, configuration: configuration, seed: 5)
        #expect(a.samples != b.samples && a.samples != c.samples && b.samples != c.samples)
        #expect(a.truth.interOnsetInterval != b.truth.interOnsetInterval)
    }

    @Test("a session's tasks equal the tasks simulated alone, whatever the session size")
    func sessionIndependence() {
        let small = simulateSession(users: 1, tasksPerUser: 2, configuration: configuration, seed: 3)
        let large = simulateSession(users: 2, tasksPerUser: 3, configuration: configuration, seed: 3)
        #expect(small.count == 2 && large.count == 6)
        #expect(large.map { "\($0.user)-\($0.track)" } == ["1-1", "1-2", "1-3", "2-1", "2-2", "2-3"])
        #expect(small[0] == large[0] && small[1] == large[1])
        let alone = simulateTask(user: 2, track: 3, configuration: configuration, seed: 3)
        #expect(alone == large[5])
        #expect(simulateSession(users: 0, tasksPerUser: 3, configuration: configuration, seed: 3).isEmpty)
        #expect(simulateSession(users: 2, tasksPerUser: 0, configuration: configuration, seed: 3).isEmpty)
    }

    @Test("truth without audio, stems and the task agree")
    func truthAndStems() {
        let task = simulateTask(user: 4, track: 2, configuration: configuration, seed: 11)
        let truth = simulateTruth(user: 4, track: 2, configuration: configuration, seed: 11)
        #expect(truth == task.truth)
        let stems = simulateTaskStems(user: 4, track: 2, configuration: configuration, seed: 11)
        #expect(stems.task == task)
        #expect(bits(stems.task.samples) == bits(task.samples))
    }

    @Test("switching components off leaves the taps and touches unchanged")
    func componentIndependence() {
        let full = simulateTaskStems(user: 1, track: 1, configuration: configuration, seed: 8)
        let only = simulateTaskStems(user: 1, track: 1, configuration: configuration.tapsOnly, seed: 8)
        #expect(full.task.truth.taps == only.task.truth.taps)
        #expect(full.task.truth.touches == only.task.truth.touches)
        #expect(only.task.truth.distractors.isEmpty && only.task.truth.bleedOnsetTimes.isEmpty)
        // Same tap stem up to the output gain.
        let ratio = full.task.outputGain / only.task.outputGain
        var worst = 0.0
        for i in full.taps.indices {
            worst = max(worst, abs(Double(full.taps[i]) - ratio * Double(only.taps[i])))
        }
        #expect(worst < 1e-6)
        var louder = configuration
        louder.snrRange = 30...30
        let other = simulateTruth(user: 1, track: 1, configuration: louder, seed: 8)
        #expect(other.taps.map(\.startFrame) == full.task.truth.taps.map(\.startFrame))
    }

    @Test("play order is a seeded permutation per user")
    func playOrders() {
        let order = playOrder(user: 1, tasksPerUser: 30, seed: 1)
        #expect(order.sorted() == Array(0..<30))
        #expect(order != Array(0..<30))
        #expect(order == playOrder(user: 1, tasksPerUser: 30, seed: 1))
        #expect(order != playOrder(user: 2, tasksPerUser: 30, seed: 1))
        #expect(order != playOrder(user: 1, tasksPerUser: 30, seed: 2))
        #expect(playOrder(user: 1, tasksPerUser: 0, seed: 1).isEmpty)
        #expect(playOrder(user: 1, tasksPerUser: 1, seed: 1) == [0])
    }

    /// Pins the exact output for one seed so that a change of platform, compiler or model
    /// shows up. Update the constants deliberately when the sound models change.
    @Test("golden fingerprint of a short task")
    func golden() {
        var c = SimulationConfiguration.tapIt
        c.taskDuration = 3
        let task = simulateTask(user: 1, track: 1, configuration: c, seed: 2024)
        #expect(task.samples.count == 132_300)
        #expect(fingerprint(task.samples) == 10_471_059_647_751_172_205)
        #expect(task.truth.touches.first == 1.799546)
    }
}
