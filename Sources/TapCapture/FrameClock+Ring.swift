import TapAudio
import TapInput

extension FrameClock {
    /// Takes every cycle start the audio callback logged into `ring` (it is the ring's only
    /// reader), through `scratch`, whose size sets how many are popped at a time.
    mutating func add(from ring: SPSCRing<CycleStamp>, scratch: inout [CycleStamp]) {
        while true {
            let count = scratch.withUnsafeMutableBufferPointer { ring.pop(into: $0.baseAddress!, maximum: $0.count) }
            for stamp in scratch.prefix(count) { add(stamp) }
            if count < scratch.count { break }
        }
    }
}
