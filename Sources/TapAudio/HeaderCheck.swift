import CSndFile
import Foundation

/// Plausibility checks on what libsndfile read from a header, so that a few corrupt header
/// bytes give a clear refusal instead of garbage results or gigabytes of buffers sized from a
/// rate of 2 GHz or 1024 channels.
enum HeaderCheck {
    /// Sample rates a recording can have.
    static let sampleRates = 8_000...384_000
    /// Channel counts a recording can have.
    static let channelCounts = 1...32

    /// Why the header cannot describe a recording, or nil.
    static func implausibility(_ info: SF_INFO, log: String) -> String? {
        if !sampleRates.contains(Int(info.samplerate)) {
            return "sample rate \(info.samplerate) Hz is outside 8–384 kHz"
        }
        if !channelCounts.contains(Int(info.channels)) {
            return "\(info.channels) channels, more than the 32 a recording may have"
        }
        let fields = logFields(log)
        if let width = fields["Bit Width"].flatMap({ Int($0) }), isWaveLike(info), ![8, 16, 24, 32, 64].contains(width) {
            return "a sample width of \(width) bits (WAV stores 8, 16, 24, 32 or 64)"
        }
        if let dataEnd = unknownChunkPosition(log), let length = fields["Length"].flatMap({ Int($0) }) {
            // After the data chunk libsndfile found bytes that are no chunk: the header's data
            // size is smaller than the audio in the file. A tenth of a second of frames (or
            // more) left over cannot be padding.
            let bytesPerSecond = Int(info.samplerate) * Int(info.channels) * bytesPerSample(info)
            if length - dataEnd >= bytesPerSecond / 10 {
                return "the data size covers \(dataEnd) of the file's \(length) bytes; the rest is not a chunk"
            }
        }
        return nil
    }

    /// Whether `frames` is a guess (MPEG streams), not a count.
    static func frameCountIsEstimate(_ info: SF_INFO) -> Bool {
        Int(info.format) & SF_FORMAT_TYPEMASK == SF_FORMAT_MPEG
    }

    private static func isWaveLike(_ info: SF_INFO) -> Bool {
        [SF_FORMAT_WAV, SF_FORMAT_WAVEX, SF_FORMAT_RF64, SF_FORMAT_W64].contains(Int(info.format) & SF_FORMAT_TYPEMASK)
    }

    private static func bytesPerSample(_ info: SF_INFO) -> Int {
        switch Int(info.format) & SF_FORMAT_SUBMASK {
        case SF_FORMAT_PCM_S8, SF_FORMAT_PCM_U8, SF_FORMAT_ULAW, SF_FORMAT_ALAW: return 1
        case SF_FORMAT_PCM_16: return 2
        case SF_FORMAT_PCM_24: return 3
        case SF_FORMAT_DOUBLE: return 8
        default: return 4
        }
    }

    /// `Name : value` lines of libsndfile's log, first occurrence of each name.
    private static func logFields(_ log: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in log.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let name = parts[0].trimmingCharacters(in: .whitespaces), value = parts[1].trimmingCharacters(in: .whitespaces)
            if fields[name] == nil { fields[name] = value }
        }
        return fields
    }

    /// The byte position of "*** Unknown chunk marker (…) at position N", if libsndfile logged one.
    private static func unknownChunkPosition(_ log: String) -> Int? {
        for line in log.split(separator: "\n") where line.contains("Unknown chunk marker") {
            if let range = line.range(of: "at position ") {
                return Int(line[range.upperBound...].prefix { $0.isNumber })
            }
        }
        return nil
    }
}
