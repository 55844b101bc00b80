/// What `POST /api/v1/passes/{passType}/{serial}/push` answers (202): the pushes queued, one per
/// registered device.
public struct PushQueued: WireValue {
    public static let schemaName = "PushQueued"

    /// Pushes queued, one per registered device of each changed pass.
    public var pushesQueued: Int

    /// Creates the value from its members.
    public init(pushesQueued: Int) {
        self.pushesQueued = pushesQueued
    }
}
