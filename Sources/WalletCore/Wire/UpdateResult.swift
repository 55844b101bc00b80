import Foundation

/// What `PATCH /api/v1/passes/{passType}/{serial}` answers: whether the pass changed, its update
/// tag, the pushes queued and, when a notifying change is held, until when.
public struct UpdateResult: WireValue {
    public static let schemaName = "UpdateResult"

    /// The serial number, the second half of the pass's key.
    public var serialNumber: String
    /// Whether the change made the pass different; `false` when it already matched.
    public var changed: Bool
    /// The pass's update tag, a string (an integer in JavaScript loses precision past 2^53).
    public var updateTag: String
    /// Pushes queued, one per registered device of each changed pass.
    public var pushesQueued: Int
    /// When a held notifying change goes out; `null` when nothing is held.
    @NullWhenAbsent public var heldUntil: Date?

    /// Creates the value from its members.
    public init(serialNumber: String, changed: Bool, updateTag: String, pushesQueued: Int, heldUntil: Date?) {
        self.serialNumber = serialNumber
        self.changed = changed
        self.updateTag = updateTag
        self.pushesQueued = pushesQueued
        self.heldUntil = heldUntil
    }
}
