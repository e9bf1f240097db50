import Foundation

extension OnsetDetectorConfiguration {
    /// Every stored field, as written in JSON. The encoding is the synthesised one over these
    /// keys; a field added to the configuration needs its key here
    /// (`OnsetDetectorConfigurationCodingTests` checks the list against the fields).
    enum CodingKeys: String, CodingKey, CaseIterable {
        case highPassCutoff, hopDuration, windowDuration, noiseWindowDuration, noiseQuantile
        case absoluteFloorDB, thresholdDB, floorSpreadFactor, releaseDB, retriggerRiseDB
        case refractoryPeriod, peakConfirmDuration, startSearchDuration
        case slowestMaskReleaseDBPerSecond, minimumTapScore
        case calibratesQuietTaps, completesDensePercussion, assumesDensePercussion
        case choosesDetectionBand, fillsEmptyBeats, settleDuration
    }

    /// Decodes a configuration; every key is optional and a missing key keeps its default
    /// (``standard``'s), so a file may list only what it changes, and a configuration saved
    /// before a field was added still decodes. A key present with a value of the wrong type is
    /// an error.
    public init(from decoder: any Decoder) throws {
        self.init()
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func value<T: Decodable>(_ key: CodingKeys, _ current: T) throws -> T {
            try c.decodeIfPresent(T.self, forKey: key) ?? current
        }
        highPassCutoff = try value(.highPassCutoff, highPassCutoff)
        hopDuration = try value(.hopDuration, hopDuration)
        windowDuration = try value(.windowDuration, windowDuration)
        noiseWindowDuration = try value(.noiseWindowDuration, noiseWindowDuration)
        noiseQuantile = try value(.noiseQuantile, noiseQuantile)
        absoluteFloorDB = try value(.absoluteFloorDB, absoluteFloorDB)
        thresholdDB = try value(.thresholdDB, thresholdDB)
        floorSpreadFactor = try value(.floorSpreadFactor, floorSpreadFactor)
        releaseDB = try value(.releaseDB, releaseDB)
        retriggerRiseDB = try value(.retriggerRiseDB, retriggerRiseDB)
        refractoryPeriod = try value(.refractoryPeriod, refractoryPeriod)
        peakConfirmDuration = try value(.peakConfirmDuration, peakConfirmDuration)
        startSearchDuration = try value(.startSearchDuration, startSearchDuration)
        slowestMaskReleaseDBPerSecond = try value(.slowestMaskReleaseDBPerSecond, slowestMaskReleaseDBPerSecond)
        minimumTapScore = try value(.minimumTapScore, minimumTapScore)
        calibratesQuietTaps = try value(.calibratesQuietTaps, calibratesQuietTaps)
        completesDensePercussion = try value(.completesDensePercussion, completesDensePercussion)
        assumesDensePercussion = try value(.assumesDensePercussion, assumesDensePercussion)
        choosesDetectionBand = try value(.choosesDetectionBand, choosesDetectionBand)
        fillsEmptyBeats = try value(.fillsEmptyBeats, fillsEmptyBeats)
        settleDuration = try value(.settleDuration, settleDuration)
    }
}
