import Foundation

/// What `GET /api/v1/logs` answers: the latest lines devices posted to `/wallet/v1/log`, newest first.
public struct DeviceLogs: WireValue {
    public static let schemaName = "DeviceLogs"

    /// One posted line and when it arrived.
    public struct Entry: Codable, Sendable, Equatable {
        public var receivedAt: Date
        public var message: String

        public init(receivedAt: Date, message: String) {
            self.receivedAt = receivedAt
            self.message = message
        }
    }

    public var logs: [Entry]

    public init(logs: [Entry]) {
        self.logs = logs
    }
}
