/// One click of a ``LiveMetronome``, reported off the audio thread (``LiveMetronome/pollEvents(into:)``).
///
/// Every scheduled click gets one, whether it sounded or not.
public struct LiveClickEvent: Sendable, Hashable {
    /// The frame its sound starts at, counted on the renderer's own frames from 0 (the first
    /// frame of the first ``LiveMetronome/render(into:)``).
    public var frame: Int
    /// 1-based bar. A change of settings keeps the number of the bar in progress.
    public var bar: Int
    /// 1-based beat within the bar.
    public var beat: Int
    /// Which part of the beat: 0 on the beat, else `step` of `of` (see ``ClickEvent/step``).
    public var step: Int
    /// The subdivision `step` counts in (0 on the beat).
    public var of: Int
    /// What it is.
    public var kind: ClickKind
    /// Its loudness, 0…1 (master volume included).
    public var volume: Float
    /// The ``LiveMetronome/settingsVersion`` of the settings that scheduled it.
    public var settingsVersion: Int
    /// False if it did not sound: a volume of 0, or every voice busy
    /// (``LiveMetronome/droppedClicks``).
    public var played: Bool

    /// A click event.
    public init(frame: Int, bar: Int, beat: Int, step: Int, of: Int, kind: ClickKind, volume: Float,
                settingsVersion: Int, played: Bool) {
        self.frame = frame
        self.bar = bar
        self.beat = beat
        self.step = step
        self.of = of
        self.kind = kind
        self.volume = volume
        self.settingsVersion = settingsVersion
        self.played = played
    }
}

/// When a change of settings took effect in a ``LiveMetronome``
/// (``LiveMetronome/pollChanges(into:)``).
public struct LiveSettingsChange: Sendable, Hashable {
    /// The first frame rendered with the new settings (the first frame of a
    /// ``LiveMetronome/render(into:)`` call).
    public var frame: Int
    /// The new settings' version (1 for the first accepted ``LiveMetronome/apply(_:sounds:)``).
    public var settingsVersion: Int

    /// A change record.
    public init(frame: Int, settingsVersion: Int) {
        self.frame = frame
        self.settingsVersion = settingsVersion
    }
}
