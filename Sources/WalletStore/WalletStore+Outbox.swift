import Foundation
import PassModel
import Storage

/// The push outbox, drained by push workers on one or several instances.
extension WalletStore {
    /// The most rows one claim may take, within both engines' parameter limits.
    public static let maximumClaim = 1_000

    /// Claims up to `limit` due pushes for `instance` for `lease`: rows whose next attempt is due
    /// and that nobody holds (or whose holder's lease has lapsed, so a dead instance's rows are taken
    /// over). On PostgreSQL the rows are locked with `FOR UPDATE SKIP LOCKED`, so instances claiming
    /// at once never get the same row and never wait for each other. Oldest due first.
    public func claimPushes(instance: String, limit: Int, lease: Duration) async throws -> [PushJob] {
        precondition((1...Self.maximumClaim).contains(limit), "claim between 1 and \(Self.maximumClaim) pushes at a time")
        let now = clock.nowMilliseconds()
        let until = now + Milliseconds.of(lease)
        return try await storing("claim pushes from the outbox") {
            try await database.transaction { transaction in
                let due = [SQLValue.integer(now), .integer(now), .integer(Int64(limit))]
                let candidates = try await transaction.query(transaction.engine == .postgres
                    ? SQL(
                        """
                        SELECT id FROM push_outbox
                        WHERE next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)
                        ORDER BY next_attempt_at, id LIMIT ?
                        FOR UPDATE SKIP LOCKED
                        """, parameters: due)
                    : SQL(
                        """
                        SELECT id FROM push_outbox
                        WHERE next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)
                        ORDER BY next_attempt_at, id LIMIT ?
                        """, parameters: due))
                let ids = try candidates.map { try $0.int64("id") }
                guard !ids.isEmpty else { return [] }
                let list = SQL.placeholders(ids.count)
                // Only fixed fragments and placeholders are concatenated; every value is a parameter.
                let claimed = try await transaction.query(SQL(unsafeText: """
                    UPDATE push_outbox SET claimed_by = ?, claimed_until = ?
                    WHERE id IN (\(list))
                    RETURNING id, device_library_identifier, pass_type_identifier, push_token, attempts, generation,
                              claimed_by, claimed_until, enqueued_at
                    """, parameters: [.text(instance), .integer(until)] + ids.map(SQLValue.integer)))
                let jobs = try Dictionary(uniqueKeysWithValues: claimed.map { row in (try row.int64("id"), try PushJob(row: row)) })
                return ids.compactMap { jobs[$0] }
            }
        }
    }

    /// Reports a push that is done: accepted by APNs, or refused for good (then `failure` names
    /// APNs's reason, counted in the analytics; a refusal whose registration ``dropRegistration(deviceLibraryIdentifier:passTypeIdentifier:unlessRegisteredAfter:reason:)``
    /// removed was counted there). Returns `true` when the row is gone; `false` when an update
    /// arrived while the push was in flight (the row is released, due at once, so the device hears
    /// about that change too) or when the claim was lost to another instance after the lease lapsed.
    ///
    /// An accepted push is counted by ``completeDeliveredPushes(_:at:)``, which the worker settles
    /// every accepted push with; this one counts none as sent.
    @discardableResult
    public func completePush(_ job: PushJob, failure: String? = nil) async throws -> Bool {
        let now = clock.nowMilliseconds()
        return try await storing("complete a push") {
            try await database.transaction { transaction in
                if let failure {
                    try await self.addRollups([RollupKey(template: "", version: 0, metric: .pushFailed(reason: failure)): 1], at: now, in: transaction)
                }
                let deleted = try await transaction.execute(SQL(
                    "DELETE FROM push_outbox WHERE id = ? AND claimed_by = ? AND generation = ?",
                    .integer(job.id), .text(job.claimedBy), .integer(job.generation)
                ))
                guard deleted == 0 else { return true }
                try await transaction.execute(SQL(
                    """
                    UPDATE push_outbox SET claimed_by = NULL, claimed_until = NULL, attempts = 0, last_error = NULL
                    WHERE id = ? AND claimed_by = ?
                    """,
                    .integer(job.id), .text(job.claimedBy)
                ))
                return false
            }
        }
    }

