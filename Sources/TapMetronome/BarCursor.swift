/// Where the live renderer stands in its click sequence: the exact start of a bar, that bar's
/// number and the next click in it.
///
/// The start is kept as whole frames plus a fraction of a frame over the settings' common
/// denominator (in `0 ..< denominator`), so the numbers stay small however long it runs: a
/// click's frame is `whole + round((fraction + offset) / denominator)`, and moving on by a bar
/// adds the bar's length and carries whole frames out of the fraction (one division per bar).
struct BarCursor {
    /// Whole frames of the bar's start (may be negative just after a change).
    var whole: Int
    /// The bar start's fraction of a frame, over the settings' denominator.
    var fraction: Int128
    /// 1-based bar number.
    var bar: Int
    /// The next click, an index into the bar's clicks.
    var click: Int

    /// The frame the next click starts at.
    @inline(__always)
    func nextFrame(in settings: UnsafePointer<LiveSettings>) -> Int { frame(ofClick: click, in: settings) }

    /// The frame click `index` of this bar starts at: its exact position rounded once.
    @inline(__always)
    func frame(ofClick index: Int, in settings: UnsafePointer<LiveSettings>) -> Int {
        whole + Int(Wide.rounded(fraction + settings.pointee.clicks[index].offset, over: settings.pointee.denominator))
    }

    /// Moves to the next click, into the next bar after the last one.
    @inline(__always)
    mutating func advance(in settings: UnsafePointer<LiveSettings>) {
        click += 1
        if click == settings.pointee.clickCount {
            click = 0
            moveBars(by: 1, in: settings)
        }
    }

    /// Moves the bar start by `count` bars (the click index stays).
    mutating func moveBars(by count: Int, in settings: UnsafePointer<LiveSettings>) {
        fraction += Int128(count) * settings.pointee.barLength
        let carry = Wide.floorQuotient(fraction, settings.pointee.denominator)
        whole += Int(carry)
        fraction -= carry * settings.pointee.denominator
        bar += count
    }

    /// Frames from the bar start to `frame`, over the denominator (negative before the start).
    @inline(__always)
    func elapsed(at frame: Int, in settings: UnsafePointer<LiveSettings>) -> Int128 {
        Int128(frame - whole) * settings.pointee.denominator - fraction
    }
}

extension BarCursor {
    /// The cursor for `new` settings taking over at `frame` from this one (on `old`), keeping
    /// the phase within the bar: the fraction of the bar elapsed at `frame` is the same under
    /// both, to within 1/1024 frame.
    ///
    /// The bar containing `frame` under the old settings keeps its number. The new bar start is
    /// `frame − e`, with `e` the elapsed fraction times the new bar length, snapped to the
    /// nearest multiple of 1/1024 frame (halves up), which keeps the numbers small however many
    /// changes come (see ``snappedElapsed(_:of:in:)`` for when the snap is exact).
    ///
    /// The result points at the first click of the new settings whose frame is ≥ `frame`
    /// (counting clicks of earlier bars that round up to it, back to bar 1: there are no bars
    /// before the start), so that with the old settings owning every click before `frame`, no
    /// click is lost or doubled at the change.
    func carried(at frame: Int, from old: UnsafePointer<LiveSettings>, to new: UnsafePointer<LiveSettings>) -> BarCursor {
        var current = self
        while current.elapsed(at: frame, in: old) < 0 { current.moveBars(by: -1, in: old) }
        while current.elapsed(at: frame, in: old) >= old.pointee.barLength { current.moveBars(by: 1, in: old) }
        let snapped = Self.snappedElapsed(current.elapsed(at: frame, in: old), of: old, in: new)
        let back = Wide.floorQuotient(-snapped, 1_024)
        var next = BarCursor(whole: frame + Int(back), fraction: (-snapped - back * 1_024) * (new.pointee.denominator / 1_024),
                             bar: current.bar, click: 0)
        while next.bar > 1 && next.lastClickOfPreviousBar(in: new) >= frame { next.moveBars(by: -1, in: new) }
        while next.nextFrame(in: new) < frame { next.advance(in: new) }
        return next
    }

    /// The frame of the last click of the bar before this one.
    private func lastClickOfPreviousBar(in settings: UnsafePointer<LiveSettings>) -> Int {
        var previous = self
        previous.moveBars(by: -1, in: settings)
        return previous.frame(ofClick: settings.pointee.clickCount - 1, in: settings)
    }

    /// `round(1024 × elapsed / old bar × new bar)`: the elapsed part of the new bar in
    /// 1/1024 frames, for `elapsed` over the old denominator, `0 ≤ elapsed < old bar`.
    ///
    /// Exact (halves up) when the reduced product fits 128 bits with room to round (in the
    /// tests, for every tempo fraction with parts of up to 12 digits); otherwise computed in
    /// `Double`, about 10⁻¹⁶ of the new bar off before the snap.
    static func snappedElapsed(_ elapsed: Int128, of old: UnsafePointer<LiveSettings>,
                               in new: UnsafePointer<LiveSettings>) -> Int128 {
        guard elapsed > 0 else { return 0 }
        // (part / whole) × (bar / per), each reduced, then cross-reduced.
        let common = Wide.gcd(elapsed, old.pointee.barLength)
        var (part, whole) = (elapsed / common, old.pointee.barLength / common)
        var (bar, per) = (new.pointee.barNumerator, new.pointee.barDenominator)
        let first = Wide.gcd(part, per), second = Wide.gcd(bar, whole)
        (part, per, bar, whole) = (part / first, per / first, bar / second, whole / second)
        if let top = Wide.product(part, bar), let bottom = Wide.product(whole, per),
           Wide.product(top, 4 * 1_024) != nil, Wide.product(bottom, 4) != nil {
            return Wide.rounded(1_024 * top, over: bottom)
        }
        let share = Wide.double(elapsed) / Wide.double(old.pointee.barLength)
        let length = Wide.double(new.pointee.barNumerator) / Wide.double(new.pointee.barDenominator)
        return Int128((share * length * 1_024).rounded(.toNearestOrAwayFromZero))
    }
}
