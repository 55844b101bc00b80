/// What `PATCH /api/v1/templates/{template}/passes` answers: the passes matched, those changed and
/// the pushes queued.
public struct TemplateUpdateResult: WireValue {
    public static let schemaName = "TemplateUpdateResult"

    public var matched: Int
    public var changed: Int
    public var pushesQueued: Int

    public init(matched: Int, changed: Int, pushesQueued: Int) {
        self.matched = matched
        self.changed = changed
        self.pushesQueued = pushesQueued
    }
}