    /// Settles pushes APNs accepted, in one transaction of three statements whatever their number:
    /// each device's last answer becomes `200` at `time`, each row is deleted unless it was queued
    /// again while in flight (then its claim is released, so the newer change is pushed too), as
    /// ``completePush(_:)`` does for one. The worker settles a whole round this way: two transactions
    /// per push were most of a fan-out's cost. Rows whose claim was lost meanwhile are left alone.
    /// Returns how many rows were deleted.
    @discardableResult
    public func completeDeliveredPushes(_ jobs: [PushJob], at time: Date) async throws -> Int {
        guard !jobs.isEmpty else { return 0 }
        let at = SQLValue.integer(Milliseconds.of(time))
        return try await storing("complete \(jobs.count) delivered pushes") {
            try await database.transaction { transaction in
                var deleted = 0
                for (claimedBy, claim) in Dictionary(grouping: jobs, by: \.claimedBy) {
                    for chunk in claim.batches(of: Self.maximumClaim) {
                        let devices = Array(Set(chunk.map(\.deviceLibraryIdentifier)))
                        let ids = chunk.map { SQLValue.integer($0.id) }
                        let idList = SQL.placeholders(ids.count)
                        // Typed, since PostgreSQL reads an untyped parameter in VALUES as text.
                        let pairs = SQL.list("(CAST(? AS BIGINT), CAST(? AS BIGINT))", count: chunk.count)
                        // Only fixed fragments and placeholders are concatenated; every value is a parameter.
                        try await transaction.execute(SQL(unsafeText: """
                            UPDATE devices SET last_push_at = ?, last_push_status = 200, last_push_reason = NULL
                            WHERE device_library_identifier IN (\(SQL.placeholders(devices.count)))
                            """, parameters: [at] + devices.map(SQLValue.text)))
                        deleted += try await transaction.execute(SQL(unsafeText: """
                            DELETE FROM push_outbox
                            WHERE id IN (\(idList)) AND claimed_by = ? AND (id, generation) IN (VALUES \(pairs))
                            """, parameters: ids + [.text(claimedBy)] + chunk.flatMap { [SQLValue.integer($0.id), .integer($0.generation)] }))
                        try await transaction.execute(SQL(unsafeText: """
                            UPDATE push_outbox SET claimed_by = NULL, claimed_until = NULL, attempts = 0, last_error = NULL
                            WHERE id IN (\(idList)) AND claimed_by = ?
                            """, parameters: ids + [.text(claimedBy)]))
                    }
                }
                // Every push APNs accepted, also one whose row stays for a newer change.
                try await self.addRollups([RollupKey(template: "", version: 0, metric: .pushesSent): jobs.count], at: Milliseconds.of(time), in: transaction)
                return deleted
            }
        }
    }

    /// Reports a push that failed for a reason worth retrying (429, 5xx, a lost connection): the row
    /// is released, due again `after` from now, with one more attempt and `error` recorded.
    ///
    /// `error` feeds ``OutboxStats/failuresByReason``: pass a short reason such as APNs's
    /// `TooManyRequests`, never a token. Returns `false` when the claim was lost meanwhile.
    @discardableResult
    public func retryPush(_ job: PushJob, after delay: Duration, error: String) async throws -> Bool {
        let now = clock.nowMilliseconds()
        let due = now + Milliseconds.of(delay)
        return try await storing("reschedule a push") {
            try await database.transaction { transaction in
                let rescheduled = try await transaction.execute(SQL(
                    """
                    UPDATE push_outbox SET attempts = attempts + 1, next_attempt_at = ?, claimed_by = NULL, claimed_until = NULL,
                                           last_error = ?
                    WHERE id = ? AND claimed_by = ?
                    """,
                    .integer(due), .text(error), .integer(job.id), .text(job.claimedBy)
                ))
                guard rescheduled > 0 else { return false }
                // The pass type, never the device: a push is per device and pass type, not per pass.
                try await self.appendEvents([WalletEventDraft(type: .pushFailed, actor: "apns", payload: [
                    "passTypeIdentifier": .string(job.passTypeIdentifier), "reason": .string(error),
                    "attempts": .number(Double(job.attempts + 1)), "retryInSeconds": .number(Double(Milliseconds.of(delay) / 1000)),
                ])], at: now, in: transaction)
                return true
            }
        }
    }

