import ArgumentParser
import Foundation
import TapAudio
import TapKit

/// `tapkit resample`: converts an audio file to another sample rate (stimuli for a server at
/// another rate, or recordings for a tool that wants one rate).
struct ResampleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resample",
        abstract: "Convert an audio file to another sample rate, every channel, with exact timing.",
        discussion: """
            Band-limited conversion (Kaiser-windowed sinc): a sound at time t \
            in the input is at time t in the output, and N input frames become \
            round(N × rate / input rate) output frames. The output format follows the output's \
            extension (wav: 16-bit, or 32-bit float with --float; flac; aiff; ogg). The output \
            is written to a temporary file and renamed, so a failure never leaves half a file.
            """)

    enum Quality: String, ExpressibleByArgument, CaseIterable {
        case fast, standard, high
        var preset: Resampler.Quality {
            switch self {
            case .fast: return .fast
            case .standard: return .standard
            case .high: return .high
            }
        }
    }

    @Argument(help: "The audio file to convert.")
    var input: String

    @Option(name: .shortAndLong, help: "The converted file.")
    var output: String

    @Option(help: "The output's sample rate (frames per second).")
    var rate: Int

    @Option(help: "fast (80 dB stopband), standard (100 dB) or high (120 dB).")
    var quality = Quality.standard

    @Flag(help: "Write 32-bit float WAV (keeps the converter's full precision).")
    var float = false

    @Flag(help: "Replace the output file if it exists.")
    var overwrite = false

    func validate() throws {
        guard (1...768_000).contains(rate) else { throw ValidationError("--rate must be between 1 and 768000") }
        guard AudioFileFormat(pathExtension: output) != nil else {
            throw ValidationError("\(output): unknown output format; use .wav, .flac, .aiff or .ogg")
        }
        guard !float || AudioFileFormat(pathExtension: output) == .wav16 else {
            throw ValidationError("--float needs a .wav output")
        }
    }

    func run() throws {
        var files = AtomicOutput(overwrite: overwrite, inputs: [input])
        // SIGINT, SIGTERM and SIGHUP remove the temporary and end with status 1.
        let interruption = PendingTemporaries.shared.removeOnInterruption(outputs: [output])
        defer { interruption.cancel() }
        do {
            let temporary = try files.temporaryPath(for: output)
            let channels = try AudioFileReader(path: input).info.channelCount
            let reader = try ConvertingFileReader(path: input, channels: (0..<channels).map { .channel($0) },
                                                  outputRate: rate, quality: quality.preset)
            let format = float ? .wavFloat : AudioFileFormat(pathExtension: output)!
            let writer = try AudioFileWriter(path: temporary, format: format, sampleRate: Double(rate), channelCount: channels,
                                             expectedFrames: reader.frameCount)
            var block = [Float](repeating: 0, count: 8_192 * channels)
            while true {
                let frames = try block.withUnsafeMutableBufferPointer { buffer throws(AudioError) in
                    try reader.read(into: buffer.baseAddress!, maximumFrames: 8_192)
                }
                if frames == 0 { break }
                try block.withUnsafeBufferPointer { buffer throws(AudioError) in
                    try writer.write(interleaved: UnsafeBufferPointer(rebasing: buffer[0..<frames * channels]))
                }
            }
            try writer.close()
            try PendingTemporaries.shared.committing { try files.commit() }
        } catch {
            files.discard()
            printError("error: " + PendingTemporaries.shared.message(for: error, outputs: [output]))
            throw ExitCode(1)
        }
    }
}
