/// What `POST /api/v1/passes/{passType}/{serial}/push` answers (202): the pushes queued, one per
/// registered device.
public struct PushQueued: WireValue {
    public static let schemaName = "PushQueued"

    public var pushesQueued: Int

    public init(pushesQueued: Int) {
        self.pushesQueued = pushesQueued
    }
}
