/// What `PATCH /api/v1/templates/{template}/passes` answers: the passes matched, those changed and
/// the pushes queued.
public struct TemplateUpdateResult: WireValue {
    public static let schemaName = "TemplateUpdateResult"

    /// Passes of the template.
    public var matched: Int
    /// Passes the change made different (the others already matched it).
    public var changed: Int
    /// Pushes queued, one per registered device of each changed pass.
    public var pushesQueued: Int

    /// Creates the value from its members.
    public init(matched: Int, changed: Int, pushesQueued: Int) {
        self.matched = matched
        self.changed = changed
        self.pushesQueued = pushesQueued
    }
}