    /// Applies APNs 410 `Unregistered` (or `DeviceTokenNotForTopic` with no date): removes the
    /// device's registrations for the pass type, unless the device registered again after
    /// `unregisteredAt` (APNs's `timestamp`), which proves its token is alive. Returns how many
    /// registrations were removed; with the last one of the type the pending push goes too, and with
    /// the device's last registration the device.
    @discardableResult
    public func dropRegistration(
        deviceLibraryIdentifier: String, passTypeIdentifier: String, unlessRegisteredAfter unregisteredAt: Date?, reason: String = "Unregistered"
    ) async throws -> Int {
        let now = clock.nowMilliseconds()
        return try await storing("drop the registrations of a device for \(passTypeIdentifier)") {
            try await database.transaction { transaction in
                let removed: [Row]
                if let unregisteredAt {
                    let cutoff = Milliseconds.of(unregisteredAt)
                    // A re-registration refreshes the device row even when the registration existed.
                    removed = try await transaction.query(SQL(
                        """
                        DELETE FROM registrations
                        WHERE device_library_identifier = ? AND pass_type_identifier = ? AND created_at <= ?
                          AND NOT EXISTS (SELECT 1 FROM devices WHERE device_library_identifier = ? AND updated_at > ?)
                        RETURNING pass_type_identifier, serial_number
                        """,
                        .text(deviceLibraryIdentifier), .text(passTypeIdentifier), .integer(cutoff), .text(deviceLibraryIdentifier), .integer(cutoff)
                    ))
                } else {
                    removed = try await transaction.query(SQL(
                        "DELETE FROM registrations WHERE device_library_identifier = ? AND pass_type_identifier = ? RETURNING pass_type_identifier, serial_number",
                        .text(deviceLibraryIdentifier), .text(passTypeIdentifier)
                    ))
                }
                // The topic may be an order type: its registrations go the same way (no event: order
                // events are the merchant's, not Wallet's).
                let removedOrders = try await transaction.execute(SQL(
                    """
                    DELETE FROM order_registrations
                    WHERE device_library_identifier = ? AND order_type_identifier = ? AND created_at <= ?
                      AND NOT EXISTS (SELECT 1 FROM devices WHERE device_library_identifier = ? AND updated_at > ?)
                    """,
                    .text(deviceLibraryIdentifier), .text(passTypeIdentifier), .integer(unregisteredAt.map(Milliseconds.of) ?? Int64.max),
                    .text(deviceLibraryIdentifier), .integer(unregisteredAt.map(Milliseconds.of) ?? Int64.max)
                ))
                if !removed.isEmpty || removedOrders > 0 {
                    try await Self.removeOrphans(deviceLibraryIdentifier: deviceLibraryIdentifier, passTypeIdentifier: passTypeIdentifier, in: transaction)
                    try await self.deviceGone(removed, reason: reason, at: now, in: transaction)
                }
                // One failed push, however many passes of the type the device had.
                try await self.addRollups([RollupKey(template: "", version: 0, metric: .pushFailed(reason: reason)): 1], at: now, in: transaction)
                return removed.count + removedOrders
            }
        }
    }

    /// A `device.gone` event for each pass whose registration APNs's answer removed (`rows` hold
    /// their keys), with the devices the pass has left.
    private func deviceGone(_ rows: [Row], reason: String, at now: Int64, in transaction: Transaction) async throws {
        for row in rows {
            let key = PassKey(passTypeIdentifier: try row.string("pass_type_identifier"), serialNumber: try row.string("serial_number"))
            let devices = try await Self.deviceCount(key, in: transaction)
            try await appendPassEvent(.deviceGone, key, actor: "apns", payload: [
                "reason": .string(reason), "devices": .number(Double(devices)), "allDevicesRemoved": .bool(devices == 0),
            ], at: now, in: transaction)
        }
    }

    /// Applies APNs 400 `BadDeviceToken` on production: deletes the device with all its
    /// registrations and pending pushes. Returns whether the device existed.
    @discardableResult
    public func dropDevice(deviceLibraryIdentifier: String, reason: String = "BadDeviceToken") async throws -> Bool {
        let now = clock.nowMilliseconds()
        return try await storing("drop a device") {
            try await database.transaction { transaction in
                let removed = try await transaction.query(SQL(
                    "DELETE FROM registrations WHERE device_library_identifier = ? RETURNING pass_type_identifier, serial_number",
                    .text(deviceLibraryIdentifier)))
                let dropped = try await transaction.execute(SQL(
                    "DELETE FROM devices WHERE device_library_identifier = ?", .text(deviceLibraryIdentifier)
                )) > 0
                try await self.deviceGone(removed, reason: reason, at: now, in: transaction)
                try await self.addRollups([RollupKey(template: "", version: 0, metric: .pushFailed(reason: reason)): 1], at: now, in: transaction)
                return dropped
            }
        }
    }

