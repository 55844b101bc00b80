import Foundation

/// One message Wallet posted to the log endpoint, the main remote debugging channel.
public struct DeviceLog: Sendable, Hashable {
    /// Increasing with arrival order.
    public let id: Int64
    /// When the server received it.
    public let receivedAt: Date
    /// The text as Wallet sent it.
    public let message: String
}
