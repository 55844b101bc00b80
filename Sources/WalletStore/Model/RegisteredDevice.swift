import Foundation

/// A device registered for a pass, with the push token to reach it and how its last push went.
public struct RegisteredDevice: Sendable, Hashable {
    /// The identifier the device chose; it authenticates the serial-numbers endpoint.
    public let deviceLibraryIdentifier: String
    /// The device's current APNs token (hex).
    public let pushToken: String
    /// When the device registered for this pass.
    public let registeredAt: Date
    /// When APNs last answered a push to the device (for any of its pass types), if ever.
    public let lastPushAt: Date?
    /// That answer's HTTP status (200 accepted, 400, 410, 429, 5xx…); `nil` when no push was
    /// answered yet, or when the last attempt got no answer at all (then ``lastPushReason`` says why).
    public let lastPushStatus: Int?
    /// APNs's reason (`BadDeviceToken`, `Unregistered`…) or why no answer came; `nil` for a 200.
    public let lastPushReason: String?
    /// Whether a push to the device for this pass's type is waiting or in flight in the outbox.
    public let pushQueued: Bool

    /// A device as the store lists it.
    public init(
        deviceLibraryIdentifier: String, pushToken: String, registeredAt: Date, lastPushAt: Date? = nil, lastPushStatus: Int? = nil,
        lastPushReason: String? = nil, pushQueued: Bool = false
    ) {
        self.deviceLibraryIdentifier = deviceLibraryIdentifier
        self.pushToken = pushToken
        self.registeredAt = registeredAt
        self.lastPushAt = lastPushAt
        self.lastPushStatus = lastPushStatus
        self.lastPushReason = lastPushReason
        self.pushQueued = pushQueued
    }
}
