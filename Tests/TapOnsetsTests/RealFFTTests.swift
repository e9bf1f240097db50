import Foundation
import Testing
@testable import TapOnsets

@Suite struct RealFFTTests {
    /// X[k] = Σ x[n] e^(−2πi kn/N), in double precision.
    func directDFT(_ x: [Float]) -> [(re: Double, im: Double)] {
        let n = x.count
        return (0...(n / 2)).map { k in
            var re = 0.0, im = 0.0
            for (index, value) in x.enumerated() {
                let angle = -2 * Double.pi * Double(k * index % n) / Double(n)
                re += Double(value) * cos(angle)
                im += Double(value) * sin(angle)
            }
            return (re, im)
        }
    }

    @Test(arguments: [2, 8, 30, 256, 1_000])
    func forwardMatchesTheDirectDFT(count: Int) {
        var random = TestRandom(state: UInt64(count))
        let x = (0..<count).map { _ in Float(random.gaussian()) }
        let fft = RealFFT(count: count)
        for index in x.indices { fft.signal[index] = x[index] }
        fft.forward()
        let expected = directDFT(x)
        // Single precision: errors grow like ε·√N·log N relative to the spectrum's scale.
        let scale = sqrt(Double(count))
        for (k, bin) in expected.enumerated() {
            #expect(abs(Double(fft.spectrum[2 * k]) - bin.re) <= 1e-5 * scale * 10, "bin \(k) re")
            #expect(abs(Double(fft.spectrum[2 * k + 1]) - bin.im) <= 1e-5 * scale * 10, "bin \(k) im")
        }
        // The input is left as it was.
        #expect((0..<count).allSatisfy { fft.signal[$0] == x[$0] })
    }

    @Test(arguments: [2, 64, 30, 4_096])
    func inverseUndoesForward(count: Int) {
        var random = TestRandom(state: 9 + UInt64(count))
        let x = (0..<count).map { _ in Float(random.gaussian()) }
        let fft = RealFFT(count: count)
        for index in x.indices { fft.signal[index] = x[index] }
        fft.forward()
        for index in 0..<count { fft.signal[index] = .nan }
        fft.inverse()
        let worst = (0..<count).map { abs(fft.signal[$0] - x[$0]) }.max()!
        #expect(worst <= 1e-5)
        // The spectrum survives the inverse (it is reused for the next block).
        fft.inverse()
        #expect((0..<count).map { abs(fft.signal[$0] - x[$0]) }.max()! <= 1e-5)
    }

    @Test func inverseOfADirectSpectrum() {
        // A cosine at bin 3 and a sine at bin 5 of a 16-point transform.
        let fft = RealFFT(count: 16)
        for index in 0..<fft.spectrum.count { fft.spectrum[index] = 0 }
        fft.spectrum[2 * 3] = 8        // 16/2 · cos
        fft.spectrum[2 * 5 + 1] = -8   // −16/2 · i · sin
        fft.inverse()
        for n in 0..<16 {
            let expected = cos(2 * Double.pi * 3 * Double(n) / 16) + sin(2 * Double.pi * 5 * Double(n) / 16)
            #expect(abs(Double(fft.signal[n]) - expected) < 1e-5)
        }
    }

    @Test func plansOnManyThreadsAtOnce() async {
        // The planner is serialised; execution of distinct plans runs in parallel.
        let results = await withTaskGroup(of: Bool.self) { group in
            for task in 0..<16 {
                group.addTask {
                    let count = 64 << (task % 5)
                    let fft = RealFFT(count: count)
                    for index in 0..<count { fft.signal[index] = Float(index % 7) - 3 }
                    fft.forward()
                    fft.inverse()
                    return (0..<count).allSatisfy { abs(fft.signal[$0] - (Float($0 % 7) - 3)) < 1e-4 }
                }
            }
            var all = true
            for await result in group { all = all && result }
            return all
        }
        #expect(results)
    }
}
