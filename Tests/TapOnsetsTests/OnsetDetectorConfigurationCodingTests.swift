import Foundation
import Testing
@testable import TapOnsets

/// A saved detector configuration decodes whatever fields it lacks, and round-trips.
@Suite struct OnsetDetectorConfigurationCodingTests {
    @Test func everyFieldHasItsKey() {
        let fields = Mirror(reflecting: OnsetDetectorConfiguration()).children.compactMap(\.label)
        #expect(fields == OnsetDetectorConfiguration.CodingKeys.allCases.map(\.rawValue))
    }

    @Test func roundTripsEveryField() throws {
        var configuration = OnsetDetectorConfiguration.conservative
        configuration.highPassCutoff = 1000
        configuration.minimumTapScore = 0.7
        configuration.assumesDensePercussion = true
        configuration.fillsEmptyBeats = false
        configuration.settleDuration = 0.05
        let data = try JSONEncoder().encode(configuration)
        #expect(try JSONDecoder().decode(OnsetDetectorConfiguration.self, from: data) == configuration)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == Set(OnsetDetectorConfiguration.CodingKeys.allCases.map(\.rawValue)))
    }

    @Test func missingKeysKeepTheirDefaults() throws {
        #expect(try JSONDecoder().decode(OnsetDetectorConfiguration.self, from: Data("{}".utf8)) == .standard)
        // A configuration saved before the dense-percussion and empty-beat switches existed.
        let old = #"{"thresholdDB": 10, "releaseDB": 5, "retriggerRiseDB": 9}"#
        let decoded = try JSONDecoder().decode(OnsetDetectorConfiguration.self, from: Data(old.utf8))
        #expect(decoded == .conservative)
        #expect(decoded.assumesDensePercussion == false && decoded.fillsEmptyBeats)
    }

    @Test func aValueOfTheWrongTypeIsAnError() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(OnsetDetectorConfiguration.self, from: Data(#"{"thresholdDB": "six"}"#.utf8))
        }
    }
}
