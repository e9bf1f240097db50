import CSndFile
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Streams an audio file block by block as mono samples, so memory stays constant in the
/// file's length. Reads every format libsndfile knows (WAV 8/16/24/32-bit and float, FLAC,
/// AIFF, OGG/Vorbis, CAF, W64, RF64, …).
///
/// Not thread-safe: one reader per thread. The file is closed when the reader is released.
public final class AudioFileReader {
    /// The file being read.
    public let path: String
    /// Its header.
    public let info: AudioFileInfo
    /// The channel that becomes the mono output.
    public let channel: ChannelSelection

    private let handle: OpaquePointer
    private var interleaved: [Float] = []
    /// Whether the file holds 16-bit PCM in a container libsndfile reads through its plain PCM
    /// code: then its integers are read and converted here (``integers``).
    private let readsIntegers: Bool
    private var integers: [Int16] = []
    /// Frames delivered so far.
    public private(set) var framesRead = 0

    /// Opens `path` for reading.
    /// - Throws: ``AudioError/cannotOpen(path:reason:)``, ``AudioError/empty(path:)`` or
    ///   ``AudioError/noSuchChannel(path:channel:channelCount:)``.
    public init(path: String, channel: ChannelSelection = .mix) throws(AudioError) {
        if let problem = FileKind.problem(readingFileAt: path) { throw .cannotOpen(path: path, reason: problem) }
        var sfInfo = SF_INFO()
        guard let handle = sf_open(path, Int32(SFM_READ), &sfInfo) else {
            throw .cannotOpen(path: path, reason: Self.openFailureReason(path: path))
        }
        if let reason = HeaderCheck.implausibility(sfInfo, log: Self.log(handle)) {
            sf_close(handle)
            throw .implausibleFormat(path: path, reason: reason)
        }
        var info = AudioFileInfo(frameCount: Int(sfInfo.frames), sampleRate: Double(sfInfo.samplerate),
                                 channelCount: Int(sfInfo.channels), formatCode: sfInfo.format)
        if HeaderCheck.frameCountIsEstimate(sfInfo) {
            // An MPEG stream's frame count is a guess from its first frames (a VBR file
            // without a Xing header reads as a fraction of its length): count by decoding.
            info.frameCount = Self.decodedFrameCount(handle, channels: info.channelCount)
        }
        if case .channel(let index) = channel, !(0..<info.channelCount).contains(index) {
            sf_close(handle)
            throw .noSuchChannel(path: path, channel: index, channelCount: info.channelCount)
        }
        guard info.frameCount > 0, info.sampleRate > 0 else {
            sf_close(handle)
            throw .empty(path: path)
        }
        if let announced = Self.announcedFrames(log: Self.log(handle), decodableFrames: info.frameCount) {
            sf_close(handle)
            throw .truncated(path: path, expectedFrames: announced, readFrames: info.frameCount)
        }
        self.path = path
        self.info = info
        self.channel = channel
        self.handle = handle
        readsIntegers = Int(info.formatCode) & SF_FORMAT_SUBMASK == SF_FORMAT_PCM_16
            && Self.plainPCMContainers.contains(Int(info.formatCode) & SF_FORMAT_TYPEMASK)
    }

    /// Containers whose 16-bit samples libsndfile converts to float as v / 32 768 in its plain
    /// PCM code (normalised reading, the default).
    private static let plainPCMContainers: Set<Int> = [SF_FORMAT_WAV, SF_FORMAT_WAVEX, SF_FORMAT_W64, SF_FORMAT_RF64,
                                                       SF_FORMAT_AIFF, SF_FORMAT_CAF, SF_FORMAT_AU]

    deinit { sf_close(handle) }

