import Foundation
import Testing
import TapAudio

@Suite struct SPSCRingTests {
    @Test func fillsToCapacityThenRefuses() {
        let ring = SPSCRing<Float>(minimumCapacity: 100, filler: 0)
        defer { ring.destroy() }
        #expect(ring.capacity == 128)
        let data = [Float](repeating: 1, count: 200)
        #expect(data.withUnsafeBufferPointer { ring.push($0.baseAddress!, count: 200) } == 128)
        #expect(data.withUnsafeBufferPointer { ring.push($0.baseAddress!, count: 1) } == 0)
        var out = [Float](repeating: 0, count: 50)
        #expect(out.withUnsafeMutableBufferPointer { ring.pop(into: $0.baseAddress!, maximum: 50) } == 50)
        #expect(data.withUnsafeBufferPointer { ring.push($0.baseAddress!, count: 60) } == 50)
    }

    /// A producer thread pushes a counting sequence in odd-sized chunks while the consumer pops;
    /// every sample arrives once, in order.
    @Test func concurrentProducerAndConsumerKeepOrder() async {
        let ring = SPSCRing<Float>(minimumCapacity: 1_024, filler: 0)
        defer { ring.destroy() }
        let total = 2_000_000
        let producer = Thread {
            var next = 0
            var chunk = [Float](repeating: 0, count: 97)
            while next < total {
                let count = min(97, total - next)
                for index in 0..<count { chunk[index] = Float(next + index) }
                let pushed = chunk.withUnsafeBufferPointer { ring.push($0.baseAddress!, count: count) }
                next += pushed
            }
        }
        producer.start()
        var expected = 0
        var ordered = true
        var buffer = [Float](repeating: 0, count: 300)
        while expected < total {
            let count = buffer.withUnsafeMutableBufferPointer { ring.pop(into: $0.baseAddress!, maximum: 300) }
            for index in 0..<count where buffer[index] != Float(expected + index) { ordered = false }
            expected += count
        }
        #expect(ordered)
        #expect(expected == total)
    }
}
