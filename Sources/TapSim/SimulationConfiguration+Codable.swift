extension SimulationConfiguration: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case sampleRate, channels, taskDuration
        case tempoRange, firstClickTime, endMargin, leadInClicks
        case asynchronyMean, asynchronyMeanSpread, asynchronySD
        case snrRange, noiseLevelDBFS, includesBackgroundNoise, pinkNoiseFraction
        case humFrequency, humLevelDB
        case bleedLevelRange, bleedDelay
        case distractorRate, knockProbability, distractorLevelRange, distractorClearance
        case silentTapProbability, missedTouchProbability, spuriousTouchProbability
        case latencyMean, latencySD, bufferFrames, clockDriftPPM
        case peakLimit
    }

    /// Decodes a configuration; every key is optional and a missing key keeps its default, so
    /// a file may list only what it changes. An explicit `null` switches off an optional
    /// component (`humLevelDB`, `bleedLevelRange`).
    public init(from decoder: any Decoder) throws {
        self.init()
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func value<T: Decodable>(_ key: CodingKeys, _ current: T) throws -> T {
            try c.decodeIfPresent(T.self, forKey: key) ?? current
        }
        func optional<T: Decodable>(_ key: CodingKeys, _ current: T?) throws -> T? {
            guard c.contains(key) else { return current }
            return try c.decodeNil(forKey: key) ? nil : c.decode(T.self, forKey: key)
        }
        sampleRate = try value(.sampleRate, sampleRate)
        channels = try value(.channels, channels)
        taskDuration = try value(.taskDuration, taskDuration)
        tempoRange = try value(.tempoRange, tempoRange)
        firstClickTime = try value(.firstClickTime, firstClickTime)
        endMargin = try value(.endMargin, endMargin)
        leadInClicks = try value(.leadInClicks, leadInClicks)
        asynchronyMean = try value(.asynchronyMean, asynchronyMean)
        asynchronyMeanSpread = try value(.asynchronyMeanSpread, asynchronyMeanSpread)
        asynchronySD = try value(.asynchronySD, asynchronySD)
        snrRange = try value(.snrRange, snrRange)
        noiseLevelDBFS = try value(.noiseLevelDBFS, noiseLevelDBFS)
        includesBackgroundNoise = try value(.includesBackgroundNoise, includesBackgroundNoise)
        pinkNoiseFraction = try value(.pinkNoiseFraction, pinkNoiseFraction)
        humFrequency = try value(.humFrequency, humFrequency)
        humLevelDB = try optional(.humLevelDB, humLevelDB)
        bleedLevelRange = try optional(.bleedLevelRange, bleedLevelRange)
        bleedDelay = try value(.bleedDelay, bleedDelay)
        distractorRate = try value(.distractorRate, distractorRate)
        knockProbability = try value(.knockProbability, knockProbability)
        distractorLevelRange = try value(.distractorLevelRange, distractorLevelRange)
        distractorClearance = try value(.distractorClearance, distractorClearance)
        silentTapProbability = try value(.silentTapProbability, silentTapProbability)
        missedTouchProbability = try value(.missedTouchProbability, missedTouchProbability)
        spuriousTouchProbability = try value(.spuriousTouchProbability, spuriousTouchProbability)
        latencyMean = try value(.latencyMean, latencyMean)
        latencySD = try value(.latencySD, latencySD)
        bufferFrames = try value(.bufferFrames, bufferFrames)
        clockDriftPPM = try value(.clockDriftPPM, clockDriftPPM)
        peakLimit = try value(.peakLimit, peakLimit)
    }

    /// Encodes every field; switched-off optional components are written as `null` so that
    /// decoding gives back the same configuration.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(sampleRate, forKey: .sampleRate)
        try c.encode(channels, forKey: .channels)
        try c.encode(taskDuration, forKey: .taskDuration)
        try c.encode(tempoRange, forKey: .tempoRange)
        try c.encode(firstClickTime, forKey: .firstClickTime)
        try c.encode(endMargin, forKey: .endMargin)
        try c.encode(leadInClicks, forKey: .leadInClicks)
        try c.encode(asynchronyMean, forKey: .asynchronyMean)
        try c.encode(asynchronyMeanSpread, forKey: .asynchronyMeanSpread)
        try c.encode(asynchronySD, forKey: .asynchronySD)
        try c.encode(snrRange, forKey: .snrRange)
        try c.encode(noiseLevelDBFS, forKey: .noiseLevelDBFS)
        try c.encode(includesBackgroundNoise, forKey: .includesBackgroundNoise)
        try c.encode(pinkNoiseFraction, forKey: .pinkNoiseFraction)
        try c.encode(humFrequency, forKey: .humFrequency)
        try c.encode(humLevelDB, forKey: .humLevelDB)
        try c.encode(bleedLevelRange, forKey: .bleedLevelRange)
        try c.encode(bleedDelay, forKey: .bleedDelay)
        try c.encode(distractorRate, forKey: .distractorRate)
        try c.encode(knockProbability, forKey: .knockProbability)
        try c.encode(distractorLevelRange, forKey: .distractorLevelRange)
        try c.encode(distractorClearance, forKey: .distractorClearance)
        try c.encode(silentTapProbability, forKey: .silentTapProbability)
        try c.encode(missedTouchProbability, forKey: .missedTouchProbability)
        try c.encode(spuriousTouchProbability, forKey: .spuriousTouchProbability)
        try c.encode(latencyMean, forKey: .latencyMean)
        try c.encode(latencySD, forKey: .latencySD)
        try c.encode(bufferFrames, forKey: .bufferFrames)
        try c.encode(clockDriftPPM, forKey: .clockDriftPPM)
        try c.encode(peakLimit, forKey: .peakLimit)
    }
}