    /// Reads up to `output.count` frames as mono samples into `output`.
    /// - Returns: the number of frames read; 0 at the end of the file.
    /// - Throws: ``AudioError/truncated(path:expectedFrames:readFrames:)`` when the file ends
    ///   before the frame count its header announces, ``AudioError/readFailed(path:reason:)`` on
    ///   a decoding error.
    public func read(into output: UnsafeMutableBufferPointer<Float>) throws(AudioError) -> Int {
        guard let base = output.baseAddress, output.count > 0 else { return 0 }
        let channels = info.channelCount
        let wanted = min(output.count, info.frameCount - framesRead)
        guard wanted > 0 else { return 0 }
        if interleaved.count < wanted * channels {
            interleaved = [Float](repeating: 0, count: wanted * channels)
        }
        let got: Int
        if readsIntegers {
            // libsndfile's own conversion of 16-bit samples is a scalar loop that costs more
            // than the rest of reading; v / 32 768 is exact in Float, so converting here, in a
            // loop the compiler vectorises, gives the very same samples.
            if integers.count < wanted * channels {
                integers = [Int16](repeating: 0, count: wanted * channels)
            }
            got = integers.withUnsafeMutableBufferPointer { buffer in
                Int(sf_readf_short(handle, buffer.baseAddress, sf_count_t(wanted)))
            }
            integers.withUnsafeBufferPointer { source in
                interleaved.withUnsafeMutableBufferPointer { target in
                    for index in 0..<(max(got, 0) * channels) { target[index] = Float(source[index]) * (1 / 32_768) }
                }
            }
        } else {
            got = interleaved.withUnsafeMutableBufferPointer { buffer in
                Int(sf_readf_float(handle, buffer.baseAddress, sf_count_t(wanted)))
            }
        }
        if sf_error(handle) != 0 {
            throw .readFailed(path: path, reason: String(cString: sf_strerror(handle)))
        }
        if got == 0 {
            throw .truncated(path: path, expectedFrames: info.frameCount, readFrames: framesRead)
        }
        interleaved.withUnsafeBufferPointer { buffer in
            channel.downmix(buffer.baseAddress!, frames: got, channels: channels, into: base)
        }
        // `!(|x| <= limit)` is also true for NaN. The first bad sample is sought only if there
        // is one. Samples converted from 16-bit integers lie within ±1 and need no check.
        if !readsIntegers, !Self.allWithinLargestSample(UnsafeBufferPointer(start: base, count: got)), let bad = (0..<got).first(where: { !(abs(base[$0]) <= Self.largestSample) }) {
            throw .invalidSample(path: path, frame: framesRead + bad, sampleRate: info.sampleRate, value: base[bad])
        }
        framesRead += got
        return got
    }

    /// Whether every sample's magnitude is at most ``largestSample`` (false for NaN): in a loop
    /// without an early exit, which the compiler vectorises (flags or-ed in 32-bit lanes,
    /// eight samples a step) when it compiles the loop on its own; inlined into `read`, it
    /// made a branch of the flag and left the loop scalar.
    @inline(never)
    private static func allWithinLargestSample(_ samples: UnsafeBufferPointer<Float>) -> Bool {
        var outside: UInt32 = 0
        for sample in samples { outside |= abs(sample) <= largestSample ? 0 : 1 }
        return outside == 0
    }

    /// The largest sample magnitude a file may hold: 120 dB above full scale, room for float
    /// files written on a 16-bit scale (±32768) while refusing the overflowing values of a
    /// corrupt one.
    public static let largestSample: Float = 1_000_000

    /// Moves to `frame` (0-based); the next ``read(into:)`` starts there.
    public func seek(toFrame frame: Int) throws(AudioError) {
        let target = min(max(frame, 0), info.frameCount)
        if sf_seek(handle, sf_count_t(target), SEEK_SET) < 0 {
            throw .readFailed(path: path, reason: "cannot seek to frame \(target): " + String(cString: sf_strerror(handle)))
        }
        framesRead = target
    }

