import Storage

/// Device logs (web service endpoint 5): kept, but bounded.
extension WalletStore {
    /// Rows per `INSERT` (and ids per erasure's `DELETE`), well under both engines' parameter limits.
    static let logBatchSize = 250

    /// Stores the messages Wallet posted, in order, then trims the table to the newest
    /// `logCapacity` messages, in one transaction.
    public func appendLogs(_ messages: [String]) async throws {
        guard !messages.isEmpty else { return }
        let now = clock.nowMilliseconds()
        try await storing("store device log messages") {
            try await database.transaction { transaction in
                for batch in messages.batches(of: Self.logBatchSize) {
                    // Only fixed fragments and placeholders are concatenated; every value is a parameter.
                    try await transaction.execute(SQL(
                        unsafeText: "INSERT INTO device_logs (received_at, message) VALUES \(SQL.list("(?, ?)", count: batch.count))",
                        parameters: batch.flatMap { [SQLValue.integer(now), .text($0)] }
                    ))
                }
                try await transaction.execute(SQL(
                    "DELETE FROM device_logs WHERE id <= (SELECT id FROM device_logs ORDER BY id DESC LIMIT 1 OFFSET ?)",
                    .integer(Int64(self.logCapacity))
                ))
            }
        }
    }

    /// The newest `limit` messages, newest first; with `before`, the newest older than the message
    /// with that id (pass the last id of a page for the next one: a keyset seek on the primary key).
    public func recentLogs(limit: Int = 100, before: Int64? = nil) async throws -> [DeviceLog] {
        precondition(limit >= 1, "ask for at least one log message")
        return try await storing("read device log messages") {
            try await database.query(SQL(
                "SELECT id, received_at, message FROM device_logs WHERE id < ? ORDER BY id DESC LIMIT ?",
                .integer(before ?? Int64.max), .integer(Int64(limit))
            )).map { row in
                DeviceLog(id: try row.int64("id"), receivedAt: Milliseconds.date(try row.int64("received_at")), message: try row.string("message"))
            }
        }
    }
}
