/// Which channel of a multi-channel file becomes the mono signal that is analysed.
public enum ChannelSelection: Sendable, Equatable, CustomStringConvertible {
    /// The average of all channels. Tap-It wrote the microphone on both channels, so the
    /// mix equals either channel there.
    case mix
    /// One channel, 0-based.
    case channel(Int)

    /// `mix`, or the channel's 1-based number as the command line takes it.
    public var description: String {
        switch self {
        case .mix: return "mix"
        case .channel(let index): return "channel \(index + 1)"
        }
    }

    /// Reduces `frames` interleaved frames of `channels` channels to mono, into `output`.
    @inlinable
    func downmix(_ interleaved: UnsafePointer<Float>, frames: Int, channels: Int,
                 into output: UnsafeMutablePointer<Float>) {
        switch self {
        case .channel(let index):
            for frame in 0..<frames { output[frame] = interleaved[frame * channels + index] }
        case .mix where channels == 1:
            output.update(from: interleaved, count: frames)
        case .mix where channels == 2:
            // Stereo, the usual case, in a loop the compiler vectorises (the general loop's
            // inner loop over channels keeps it scalar). The same operations in the same
            // order: the sum starts from 0 there too, which turns a pair of −0 into +0.
            for frame in 0..<frames {
                output[frame] = (0 + interleaved[2 &* frame] + interleaved[2 &* frame &+ 1]) * 0.5
            }
        case .mix:
            let scale = 1 / Float(channels)
            for frame in 0..<frames {
                var sum: Float = 0
                let base = frame * channels
                for channel in 0..<channels { sum += interleaved[base + channel] }
                output[frame] = sum * scale
            }
        }
    }
}
