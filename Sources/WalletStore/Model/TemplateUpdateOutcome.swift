/// The result of updating every pass of a template .
public struct TemplateUpdateOutcome: Sendable, Hashable {
    /// How many passes the template has (each was shown to the change closure).
    public let matched: Int
    /// How many of them changed, now or held.
    public let changed: Int
    /// How many of them hold a notifying change until the holder's quiet hours end (or the spacing
    /// since their last notification has passed).
    public let held: Int
    /// How many outbox rows were queued or coalesced: one per device, pass type and written batch,
    /// however many of the device's passes changed.
    public let pushesQueued: Int

    /// An outcome with these counts.
    public init(matched: Int, changed: Int, held: Int, pushesQueued: Int) {
        self.matched = matched
        self.changed = changed
        self.held = held
        self.pushesQueued = pushesQueued
    }
}
