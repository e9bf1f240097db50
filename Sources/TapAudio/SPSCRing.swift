import Atomics

/// A single-producer, single-consumer ring (of samples, tap frames, or events), for handing data
/// between a real-time audio callback and another thread. Storage is allocated once; `push` and `pop` never allocate,
/// lock or block, so the producer side is safe on the real-time thread.
///
/// The producer owns `writeIndex`, the consumer `readIndex`; each publishes its index with
/// release ordering and reads the other's with acquire ordering (Lamport's classic
/// single-producer/single-consumer queue). Indices grow without wrapping; `Int` is 64 bits.
///
/// Its operations are `@inlinable`, so a real-time callback in another module gets them
/// specialised for its element type (no generic dispatch on the audio thread).
///
/// `@unchecked Sendable`: crossing threads is the point; it is safe as long as exactly one
/// thread pushes and one pops, which is how the capture engine uses it.
public struct SPSCRing<Element>: @unchecked Sendable {
    /// Elements it holds (a power of two).
    public let capacity: Int
    @usableFromInline let mask: Int
    @usableFromInline let storage: UnsafeMutablePointer<Element>
    @usableFromInline let readIndex: UnsafeAtomic<Int>
    @usableFromInline let writeIndex: UnsafeAtomic<Int>

    /// Makes a ring of at least `minimumCapacity` elements (rounded up to a power of two),
    /// initially holding `filler`.
    public init(minimumCapacity: Int, filler: Element) {
        var size = 1
        while size < minimumCapacity { size <<= 1 }
        capacity = size
        mask = size - 1
        storage = .allocate(capacity: size)
        storage.initialize(repeating: filler, count: size)
        readIndex = .create(0)
        writeIndex = .create(0)
    }

    /// Frees the storage. Neither side may use the ring afterwards.
    public func destroy() {
        storage.deinitialize(count: capacity)
        storage.deallocate()
        readIndex.destroy()
        writeIndex.destroy()
    }

    /// Producer: appends up to `count` elements; returns how many fitted.
    @inlinable public func push(_ samples: UnsafePointer<Element>, count: Int) -> Int {
        let write = writeIndex.load(ordering: .relaxed)
        let read = readIndex.load(ordering: .acquiring)
        let accepted = min(count, capacity - (write - read))
        for offset in 0..<accepted { storage[(write + offset) & mask] = samples[offset] }
        writeIndex.store(write + accepted, ordering: .releasing)
        return accepted
    }

    /// Producer: appends one element; false when the ring is full.
    @inlinable public func push(_ element: Element) -> Bool {
        let write = writeIndex.load(ordering: .relaxed)
        guard write - readIndex.load(ordering: .acquiring) < capacity else { return false }
        storage[write & mask] = element
        writeIndex.store(write + 1, ordering: .releasing)
        return true
    }

    /// Producer: how many elements fit now (at least this many, as the consumer only frees more).
    @inlinable public var writableCount: Int { capacity - (writeIndex.load(ordering: .relaxed) - readIndex.load(ordering: .acquiring)) }

    /// Consumer: how many elements are ready now (at least this many).
    @inlinable public var readableCount: Int { writeIndex.load(ordering: .acquiring) - readIndex.load(ordering: .relaxed) }

    /// Consumer: drops up to `count` elements unread; returns how many.
    @inlinable public func skip(_ count: Int) -> Int {
        let read = readIndex.load(ordering: .relaxed)
        let skipped = min(count, writeIndex.load(ordering: .acquiring) - read)
        readIndex.store(read + skipped, ordering: .releasing)
        return skipped
    }

    /// Consumer: takes up to `maximum` elements into `destination`; returns how many.
    @inlinable public func pop(into destination: UnsafeMutablePointer<Element>, maximum: Int) -> Int {
        let read = readIndex.load(ordering: .relaxed)
        let write = writeIndex.load(ordering: .acquiring)
        let available = min(maximum, write - read)
        for offset in 0..<available { destination[offset] = storage[(read + offset) & mask] }
        readIndex.store(read + available, ordering: .releasing)
        return available
    }
}
