import Foundation
import Testing
import TapSim

@Suite("SimulationConfiguration")
struct ConfigurationTests {
    @Test("defaults are the documented Tap-It values")
    func defaults() {
        let c = SimulationConfiguration.tapIt
        #expect(c == SimulationConfiguration())
        #expect(c.sampleRate == 44100 && c.taskDuration == 20 && c.channels == 2)
        #expect(c.tempoRange == 0.4...0.8 && c.snrRange == 6...40)
        #expect(c.asynchronyMean == -0.030 && c.asynchronySD == 0.020)
        #expect(c.silentTapProbability == 0.02 && c.missedTouchProbability == 0.02)
        #expect(c.spuriousTouchProbability == 0.01 && c.bufferFrames == 256)
        #expect(c.clockDriftPPM == 0 && c.peakLimit == 0.9)
    }

    @Test("the latency model's Gaussian part: μ_d = 12.098 ms, σ_d = 4.711 ms for 15/5 ms and B = 256/44100")
    func latencyParameters() {
        let c = SimulationConfiguration()
        #expect(abs(c.bufferDuration - 0.0058049887) < 1e-9)
        #expect(abs(c.touchDelayMean - 0.0120975057) < 1e-9)
        #expect(abs(c.touchDelaySD - 0.0047109) < 1e-6)
        // Final variance = σ_d² + B²/12 recovers the 5 ms SD.
        let total = (c.touchDelaySD * c.touchDelaySD + c.bufferDuration * c.bufferDuration / 12).squareRoot()
        #expect(abs(total - 0.005) < 1e-12)
    }

    @Test("presets differ from the defaults where documented")
    func presets() throws {
        let clean = SimulationConfiguration.clean
        #expect(clean.humLevelDB == nil && clean.bleedLevelRange == nil && clean.distractorRate == 0)
        #expect(clean.silentTapProbability == 0 && clean.noiseLevelDBFS == -80)
        let hard = SimulationConfiguration.hard
        #expect(hard.snrRange.upperBound <= 15 && hard.bleedLevelRange!.lowerBound >= 10)
        for preset in [SimulationConfiguration.tapIt, .clean, .hard] {
            try preset.validate()
        }
        let only = SimulationConfiguration.hard.tapsOnly
        #expect(!only.includesBackgroundNoise && only.humLevelDB == nil)
        #expect(only.bleedLevelRange == nil && only.distractorRate == 0)
        #expect(only.snrRange == SimulationConfiguration.hard.snrRange)
    }

    @Test("JSON round trip keeps switched-off components off")
    func roundTrip() throws {
        var c = SimulationConfiguration.hard
        c.humLevelDB = nil
        c.clockDriftPPM = 12.5
        let data = try JSONEncoder().encode(c)
        let back = try JSONDecoder().decode(SimulationConfiguration.self, from: data)
        #expect(back == c)
        #expect(String(decoding: data, as: UTF8.self).contains("\"humLevelDB\":null"))
    }

    @Test("partial JSON keeps defaults for missing keys; null switches a component off")
    func partialDecoding() throws {
        let json = #"{"taskDuration": 5, "bleedLevelRange": null, "snrRange": [10, 20]}"#
        let c = try JSONDecoder().decode(SimulationConfiguration.self, from: Data(json.utf8))
        var expected = SimulationConfiguration()
        expected.taskDuration = 5
        expected.bleedLevelRange = nil
        expected.snrRange = 10...20
        #expect(c == expected)
        let empty = try JSONDecoder().decode(SimulationConfiguration.self, from: Data("{}".utf8))
        #expect(empty == SimulationConfiguration())
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(SimulationConfiguration.self, from: Data(#"{"channels": "two"}"#.utf8))
        }
    }

    /// A default configuration with one invalid field.
    static func broken(_ field: String) -> SimulationConfiguration {
        var c = SimulationConfiguration()
        switch field {
        case "sampleRate": c.sampleRate = .nan
        case "taskDuration": c.taskDuration = 0
        case "tempoRange": c.tempoRange = 0...1
        case "snrRange": c.snrRange = 0...Double.infinity
        case "pinkNoiseFraction": c.pinkNoiseFraction = 1.5
        case "humLevelDB": c.humLevelDB = .nan
        case "silentTapProbability": c.silentTapProbability = -0.1
        case "latencyMean": c.latencyMean = 0.001
        case "latencySD": c.latencySD = 0.001
        case "bufferFrames": c.bufferFrames = 0
        case "peakLimit": c.peakLimit = 1.2
        default: break
        }
        return c
    }

    @Test("validation names the offending field", arguments: [
        "sampleRate", "taskDuration", "tempoRange", "snrRange", "pinkNoiseFraction", "humLevelDB",
        "silentTapProbability", "latencyMean", "latencySD", "bufferFrames", "peakLimit",
    ])
    func validation(field: String) {
        let c = Self.broken(field)
        #expect(throws: SimulationConfigurationError.self) { try c.validate() }
        do {
            try c.validate()
        } catch {
            #expect(error.field == field)
            #expect(error.description.hasPrefix(field))
        }
    }
}
