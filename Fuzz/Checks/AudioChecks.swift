import Foundation
import TapAudio

extension FuzzChecks {
    /// Where the audio target writes its input: one file per process, reused.
    nonisolated(unsafe) static var audioPath: String = {
        NSTemporaryDirectory() + "/tapkit-fuzz-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).wav"
    }()

    /// The bytes as a file, read through `AudioFileReader` and `forEachBlock`: an opened file
    /// has a plausible header (8–384 kHz, 1–32 channels, frames > 0), no block is larger than
    /// asked for, every sample delivered is finite and within ±`largestSample`, and a file read
    /// to its end delivered exactly the frames the header announces.
    static func audio(_ bytes: UnsafeRawBufferPointer) -> String? {
        let path = audioPath
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return "cannot write \(path)" }
        defer { unlink(path) }
        return readAudio(path)
    }

    /// The audio checks on a file.
    static func readAudio(_ path: String) -> String? {
        guard let reader = try? AudioFileReader(path: path) else { return nil }
        let info = reader.info
        if !(8_000...384_000).contains(info.sampleRate) { return "sample rate \(info.sampleRate)" }
        if !(1...32).contains(info.channelCount) { return "\(info.channelCount) channels" }
        if info.frameCount <= 0 { return "\(info.frameCount) frames" }
        let blockSize = 65_536
        var delivered = 0
        var problem: String?
        do {
            try reader.forEachBlock(blockSize: blockSize) { block in
                guard problem == nil else { return }
                if block.isEmpty || block.count > blockSize { problem = "a block of \(block.count) frames" }
                if let bad = block.firstIndex(where: { !$0.isFinite || abs($0) > AudioFileReader.largestSample }) {
                    problem = "sample \(block[bad]) at frame \(delivered + bad)"
                }
                delivered += block.count
            }
        } catch {
            return problem
        }
        if let problem { return problem }
        if delivered != info.frameCount { return "\(delivered) frames delivered, \(info.frameCount) announced" }
        if delivered != reader.framesRead { return "\(delivered) frames delivered, the reader counts \(reader.framesRead)" }
        return nil
    }
}
