import PassModel
import Storage

extension WalletStore {
    /// Stores a new pass with a fresh update tag; throws ``WalletStoreError/passExists(_:)`` when the
    /// key is taken, so issuing the same serial twice cannot silently replace a pass. Its event and
    /// audit row name `origin`; as in ``apply(_:in:)``, they are appended before the tags' lock,
    /// which then covers only the row, the counters and the commit.
    ///
    /// The row goes in only while the pass's template version is still current
    /// (``versionIsCurrent``, read under the tags' lock), else
    /// ``WalletStoreError/templateVersionSuperseded(template:version:)`` and nothing is written.
    public func createPass(_ pass: NewPass, origin: WriteOrigin = .api) async throws -> StoredPass {
        let now = clock.nowMilliseconds()
        do {
            return try await database.transaction { transaction in
                let counts = try await self.insertEvents([Self.issueEvent(pass, actor: origin.actor)], at: now, in: transaction)
                try await self.appendAudit([Self.issueAudit(pass)], by: origin, at: now, in: transaction)
                let tag = try await Self.nextUpdateTag(transaction)
                // Columns other than text are cast: a parameter's type is not taken from the column in
                // `INSERT … SELECT` as it is in `VALUES`.
                let rows = try await transaction.query(SQL(
                    unsafeText: """
                    INSERT INTO passes (pass_type_identifier, serial_number, template, data, overrides, authentication_token,
                                        update_tag, voided, created_at, updated_at, template_version, expires_at)
                    SELECT ?, ?, ?, ?, ?, ?, CAST(? AS BIGINT), CAST(? AS BOOLEAN), CAST(? AS BIGINT), CAST(? AS BIGINT),
                           CAST(? AS BIGINT), CAST(? AS BIGINT)
                    WHERE \(Self.versionIsCurrent)
                    RETURNING pass_type_identifier, serial_number, template, data, overrides, authentication_token,
                              update_tag, voided, created_at, updated_at, template_version, last_notified_at
                    """,
                    parameters: [
                        .text(pass.key.passTypeIdentifier), .text(pass.key.serialNumber), .text(pass.template), .text(pass.data),
                        .text(pass.overrides), .text(pass.authenticationToken), .integer(tag), .integer(pass.voided ? 1 : 0),
                        .integer(now), .integer(now), .integer(pass.templateVersion), pass.expiresAt.map { .integer(Milliseconds.of($0)) } ?? .null,
                    ] + Self.versionIsCurrentParameters(pass)))
                guard let row = rows.first else {
                    throw WalletStoreError.templateVersionSuperseded(template: pass.template, version: pass.templateVersion)
                }
                try await self.addRollups(counts, at: now, in: transaction)
                return try StoredPass(row: row)
            }
        } catch let error as StorageError where error.isUniqueViolation {
            throw WalletStoreError.passExists(pass.key)
        } catch let error as StorageError {
            throw WalletStoreError.database(operation: "create the pass \(pass.key)", error: error)
        }
    }

    /// The condition that a new pass's template version is still its template's current one (three
    /// parameters: ``versionIsCurrentParameters(_:)``), checked by the statement that stores it,
    /// after the tags' lock. Publishing a version takes that lock too
    /// (``saveTemplateVersion(_:)``), so either the pass commits first and the roll-out that
    /// follows the new version moves it, or the version does and the pass is built again from it:
    /// read before the transaction, it could be stored at a version a roll-out had already passed,
    /// and stay there until the next. (Version 0, a pass from before versions, goes in as it is:
    /// every roll-out moves such passes.)
    static let versionIsCurrent = """
        (CAST(? AS BIGINT) = 0 OR EXISTS (SELECT 1 FROM templates WHERE name = ? AND current_version = CAST(? AS BIGINT)))
        """

    /// The parameters of ``versionIsCurrent`` for `pass`.
    static func versionIsCurrentParameters(_ pass: NewPass) -> [SQLValue] {
        [.integer(pass.templateVersion), .text(pass.template), .integer(pass.templateVersion)]
    }