    /// Calls `body` with consecutive blocks of at most `blockSize` mono frames until the end
    /// of the file. The buffer is reused: copy what must outlive the call.
    public func forEachBlock(blockSize: Int = 65_536,
                             _ body: (UnsafeBufferPointer<Float>) throws -> Void) throws {
        var block = [Float](repeating: 0, count: blockSize)
        try block.withUnsafeMutableBufferPointer { buffer in
            while true {
                let count = try read(into: buffer)
                if count == 0 { break }
                try body(UnsafeBufferPointer(rebasing: buffer[0..<count]))
            }
        }
    }

    /// Reads the rest of the file into a ``Signal``.
    ///
    /// Memory grows with the frames actually decoded, never with the header's frame count: a
    /// corrupt 300-byte FLAC may announce 2³⁶ frames, and is reported as truncated.
    public func readAll() throws(AudioError) -> Signal {
        let announced = info.frameCount - framesRead
        var samples: [Float] = []
        samples.reserveCapacity(min(announced, Self.initialCapacity))
        var block = [Float](repeating: 0, count: max(1, min(announced, 65_536)))
        while true {
            let got = try block.withUnsafeMutableBufferPointer { buffer throws(AudioError) in try read(into: buffer) }
            if got == 0 { break }
            samples.append(contentsOf: block[0..<got])
        }
        return Signal(samples: samples, sampleRate: info.sampleRate)
    }

    /// Frames ``readAll()`` reserves before it has decoded any: 2²² (16 MB, 95 s at 44.1 kHz).
    static let initialCapacity = 1 << 22

    /// The frame count a truncated file's header announces, or nil when the file is whole.
    ///
    /// libsndfile opens a WAV or AIFF file whose data chunk is shorter than its header says
    /// and quietly plays what is there; its log then holds a line such as
    /// `data : 705600 (should be 235170)`. A header size of 0 or 0xFFFFFFFF marks a file
    /// written as a stream with its size never filled in, which is not truncation.
    private static func announcedFrames(log text: String, decodableFrames: Int) -> Int? {
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingPrefix(while: \.isWhitespace)
            guard trimmed.hasPrefix("data") || trimmed.hasPrefix("SSND"), line.contains("(should be") else { continue }
            let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            guard numbers.count >= 2 else { continue }
            let (header, actual) = (numbers[numbers.count - 2], numbers[numbers.count - 1])
            guard header > actual, actual > 0, header != 0, header < 0xFFFF_FFF0 else { continue }
            return Int((Double(decodableFrames) * Double(header) / Double(actual)).rounded())
        }
        return nil
    }

    /// libsndfile's log of how it parsed the header.
    private static func log(_ handle: OpaquePointer) -> String {
        var log = [CChar](repeating: 0, count: 16_384)
        sf_command(handle, Int32(SFC_GET_LOG_INFO), &log, Int32(log.count))
        return String(decoding: log.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Decodes the whole stream once to count its frames, then goes back to the start.
    private static func decodedFrameCount(_ handle: OpaquePointer, channels: Int) -> Int {
        var scratch = [Float](repeating: 0, count: 4_096 * channels)
        var total = 0
        while true {
            let got = scratch.withUnsafeMutableBufferPointer { Int(sf_readf_float(handle, $0.baseAddress, 4_096)) }
            if got <= 0 { break }
            total += got
        }
        sf_seek(handle, 0, SEEK_SET)
        return total
    }

    /// libsndfile's message for a failed open, made specific where the file system can tell more.
    private static func openFailureReason(path: String) -> String {
        var status = stat()
        if stat(path, &status) == 0 && status.st_size == 0 { return "the file is empty (0 bytes)" }
        return String(cString: sf_strerror(nil))
    }
}

extension Signal {
    /// Reads a whole file into memory as a mono signal.
    public init(contentsOf path: String, channel: ChannelSelection = .mix) throws(AudioError) {
        self = try AudioFileReader(path: path, channel: channel).readAll()
    }
}
