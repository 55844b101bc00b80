import PassModel
import Storage

/// Compare-and-swap writes: the short transactions of an update whose change was computed outside.
///
/// Rendering and validating a pass takes milliseconds of CPU; holding SQLite's single writer or
/// PostgreSQL row locks for that long (for a whole template, even) would make every other writer
/// wait on it. So a change is computed from a version of the pass read without a lock, and the
/// write checks that the pass still has that version's update tag. Tags are unique per change
/// (every write draws a new one), so an equal tag proves the row is exactly the one the change saw.
extension WalletStore {
    /// The most passes one ``writePasses(_:)`` call takes, within both engines' parameter limits.
    public static let maximumWriteBatch = 500

    /// Writes `change` to the pass `key` if its update tag is still `expectedTag`, the tag of the
    /// version the change was computed from; in one short transaction that checks the tag, writes
    /// the pass under a new tag and queues one push per registered device.
    ///
    /// A `nil` change, or one equal to the stored values, writes nothing and answers
    /// ``PassWrite/unchanged(_:)`` (when the tag still matches; a `nil` change takes no write lock at
    /// all). A different tag answers ``PassWrite/conflict(current:)`` with the row as it is now and
    /// leaves it untouched. A written change adds a row to the pass's history naming `origin`
    /// (``passUpdates(for:limit:)``) and one to the audit trail.
    public func writePass(
        _ key: PassKey, expectedTag: Int64, change: PassChange?, notifies: Bool = false, origin: WriteOrigin = .api
    ) async throws -> PassWrite {
        guard let change else {
            guard let current = try await pass(key) else { return .notFound }
            return current.updateTag == expectedTag ? .unchanged(current) : .conflict(current: current)
        }
        return try await writePass(PassWriteRequest(key: key, expectedTag: expectedTag, change: change, notifies: notifies, origin: origin))
    }

    /// Writes one request of ``writePasses(_:)``, its hold action included.
    public func writePass(_ request: PassWriteRequest) async throws -> PassWrite {
        let result = try await writePasses([request])
        if let written = result.written.first { return .written(written, pushesQueued: result.pushesQueued) }
        if let unchanged = result.unchanged.first { return .unchanged(unchanged) }
        if let current = result.conflicts.first { return .conflict(current: current) }
        return .notFound
    }

    /// Writes a batch of changes in one short transaction, each only if its pass still has the
    /// expected tag and held change: the passes are locked (PostgreSQL `FOR NO KEY UPDATE`; SQLite's writer lock is
    /// taken at `BEGIN`), their tags compared, and the changes that alter their pass written under
    /// one new tag with their pushes queued, coalesced per device and pass type, and a history row,
    /// an event and an audit row per written pass with the request's origin and the top-level keys it
    /// changed. Each request's
    /// hold action (store, replace or remove the pass's held change) lands in the same transaction,
    /// also when the pass itself does not change.
    ///
    /// Nothing is computed inside the transaction: the caller computed every change before. The
    /// answer lists what landed and, for the conflicts, the rows to compute again from.
    public func writePasses(_ requests: [PassWriteRequest]) async throws -> PassBatchWrite {
        precondition(requests.count <= Self.maximumWriteBatch, "write at most \(Self.maximumWriteBatch) passes at a time")
        precondition(Set(requests.map(\.key)).count == requests.count, "write each pass at most once per batch")
        guard !requests.isEmpty else { return PassBatchWrite(written: [], unchanged: [], conflicts: [], missing: [], pushesQueued: 0) }
        let result = try await storing(requests.count == 1 ? "write the pass \(requests[0].key)" : "write \(requests.count) passes") {
            try await database.transaction { transaction in
                let rows = try await Self.lockedPasses(requests.map(\.key), in: transaction)
                // Read after the passes are locked: every hold write locks its pass first.
                let holds = try await Self.holds(requests.map(\.key), in: transaction)
                var unchanged: [StoredPass] = []
                var conflicts: [StoredPass] = []
                var missing: [PassKey] = []
                var altering: [(pass: StoredPass, change: PassChange?, origin: WriteOrigin, erases: Bool)] = []
                for request in requests {
                    guard let current = rows[request.key] else { missing.append(request.key); continue }
                    guard current.updateTag == request.expectedTag, holds[request.key]?.edits == request.expectedHold else {
                        conflicts.append(current)
                        continue
                    }
                    if let change = request.change, change.alters(current) {
                        altering.append((current, change, request.origin, request.erases))
                    } else {
                        unchanged.append(current)
                    }
                }
                let applied = try await self.apply(altering, in: transaction)
                let written = Set(applied.passes.map(\.key))
                let landed = written.union(unchanged.map(\.key))
                let now = clock.nowMilliseconds()
                var held: [WriteOrigin: [AuditDraft]] = [:]
                try await Self.recordNotifications(requests, written: written, now: now, in: transaction)
                for request in requests where landed.contains(request.key) {
                    try await Self.recordHold(request, now: now, in: transaction)
                    if case .replace = request.hold, !written.contains(request.key) {
                        held[request.origin, default: []].append(AuditDraft(action: "pass.hold", target: AuditDraft.pass(request.key)))
                    }
                }
                // A change that waits for the holder's quiet hours is audited when it is made, by its
                // author; its release is audited again, by `hold`.
                for (origin, drafts) in held { try await self.appendAudit(drafts, by: origin, at: now, in: transaction) }
                for request in requests where request.erases && landed.contains(request.key) {
                    try await Self.eraseTraces(of: request.key, at: now, in: transaction)
                }
                return PassBatchWrite(written: applied.passes, unchanged: unchanged, conflicts: conflicts, missing: missing, pushesQueued: applied.pushesQueued)
            }
        }
        if result.pushesQueued > 0 { pushesQueued() }
        return result
    }

    /// The current rows of `keys`, locked until the transaction ends on PostgreSQL (key order, so
    /// two batches never lock each other's rows in opposite orders).
    private static func lockedPasses(_ keys: [PassKey], in transaction: Transaction) async throws -> [PassKey: StoredPass] {
        let lock = transaction.engine == .postgres ? "FOR NO KEY UPDATE OF passes" : ""
        return try await PassKeyRows.select(
            StoredPass.self, columns: StoredPass.columns, from: "passes", keys: keys, suffix: "ORDER BY pass_type_identifier, serial_number \(lock)"
        ) { try await transaction.query($0) }
    }

}
