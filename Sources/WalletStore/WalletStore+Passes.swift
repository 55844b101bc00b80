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
                                        update_tag, voided, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    RETURNING pass_type_identifier, serial_number, template, data, overrides, authentication_token,
                              update_tag, voided, created_at, updated_at
                    """,
                    .text(pass.key.passTypeIdentifier), .text(pass.key.serialNumber), .text(pass.template), .text(pass.data),
                    .text(pass.overrides), .text(pass.authenticationToken), .integer(tag), .integer(pass.voided ? 1 : 0),
                    .integer(now), .integer(now)
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
                       update_tag, voided, created_at, updated_at
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
                       update_tag, voided, created_at, updated_at
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

    /// Updates one pass: `change` runs inside the write transaction on the current row, so the caller
    /// can merge and re-validate against exactly what it replaces.
    ///
    /// A `nil` or equal change writes nothing. Otherwise the pass gets a new tag and modification
    /// time, and one push per registered device is queued (coalesced with any pending one), all in
    /// one transaction. An error thrown by `change` rolls back and is rethrown unchanged.
    public func updatePass(_ key: PassKey, _ change: @Sendable (StoredPass) throws -> PassChange?) async throws -> UpdateOutcome {
        try await storing("update the pass \(key)") {
            try await database.transaction { transaction in
                let rows = try await transaction.query(transaction.engine == .postgres
                    ? SQL(
                        """
                        SELECT pass_type_identifier, serial_number, template, data, overrides, authentication_token,
                               update_tag, voided, created_at, updated_at
                        FROM passes WHERE pass_type_identifier = ? AND serial_number = ?
                        FOR NO KEY UPDATE
                        """,
                        .text(key.passTypeIdentifier), .text(key.serialNumber))
                    : SQL(
                        """
                        SELECT pass_type_identifier, serial_number, template, data, overrides, authentication_token,
                               update_tag, voided, created_at, updated_at
                        FROM passes WHERE pass_type_identifier = ? AND serial_number = ?
                        """,
                        .text(key.passTypeIdentifier), .text(key.serialNumber)))
                guard let row = rows.first else { throw WalletStoreError.passNotFound(key) }
                let current = try StoredPass(row: row)
                let applied = try await self.apply([(current, try change(current))], in: transaction)
                return UpdateOutcome(pass: applied.passes.first ?? current, changed: !applied.passes.isEmpty, pushesQueued: applied.pushesQueued)
            }
        }
    }

    /// Updates every pass of `template` in one transaction: all changes commit together or, when
    /// `change` throws for any pass, none does. Changed passes share one new tag, and each device gets
    /// one push per pass type however many of its passes changed.
    public func updatePasses(template: String, _ change: @Sendable (StoredPass) throws -> PassChange?) async throws -> TemplateUpdateOutcome {
        try await storing("update the passes of the template \(template)") {
            try await database.transaction { transaction in
                let rows = try await transaction.query(transaction.engine == .postgres
                    ? SQL(
                        """
                        SELECT pass_type_identifier, serial_number, template, data, overrides, authentication_token,
                               update_tag, voided, created_at, updated_at
                        FROM passes WHERE template = ?
                        ORDER BY pass_type_identifier, serial_number
                        FOR NO KEY UPDATE
                        """,
                        .text(template))
                    : SQL(
                        """
                        SELECT pass_type_identifier, serial_number, template, data, overrides, authentication_token,
                               update_tag, voided, created_at, updated_at
                        FROM passes WHERE template = ?
                        ORDER BY pass_type_identifier, serial_number
                        """,
                        .text(template)))
                let passes = try rows.map(StoredPass.init(row:))
                let changes = try passes.map { ($0, try change($0)) }
                let applied = try await self.apply(changes, in: transaction)
                return TemplateUpdateOutcome(matched: passes.count, changed: applied.passes.count, pushesQueued: applied.pushesQueued)
            }
        }
    }
}
