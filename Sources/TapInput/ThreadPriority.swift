#if canImport(Glibc)
import Glibc
#endif

/// Asks for real-time (`SCHED_FIFO`) scheduling of the calling thread at a low real-time
/// priority, below JACK's audio threads, so that a tap reader wakes at once when a key or an
/// input event arrives even on a busy machine. Needs the privilege (root, or an `rtprio` limit
/// as audio users usually have); without it the thread keeps normal scheduling. Returns
/// whether it worked.
@discardableResult
public func raiseToRealTimePriority(_ priority: Int32 = 10) -> Bool {
    var parameters = sched_param()
    parameters.sched_priority = priority
    return pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters) == 0
}
