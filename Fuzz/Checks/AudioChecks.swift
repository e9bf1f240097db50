import Foundation
import TapAudio

extension FuzzChecks {
    /// Where the audio target writes its input: one file per process, reused.
    nonisolated(unsafe) static var audioPath: String = {
        NSTemporaryDirectory() + "/tapkit-fuzz-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).wav"
    }()

    /// The bytes as a file, read through `AudioFileReader` and `forEachBlock`, and whole with
    /// `Signal(contentsOf:)`: an opened file has a plausible header (8–384 kHz, 1–32 channels,
    /// frames > 0), no block is larger than asked for, every sample delivered is finite and
    /// within ±`largestSample`, a file read to its end delivered exactly the frames the header
    /// announces, and the whole-file read succeeds exactly when the block read does, with the
    /// same samples.
    static func audio(_ bytes: UnsafeRawBufferPointer) -> String? {
        let path = audioPath
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return "cannot write \(path)" }
        defer { unlink(path) }
        return readAudio(path)
    }

    /// The audio checks on a file.
    static func readAudio(_ path: String) -> String? {
        var blocks: [Float]?
        if let problem = readBlocks(path, into: &blocks) { return problem }
        let whole = try? Signal(contentsOf: path)
        switch (blocks, whole) {
        case (nil, nil): return nil
        case (_?, nil): return "Signal(contentsOf:) refused a file read to its end in blocks"
        case (nil, let signal?): return "Signal(contentsOf:) read \(signal.samples.count) frames of a file the block reader refused"
        case (let samples?, let signal?):
            if signal.samples.count != samples.count { return "Signal(contentsOf:) read \(signal.samples.count) frames, the blocks \(samples.count)" }
            if let frame = signal.samples.indices.first(where: { signal.samples[$0] != samples[$0] }) {
                return "Signal(contentsOf:) differs from the blocks at frame \(frame)"
            }
            return nil
        }
    }

    /// Reads `path` block by block; `samples` is every sample when the file was read to its end.
    private static func readBlocks(_ path: String, into samples: inout [Float]?) -> String? {
        guard let reader = try? AudioFileReader(path: path) else { return nil }
        let info = reader.info
        if !(8_000...384_000).contains(info.sampleRate) { return "sample rate \(info.sampleRate)" }
        if !(1...32).contains(info.channelCount) { return "\(info.channelCount) channels" }
        if info.frameCount <= 0 { return "\(info.frameCount) frames" }
        let blockSize = 65_536
        var delivered: [Float] = []
        var problem: String?
        do {
            try reader.forEachBlock(blockSize: blockSize) { block in
                guard problem == nil else { return }
                if block.isEmpty || block.count > blockSize { problem = "a block of \(block.count) frames" }
                if let bad = block.firstIndex(where: { !$0.isFinite || abs($0) > AudioFileReader.largestSample }) {
                    problem = "sample \(block[bad]) at frame \(delivered.count + bad)"
                }
                delivered.append(contentsOf: block)
            }
        } catch {
            return problem
        }
        if let problem { return problem }
        if delivered.count != info.frameCount { return "\(delivered.count) frames delivered, \(info.frameCount) announced" }
        if delivered.count != reader.framesRead { return "\(delivered.count) frames delivered, the reader counts \(reader.framesRead)" }
        samples = delivered
        return nil
    }
}