    /// Queue depth, rows in flight, the oldest wait and the failures by reason.
    public func outboxStats() async throws -> OutboxStats {
        let now = clock.nowMilliseconds()
        return try await storing("read the outbox statistics") {
            let summary = try await database.query(SQL(
                """
                SELECT COUNT(*) AS queued, MIN(enqueued_at) AS oldest,
                       COALESCE(SUM(CASE WHEN claimed_until > ? THEN 1 ELSE 0 END), 0) AS in_flight
                FROM push_outbox
                """,
                .integer(now)
            ))[0]
            var failures: [String: Int] = [:]
            for row in try await database.query(SQL(
                "SELECT last_error, COUNT(*) AS count FROM push_outbox WHERE last_error IS NOT NULL GROUP BY last_error"
            )) {
                failures[try row.string("last_error")] = try row.int("count")
            }
            return OutboxStats(
                queued: try summary.int("queued"),
                inFlight: try summary.int("in_flight"),
                oldestPendingAge: try summary.optionalInt64("oldest").map { .milliseconds(max(0, now - $0)) },
                failuresByReason: failures
            )
        }
    }
}

extension PushJob {
    /// Decodes a row returned by the claim.
    init(row: Row) throws {
        id = try row.int64("id")
        deviceLibraryIdentifier = try row.string("device_library_identifier")
        passTypeIdentifier = try row.string("pass_type_identifier")
        pushToken = try row.string("push_token")
        attempts = try row.int("attempts")
        generation = try row.int64("generation")
        claimedBy = try row.string("claimed_by")
        claimedUntil = Milliseconds.date(try row.int64("claimed_until"))
        enqueuedAt = Milliseconds.date(try row.int64("enqueued_at"))
    }
}

extension WalletStore {
    /// Queues a push to every device registered for one pass without changing the pass: an operator's
    /// way to re-wake devices (after fixing an APNs identity, say), audited as `push.send`. Returns
    /// the rows queued.
    @discardableResult
    public func enqueuePushes(for key: PassKey, origin: WriteOrigin = .api) async throws -> Int {
        let now = clock.nowMilliseconds()
        let queued = try await storing("queue pushes for \(key)") {
            try await database.transaction { transaction in
                try await self.appendAudit([AuditDraft(action: "push.send", target: AuditDraft.pass(key))], by: origin, at: now, in: transaction)
                return try await Self.enqueuePushes(.passes([key]), now: now, in: transaction)
            }
        }
        if queued > 0 { pushesQueued() }
        return queued
    }
}

/// The PostgreSQL channel every transaction that queues pushes notifies at commit.
let outboxChannel = "passwright_outbox"

extension WalletStore {
    /// Whether other processes may queue pushes in this store (PostgreSQL, shared by several
    /// instances): then a worker also listens (``listenForQueuedPushes(_:)``); on SQLite every push is
    /// queued by this process, which hears of it through `pushesQueued`.
    public var sharesOutbox: Bool { database.engine == .postgres }

    /// Listens until the task is cancelled for pushes queued by any instance (every enqueuing
    /// transaction notifies `passwright_outbox` at commit), calling `heard` once when listening
    /// starts and once per batch of notifications. Throws when the listening connection cannot be
    /// opened or breaks; the caller retries after a pause. PostgreSQL only (``sharesOutbox``).
    public func listenForQueuedPushes(_ heard: @escaping @Sendable () -> Void) async throws {
        try await storing("listen for queued pushes") {
            try await database.listen(on: outboxChannel, notified: heard)
        }
    }

    /// When the earliest outbox row becomes claimable (its next attempt, or the end of the lease it
    /// is claimed under if that is later), or `nil` when the outbox is empty: how long an idle worker
    /// may sleep before a retry falls due or a lapsed claim can be taken over.
    public func nextPushDue() async throws -> Date? {
        try await storing("read when the next push is due") {
            try await database.query(SQL(
                """
                SELECT MIN(CASE WHEN claimed_until > next_attempt_at THEN claimed_until ELSE next_attempt_at END) AS due
                FROM push_outbox
                """
            ))[0].optionalInt64("due").map(Milliseconds.date)
        }
    }
}
