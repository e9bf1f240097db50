import CFFTW
import Foundation

/// FFTW's planner keeps global state: creating and destroying plans must never run on two
/// threads at once (FFTW manual, "Thread safety"). Executing distinct plans concurrently is
/// safe, so only `init` and `deinit` of ``RealFFT`` take this lock.
private let plannerLock = NSLock()

/// A real-to-complex discrete Fourier transform of one fixed size, in single precision (FFTW).
///
/// The transform works in place on two buffers the instance owns: write a real signal into
/// ``signal`` and call ``forward()`` to get its spectrum in ``spectrum``; write a spectrum there
/// and call ``inverse()`` to get the signal back. The spectrum holds bins 0 … `count`/2
/// (the rest follow by conjugate symmetry), interleaved: real part at `2k`, imaginary part at
/// `2k + 1`.
///
/// `forward` computes X[k] = Σₙ x[n]·e^(−2πi·kn/N); `inverse` computes
/// x[n] = (1/N)·Σₖ X[k]·e^(+2πi·kn/N), so `inverse` undoes `forward`.
///
/// One instance per thread: its buffers are its own, so distinct instances may run on
/// different threads at the same time.
public final class RealFFT {
    /// The transform length N (at least 2, even).
    public let count: Int
    /// The real signal: `count` samples.
    public let signal: UnsafeMutableBufferPointer<Float>
    /// The spectrum: `count`/2 + 1 complex bins as `count` + 2 interleaved floats.
    public let spectrum: UnsafeMutableBufferPointer<Float>
    private let forwardPlan: fftwf_plan
    private let inversePlan: fftwf_plan

    /// Plans a transform of `count` points (even; FFTW is fastest for products of small primes,
    /// powers of two best of all).
    public init(count: Int) {
        precondition(count >= 2 && count % 2 == 0, "RealFFT needs an even length of at least 2")
        self.count = count
        // fftwf_malloc aligns for SIMD; the planner is told nothing about the data
        // (FFTW_ESTIMATE), so planning is quick and leaves the buffers alone.
        let signalBase = fftwf_alloc_real(count)!
        let spectrumBase = fftwf_alloc_complex(count / 2 + 1)!
        signal = UnsafeMutableBufferPointer(start: signalBase, count: count)
        signal.initialize(repeating: 0)
        let spectrumFloats = UnsafeMutableRawPointer(spectrumBase).bindMemory(to: Float.self, capacity: count + 2)
        spectrum = UnsafeMutableBufferPointer(start: spectrumFloats, count: count + 2)
        spectrum.initialize(repeating: 0)
        (forwardPlan, inversePlan) = plannerLock.withLock {
            // FFTW_PRESERVE_INPUT on the inverse too: a complex-to-real transform otherwise may
            // overwrite the spectrum, which callers reuse.
            let flags = UInt32(FFTW_ESTIMATE) | UInt32(FFTW_PRESERVE_INPUT)
            let forward = fftwf_plan_dft_r2c_1d(Int32(count), signalBase, spectrumBase, flags)!
            let inverse = fftwf_plan_dft_c2r_1d(Int32(count), spectrumBase, signalBase, flags)!
            return (forward, inverse)
        }
    }

    deinit {
        plannerLock.withLock {
            fftwf_destroy_plan(forwardPlan)
            fftwf_destroy_plan(inversePlan)
        }
        fftwf_free(signal.baseAddress)
        fftwf_free(spectrum.baseAddress)
    }

    /// The periodic Hann window of ``count`` points, sin²(πn/N), computed on first use: what
    /// both the stimulus path's blocks and the onsets' spectra are windowed with.
    public private(set) lazy var hannWindow: [Float] = (0..<count).map { index in
        Float(pow(sin(Double.pi * Double(index) / Double(count)), 2))
    }

    /// A transform of `count` points that belongs to the calling thread: made on the thread's
    /// first call for that size and kept in its thread dictionary, so code that runs on many
    /// threads (tasks analysed in parallel) plans once per thread, not once per use, and no
    /// two threads share buffers.
    static func perThread(count: Int) -> RealFFT {
        let key = "TapOnsets.RealFFT.\(count)"
        let dictionary = Thread.current.threadDictionary
        if let fft = dictionary[key] as? RealFFT { return fft }
        let fft = RealFFT(count: count)
        dictionary[key] = fft
        return fft
    }

    /// ``signal`` → ``spectrum`` (unscaled). ``signal`` is left as it was.
    public func forward() {
        fftwf_execute(forwardPlan)
    }

    /// ``spectrum`` → ``signal``, scaled by 1/N so that it undoes ``forward()``. ``spectrum`` is
    /// left as it was. The imaginary parts of bins 0 and N/2 are ignored.
    public func inverse() {
        fftwf_execute(inversePlan)
        let scale = 1 / Float(count)
        for index in 0..<count { signal[index] *= scale }
    }
}