    /// The `pass.issued` event of `pass`, issued by `actor`: its template version and whether it is void.
    static func issueEvent(_ pass: NewPass, actor: String) -> WalletEventDraft {
        WalletEventDraft(
            type: .passIssued, pass: pass.key, template: pass.template, actor: actor,
            payload: ["templateVersion": .number(Double(pass.templateVersion)), "voided": .bool(pass.voided)])
    }

    /// The audit row of issuing `pass`: the names of its record's top-level keys, not their values.
    static func issueAudit(_ pass: NewPass) -> AuditDraft {
        AuditDraft(action: "pass.issue", target: AuditDraft.pass(pass.key), changes: (JSONMembers.changedKeys(from: "{}", to: pass.data) ?? []).map { "data." + $0 })
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

    /// One page of a template's passes in serial order, starting after `after` (keyset paging stays
    /// fast and stable however many passes are added meanwhile). Pass the last key of a page to get
    /// the next; a page shorter than `limit` is the last.
    public func passes(template: String, after: PassKey? = nil, limit: Int = 100) async throws -> [StoredPass] {
        precondition(limit >= 1, "a page holds at least one pass")
        return try await storing("list the passes of the template \(template)") {
            try await database.query(Self.templatePageQuery(template, behind: nil, after: after, limit: limit, engine: database.engine))
                .map(StoredPass.init(row:))
        }
    }

    /// One page of a template's passes (those behind `version` whose move to it is not held, with a
    /// version), in serial then pass type order after `after`: the order of `passes_template_serial`,
    /// which the search reads too, so the page is a range of that index and the passes need no other
    /// index by template (an index holding the version would be written again for every pass a
    /// roll-out moves, and keep PostgreSQL from updating the passes in place).
    static func templatePageQuery(_ template: String, behind version: Int64?, after: PassKey?, limit: Int, engine: DatabaseEngine) -> SQL {
        // Byte order on PostgreSQL too, whatever the database's collation: the index is built so.
        let collate = engine == .postgres ? #" COLLATE "C""# : ""
        let serial = "serial_number" + collate, type = "pass_type_identifier" + collate
        var conditions = ["template = ?"]
        var parameters: [SQLValue] = [.text(template)]
        if let version {
            conditions += ["template_version < ?", notHeldAtVersion]
            parameters += [.integer(version), .integer(version)]
        }
        if let after {
            conditions.append("(\(serial), \(type)) > (?, ?)")
            parameters += [.text(after.serialNumber), .text(after.passTypeIdentifier)]
        }
        parameters.append(.integer(Int64(limit)))
        // Only the fixed fragments above are concatenated; every value is a parameter.
        return SQL(
            unsafeText: """
            SELECT \(StoredPass.columns) FROM passes
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY \(serial), \(type)
            LIMIT ?
            """,
            parameters: parameters)
    }

    /// How many passes each template has: summed from the counts per version the database keeps
    /// (``WalletSchema/heapOnlyPassUpdates``), not counted from the passes (0.6 s of PostgreSQL at a
    /// million passes, on every template upload).
    public func templateCounts() async throws -> [String: Int] {
        try await storing("count the passes per template") {
            var counts: [String: Int] = [:]
            for row in try await database.query(SQL(
                """
                SELECT template, CAST(SUM(passes) AS BIGINT) AS count FROM template_version_passes
                GROUP BY template HAVING SUM(passes) > 0
                """)) {
                counts[try row.string("template")] = try row.int("count")
            }
            return counts
        }
    }

    /// The passes with `keys` (at most ``maximumWriteBatch``) that exist, by key.
    public func passes(_ keys: [PassKey]) async throws -> [PassKey: StoredPass] {
        try await storing("read \(keys.count) passes") {
            try await PassKeyRows.select(StoredPass.self, columns: StoredPass.columns, from: "passes", keys: keys) {
                try await database.query($0)
            }
        }
    }
}
