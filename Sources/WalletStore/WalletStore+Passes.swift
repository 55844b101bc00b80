import PassModel
import Storage

extension WalletStore {
    /// Stores a new pass with a fresh update tag; throws ``WalletStoreError/passExists(_:)`` when the
    /// key is taken, so issuing the same serial twice cannot silently replace a pass.
    public func createPass(_ pass: NewPass) async throws -> StoredPass {
        let now = clock.nowMilliseconds()
        do {
            return try await database.transaction { transaction in
                let tag = try await Self.nextUpdateTag(transaction)
                let rows = try await transaction.query(SQL(
                    """
                    INSERT INTO passes (pass_type_identifier, serial_number, template, data, overrides, authentication_token,
                                        update_tag, voided, created_at, updated_at, template_version)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    RETURNING pass_type_identifier, serial_number, template, data, overrides, authentication_token,
                              update_tag, voided, created_at, updated_at, template_version, last_notified_at
                    """,
                    .text(pass.key.passTypeIdentifier), .text(pass.key.serialNumber), .text(pass.template), .text(pass.data),
                    .text(pass.overrides), .text(pass.authenticationToken), .integer(tag), .integer(pass.voided ? 1 : 0),
                    .integer(now), .integer(now), .integer(pass.templateVersion)
                ))
                return try StoredPass(row: rows[0])
            }
        } catch let error as StorageError where error.isUniqueViolation {
            throw WalletStoreError.passExists(pass.key)
        } catch let error as StorageError {
            throw WalletStoreError.database(operation: "create the pass \(pass.key)", error: error)
        }
    }

    /// The pass with `key`, or `nil`.
    public func pass(_ key: PassKey) async throws -> StoredPass? {
        try await storing("read the pass \(key)") {
            try await database.query(SQL(
                """
                SELECT pass_type_identifier, serial_number, template, data, overrides, authentication_token,
                       update_tag, voided, created_at, updated_at, template_version, last_notified_at
                FROM passes WHERE pass_type_identifier = ? AND serial_number = ?
                """,
                .text(key.passTypeIdentifier), .text(key.serialNumber)
            )).first.map(StoredPass.init(row:))
        }
    }

    /// One page of a template's passes in key order, starting after `after` (keyset paging stays
    /// fast and stable however many passes are added meanwhile). Pass the last key of a page to get
    /// the next; a page shorter than `limit` is the last.
    public func passes(template: String, after: PassKey? = nil, limit: Int = 100) async throws -> [StoredPass] {
        precondition(limit >= 1, "a page holds at least one pass")
        let start = after ?? PassKey(passTypeIdentifier: "", serialNumber: "")
        return try await storing("list the passes of the template \(template)") {
            try await database.query(SQL(
                """
                SELECT pass_type_identifier, serial_number, template, data, overrides, authentication_token,
                       update_tag, voided, created_at, updated_at, template_version, last_notified_at
                FROM passes
                WHERE template = ? AND (pass_type_identifier, serial_number) > (?, ?)
                ORDER BY pass_type_identifier, serial_number
                LIMIT ?
                """,
                .text(template), .text(start.passTypeIdentifier), .text(start.serialNumber), .integer(Int64(limit))
            )).map(StoredPass.init(row:))
        }
    }

    /// How many passes each template has.
    public func templateCounts() async throws -> [String: Int] {
        try await storing("count the passes per template") {
            var counts: [String: Int] = [:]
            for row in try await database.query(SQL("SELECT template, COUNT(*) AS count FROM passes GROUP BY template")) {
                counts[try row.string("template")] = try row.int("count")
            }
            return counts
        }
    }

