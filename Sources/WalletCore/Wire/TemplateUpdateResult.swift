/// What `PATCH /api/v1/templates/{template}/passes` answers: the passes matched, those changed (now
/// or held), those held and the pushes queued now.
public struct TemplateUpdateResult: WireValue {
    public static let schemaName = "TemplateUpdateResult"

    /// Passes of the template.
    public var matched: Int
    /// Passes the change made different, now or held (the others already matched it).
    public var changed: Int
    /// Passes whose change notifies their holder and waits for the end of their quiet hours or the
    /// notification spacing.
    public var held: Int
    /// Pushes queued, one per registered device of each changed pass.
    public var pushesQueued: Int

    /// Creates the value from its members.
    public init(matched: Int, changed: Int, held: Int, pushesQueued: Int) {
        self.matched = matched
        self.changed = changed
        self.held = held
        self.pushesQueued = pushesQueued
    }
}
