import Foundation

/// What `GET /api/v1/logs` answers: the latest lines devices posted to `/wallet/v1/log`, newest first.
public struct DeviceLogs: WireValue {
    public static let schemaName = "DeviceLogs"

    /// One posted line and when it arrived.
    public struct Entry: Codable, Sendable, Equatable {
        /// When the server received the line.
        public var receivedAt: Date
        /// The line as the device posted it.
        public var message: String

        /// Creates the value from its members.
        public init(receivedAt: Date, message: String) {
            self.receivedAt = receivedAt
            self.message = message
        }
    }

    /// Newest first, at most the `limit` asked for.
    public var logs: [Entry]

    /// Creates the value from its members.
    public init(logs: [Entry]) {
        self.logs = logs
    }
}