    /// Updates one pass from its current row, optimistically: `change` runs outside any transaction
    /// (so a slow change, such as rendering and validating the pass, holds no lock and no connection),
    /// and its result is written with ``writePass(_:expectedTag:change:)``, which lands only while the
    /// pass still has the tag `change` saw. When another writer got there first, `change` runs again
    /// on the new row, up to `maxAttempts` times in all; then ``WalletStoreError/updateConflict(_:attempts:)``.
    ///
    /// `change` may therefore run more than once and must not have effects of its own. A `nil` or
    /// equal change writes nothing. Otherwise the pass gets a new tag and modification time, and one
    /// push per registered device is queued (coalesced with any pending one), in one short
    /// transaction. An error thrown by `change` writes nothing and is rethrown unchanged. The pass's
    /// history records the change with `source`.
    public func updatePass(
        _ key: PassKey, maxAttempts: Int = defaultMaximumAttempts, source: String = PassUpdateRecord.api,
        _ change: @Sendable (StoredPass) async throws -> PassChange?
    ) async throws -> UpdateOutcome {
        precondition(maxAttempts >= 1, "an update makes at least one attempt")
        guard var current = try await pass(key) else { throw WalletStoreError.passNotFound(key) }
        for _ in 1...maxAttempts {
            let proposed = try await change(current)
            let write = try await writePass(key, expectedTag: current.updateTag, change: proposed, source: source)
            switch write {
            case .written, .unchanged:
                if let outcome = write.outcome { return outcome }
            case .conflict(let newer):
                current = newer
            case .notFound:
                throw WalletStoreError.passNotFound(key)
            }
        }
        throw WalletStoreError.updateConflict(key, attempts: maxAttempts)
    }

    /// Updates every pass of `template`: all changes are computed, or none is written.
    ///
    /// The passes are read in pages of ``templatePageSize`` and `change` runs on each outside any
    /// transaction; when it throws for any pass, nothing is written and the error is rethrown
    /// unchanged. Then the changes are written in batches of ``templateWriteBatchSize`` with
    /// ``writePasses(_:)``, each batch one short transaction under one new tag, each pass only while
    /// it still has the tag its change saw. A pass another writer changed meanwhile is computed again
    /// from its new row and written in a later round, up to `maxAttempts` rounds in all; then
    /// ``WalletStoreError/updateConflict(_:attempts:)``. Such a recomputation is the one case where an
    /// error (or running out of attempts) can leave the batches already written in place.
    ///
    /// Each device gets one push per pass type and batch however many of its passes changed (a
    /// pending row coalesces them). Each written pass's history records its change with `source`.
    public func updatePasses(
        template: String, maxAttempts: Int = defaultMaximumAttempts, source: String = PassUpdateRecord.api,
        _ change: @Sendable (StoredPass) async throws -> PassChange?
    ) async throws -> TemplateUpdateOutcome {
        precondition(maxAttempts >= 1, "an update makes at least one attempt")
        var pending: [PassWriteRequest] = []
        var matched = 0
        var after: PassKey?
        while true {
            let page = try await passes(template: template, after: after, limit: Self.templatePageSize)
            matched += page.count
            for pass in page {
                if let proposed = try await change(pass), proposed.alters(pass) { pending.append(PassWriteRequest(proposed, over: pass, source: source)) }
            }
            guard page.count == Self.templatePageSize, let last = page.last else { break }
            after = last.key
        }
        var changed = 0
        var pushesQueued = 0
        for attempt in 1...maxAttempts {
            var conflicts: [StoredPass] = []
            var start = pending.startIndex
            while start < pending.endIndex {
                let batch = Array(pending[start..<min(start + Self.templateWriteBatchSize, pending.endIndex)])
                let written = try await writePasses(batch)
                changed += written.written.count
                pushesQueued += written.pushesQueued
                conflicts += written.conflicts
                start += batch.count
            }
            guard let first = conflicts.first else { break }
            guard attempt < maxAttempts else { throw WalletStoreError.updateConflict(first.key, attempts: maxAttempts) }
            pending = []
            for pass in conflicts {
                if let proposed = try await change(pass), proposed.alters(pass) { pending.append(PassWriteRequest(proposed, over: pass, source: source)) }
            }
        }
        return TemplateUpdateOutcome(matched: matched, changed: changed, pushesQueued: pushesQueued)
    }
}
