import Foundation

/// One claimed outbox row: push `pushToken` on topic `passTypeIdentifier`, then report the answer with
/// ``WalletStore/completePush(_:)`` or ``WalletStore/retryPush(_:after:error:)``.
public struct PushJob: Sendable, Hashable {
    /// The outbox row.
    public let id: Int64
    /// The device to wake.
    public let deviceLibraryIdentifier: String
    /// The APNs topic; the device then asks for every changed serial of this type.
    public let passTypeIdentifier: String
    /// The device's APNs token (hex) when the row was claimed.
    public let pushToken: String
    /// Failed attempts before this one.
    public let attempts: Int
    /// How many times the row was (re-)enqueued; a completion only deletes the row when no update
    /// arrived while the push was in flight.
    public let generation: Int64
    /// The instance holding the claim.
    public let claimedBy: String
    /// When the claim lapses and another instance may take the row.
    public let claimedUntil: Date
    /// When the pending change was first queued.
    public let enqueuedAt: Date
}
