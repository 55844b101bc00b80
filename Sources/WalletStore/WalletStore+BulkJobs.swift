import Foundation
import PassModel
import Storage

/// Bulk issuing jobs: the upload's records, the leases workers of every instance take on them, and
/// their settlement, which inserts the passes and moves the job's counters in one transaction.
extension WalletStore {
    /// Records per insert while an upload is read: one transaction each, so a huge upload never holds
    /// the writer for long.
    public static let bulkRecordInsertBatch = 500

    /// Starts a job in the `receiving` state, before its records are read; audited as `job.create`
    /// by `origin`. Its passes are issued by the job itself (`job <id>`, source `system`).
    public func createBulkJob(id: String, template: String, format: String, validation: BulkValidation, origin: WriteOrigin) async throws {
        let now = clock.nowMilliseconds()
        try await storing("create the bulk job \(id)") {
            try await database.transaction { transaction in
                _ = try await transaction.execute(SQL(
                    """
                    INSERT INTO bulk_jobs (id, template, format, validation, state, actor, created_at, updated_at)
                    VALUES (?, ?, ?, ?, 'receiving', ?, ?, ?)
                    """, .text(id), .text(template), .text(format), .text(validation.rawValue), .text(origin.actor), .integer(now), .integer(now)))
                try await self.appendAudit([AuditDraft(action: "job.create", target: "job \(id)", changes: [])], by: origin, at: now, in: transaction)
            }
        }
    }

    /// Stores a batch of the upload's records (up to ``bulkRecordInsertBatch``): readable ones
    /// `pending`, unreadable ones `failed` with their errors; the job's last line moves with them.
    public func addBulkRecords(job: String, _ drafts: [BulkRecordDraft]) async throws {
        guard !drafts.isEmpty else { return }
        var parameters: [SQLValue] = []
        for draft in drafts {
            parameters += [
                .text(job), .integer(Int64(draft.line)), .text(draft.serialNumber), draft.record.map(SQLValue.text) ?? .null,
                .text(draft.record == nil ? "failed" : "pending"), draft.errors.map(SQLValue.text) ?? .null,
            ]
        }
        let last = Int64(drafts.map(\.line).max() ?? 0)
        // Only placeholders are repeated; every value is a parameter.
        let insert = SQL(
            unsafeText: "INSERT INTO bulk_job_records (job_id, line, serial_number, record, state, errors) VALUES \(SQL.list("(?, ?, ?, ?, ?, ?)", count: drafts.count))",
            parameters: parameters)
        try await storing("store \(drafts.count) records of the bulk job \(job)") {
            try await database.transaction { transaction in
                _ = try await transaction.execute(insert)
                _ = try await transaction.execute(SQL(
                    "UPDATE bulk_jobs SET last_line = CASE WHEN last_line < ? THEN ? ELSE last_line END WHERE id = ?", .integer(last), .integer(last), .text(job)))
            }
        }
    }

    /// The upload is in: the job counts `records` records, `unreadable` of them failed already, and
    /// workers may take it. A job validating first with unreadable lines is rejected at once; one
    /// with nothing to issue completes at once. Returns the job as it now is.
    public func openBulkJob(_ id: String, records: Int, unreadable: Int) async throws -> BulkJob {
        let now = clock.nowMilliseconds()
        return try await storing("open the bulk job \(id)") {
            try await database.transaction { transaction in
                let rows = try await transaction.query(SQL(
                    """
                    UPDATE bulk_jobs SET records = ?, failed = ?, updated_at = ?,
                        state = CASE WHEN validation = 'first' THEN 'validating' ELSE 'issuing' END
                    WHERE id = ? AND state = 'receiving' RETURNING id, template, format, validation, state, records, issued, failed, validated, actor, created_at, started_at, finished_at, updated_at
                    """, .integer(Int64(records)), .integer(Int64(unreadable)), .integer(now), .text(id)))
                guard let row = rows.first else { throw WalletStoreError.bulkJobNotFound(id) }
                if transaction.engine == .postgres {
                    // Wakes the workers of every instance when this commits.
                    _ = try await transaction.query(SQL("SELECT pg_notify(?, '')", .text(Self.bulkJobChannel)))
                }
                return try await self.finishBulkJobIfDone(try BulkJob(row: row), at: now, rejecting: unreadable > 0, in: transaction)
            }
        }
    }

    /// Claims up to `limit` open records of one job for `instance` under a lease: the records of
    /// validating jobs to check, those of issuing jobs to issue. Lines behind the job's claim cursor
    /// that are open and unleased (a lease that lapsed because its holder died, a batch released) are
    /// taken over first, so a dead instance's records wait for their lease, not for the job's end;
    /// then lines past the cursor, in line order. On PostgreSQL the rows are locked with
    /// `SKIP LOCKED`, so instances claiming at once never share a record.
    public func claimBulkRecords(instance: String, limit: Int, lease: Duration) async throws -> [BulkClaim] {
        let now = clock.nowMilliseconds()
        return try await storing("claim bulk job records") {
            try await database.transaction { transaction in
                // Open jobs are few; one whose records other instances hold all is passed over.
                let jobs = try await transaction.query(SQL(
                    "SELECT id, state, claimed_through, last_line FROM bulk_jobs WHERE state IN ('issuing', 'validating') ORDER BY id"))
                for row in jobs {
                    let job = try row.string("id")
                    let validating = try row.string("state") == BulkJobState.validating.rawValue
                    let lastLine = try row.int64("last_line")
                    let start = try row.int64("claimed_through")
                    var cursor = start
                    // Behind the cursor the only open lines are those leased (a claim's worth per
                    // instance at work) and those to take over: a short range of the open records' index.
                    var lines = start > 0
                        ? try await Self.claimableLines(job: job, validating: validating, after: 0, through: start, now: now, limit: limit, in: transaction)
                        : []
                    // Ahead of the cursor, a window at a time (a run of lines unreadable at upload holds none).
                    while lines.isEmpty && cursor < lastLine {
                        lines = try await Self.claimableLines(
                            job: job, validating: validating, after: cursor, through: cursor + Self.claimWindow, now: now, limit: limit, in: transaction)
                        if lines.isEmpty { cursor = min(cursor + Self.claimWindow, lastLine) }
                    }
                    // The cursor also passes windows found empty, so the next claim does not search them again.
                    let reached = max(cursor, lines.max() ?? 0)
                    guard !lines.isEmpty else {
                        if reached > start {
                            _ = try await transaction.execute(SQL(
                                "UPDATE bulk_jobs SET claimed_through = CASE WHEN claimed_through < ? THEN ? ELSE claimed_through END WHERE id = ?",
                                .integer(reached), .integer(reached), .text(job)))
                        }
                        continue
                    }
                    _ = try await transaction.execute(SQL(
                        """
                        UPDATE bulk_jobs SET started_at = COALESCE(started_at, ?),
                            claimed_through = CASE WHEN claimed_through < ? THEN ? ELSE claimed_through END
                        WHERE id = ?
                        """, .integer(now), .integer(reached), .integer(reached), .text(job)))
                    return try await transaction.query(Self.leaseStatement(job: job, lines: lines, instance: instance, until: now + Milliseconds.of(lease)))
                        .map(BulkClaim.init(row:)).sorted { $0.line < $1.line }
                }
                return []
            }
        }
    }

    /// Lines a claim searches at once past the cursor: the index range it reads, whatever the job's
    /// size; several instances' claims of 200 fit in one.
    static let claimWindow: Int64 = 2_000

    /// The first `limit` claimable lines of `job` in `after+1 … through` (open, and not leased or their
    /// lease lapsed), locked with `SKIP LOCKED` on PostgreSQL.
    static func claimableLines(
        job: String, validating: Bool, after: Int64, through: Int64, now: Int64, limit: Int, in transaction: Transaction
    ) async throws -> [Int64] {
        try await transaction.query(claimableStatement(job: job, validating: validating, after: after, through: through, now: now, limit: limit, engine: transaction.engine))
            .map { try $0.int64("line") }
    }

    /// The statement of ``claimableLines(job:validating:after:through:now:limit:in:)``. The line range
    /// is an index condition whatever the planner estimates (``BulkClaimPlanTests``); the state tests
    /// are literals, so the plan can use the open records' partial index.
    static func claimableStatement(job: String, validating: Bool, after: Int64, through: Int64, now: Int64, limit: Int, engine: DatabaseEngine) -> SQL {
        let open = validating ? "state = 'pending'" : "state IN ('pending', 'valid')"
        let lock = engine == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
        // Only fixed fragments are concatenated; every value is a parameter.
        return SQL(
            unsafeText: """
            SELECT line FROM bulk_job_records
            WHERE job_id = ? AND line > ? AND line <= ? AND \(open) AND (lease_until IS NULL OR lease_until < ?)
            ORDER BY line LIMIT ?\(lock)
            """,
            parameters: [.text(job), .integer(after), .integer(through), .integer(now), .integer(Int64(limit))])
    }

    /// Leases the records `lines` of `job` to `instance` until `until`, returning them as claims.
    ///
    /// The lines' range bounds the index scan: with the `IN` list alone PostgreSQL's generic plan
    /// (a prepared statement's, before the table has statistics) read every record of the job for
    /// each claim, 40 ms a claim at 20,000 records (``BulkClaimPlanTests``).
    static func leaseStatement(job: String, lines: [Int64], instance: String, until: Int64) -> SQL {
        // Only placeholders are repeated; every value is a parameter.
        SQL(
            unsafeText: """
            UPDATE bulk_job_records SET lease_owner = ?, lease_until = ?
            WHERE job_id = ? AND line BETWEEN ? AND ? AND line IN (\(SQL.placeholders(lines.count)))
            RETURNING job_id, line, serial_number, record,
                (SELECT template FROM bulk_jobs WHERE id = bulk_job_records.job_id) AS template,
                (SELECT state FROM bulk_jobs WHERE id = bulk_job_records.job_id) AS job_state
            """,
            parameters: [.text(instance), .integer(until), .text(job), .integer(lines.min() ?? 0), .integer(lines.max() ?? 0)]
                + lines.map(SQLValue.integer))
    }

    /// Settles claimed records of one job in one transaction: inserts the passes to issue (one
    /// `pass.issued` event each; a serial number taken already, or by an earlier record of the batch,
    /// fails its record), marks each record, moves the job's counters and finishes the job when
    /// nothing is left. Throws ``WalletStoreError/leaseLost(_:)``, writing nothing, when a record's
    /// lease passed to another instance meanwhile, and
    /// ``WalletStoreError/templateVersionSuperseded(template:version:)``, writing nothing, when the
    /// template version the passes were built from is no longer current. Returns the job as it now is.
    ///
    /// The passes go in with one multi-row `INSERT` and the records are marked with one `UPDATE` per
    /// batch: a statement per record cost PostgreSQL's jobs a round trip each, 1,700 records/s against
    /// SQLite's 14,900 (BENCHMARKS.md, "Bulk issuing over the API").
    @discardableResult
    public func settleBulkRecords(_ settlements: [BulkSettlement], instance: String) async throws -> BulkJob {
        guard let jobID = settlements.first?.claim.jobID else { throw WalletStoreError.bulkJobNotFound("") }
        let now = clock.nowMilliseconds()
        return try await storing("settle \(settlements.count) records of the bulk job \(jobID)") {
            try await database.transaction { transaction in
                let passes = settlements.compactMap { settlement -> NewPass? in
                    if case .issue(let pass) = settlement.outcome { pass } else { nil }
                }
                let tag = passes.isEmpty ? 0 : try await Self.nextUpdateTag(transaction)
                try await Self.requireCurrentVersions(of: passes, in: transaction)
                var inserted = Set<PassKey>()
                for batch in passes.batches(of: Self.bulkSettlementBatch) {
                    inserted.formUnion(try await Self.insertIssued(batch, tag: tag, at: now, in: transaction))
                }
                var issued = 0, failed = 0, valid = 0
                var issuedPasses: [NewPass] = []
                var marks: [(line: Int, state: String, errors: String?)] = []
                for settlement in settlements {
                    switch settlement.outcome {
                    case .valid:
                        marks.append((settlement.claim.line, "valid", nil))
                        valid += 1
                    case .failed(let reasons):
                        marks.append((settlement.claim.line, "failed", reasons))
                        failed += 1
                    // The first record of the batch with a key took it; a later one with the same key fails.
                    case .issue(let pass) where inserted.remove(pass.key) != nil:
                        marks.append((settlement.claim.line, "issued", nil))
                        issuedPasses.append(pass)
                        issued += 1
                    case .issue(let pass):
                        marks.append((settlement.claim.line, "failed", Self.existsError(pass.key)))
                        failed += 1
                    }
                }
                try await self.appendEvents(issuedPasses.map { Self.issueEvent($0, actor: "job \(jobID)") }, at: now, in: transaction)
                try await self.appendAudit(issuedPasses.map(Self.issueAudit), by: .system("job \(jobID)"), at: now, in: transaction)
                // The job's counters first: the issued total numbers this batch's passes, so bundle N is
                // a seek to ordinals 10N-9…10N. (On PostgreSQL the row lock orders settlements of one job.)
                let rows = try await transaction.query(SQL(
                    """
                    UPDATE bulk_jobs SET issued = issued + ?, failed = failed + ?, validated = validated + ?, updated_at = ?
                    WHERE id = ? RETURNING id, template, format, validation, state, records, issued, failed, validated, actor, created_at, started_at, finished_at, updated_at
                    """, .integer(Int64(issued)), .integer(Int64(failed)), .integer(Int64(valid)), .integer(now), .text(jobID)))
                guard let row = rows.first else { throw WalletStoreError.bulkJobNotFound(jobID) }
                let job = try BulkJob(row: row)
                var ordinal = job.issued - issued
                let numbered = marks.map { mark -> (line: Int, state: String, errors: String?, ordinal: Int?) in
                    guard mark.state == "issued" else { return (mark.line, mark.state, mark.errors, nil) }
                    ordinal += 1
                    return (mark.line, mark.state, mark.errors, ordinal)
                }
                for batch in numbered.batches(of: Self.bulkSettlementBatch) {
                    let marked = try await Self.mark(batch, job: jobID, instance: instance, in: transaction)
                    guard marked == batch.count else { throw WalletStoreError.leaseLost("a record of the bulk job \(jobID)") }
                }
                return try await self.finishBulkJobIfDone(job, at: now, in: transaction)
            }
        }
    }

    /// Throws ``WalletStoreError/templateVersionSuperseded(template:version:)`` unless every template
    /// version `passes` were built from is still current (``versionIsCurrent``; one statement per
    /// version, and a batch is built from one): read under the tags' lock, as an issue's insert does.
    private static func requireCurrentVersions(of passes: [NewPass], in transaction: Transaction) async throws {
        var checked = Set<String>()
        for pass in passes where checked.insert("\(pass.templateVersion) \(pass.template)").inserted {
            let current = try await transaction.query(SQL(
                unsafeText: "SELECT 1 AS current WHERE \(versionIsCurrent)", parameters: versionIsCurrentParameters(pass)))
            guard !current.isEmpty else { throw WalletStoreError.templateVersionSuperseded(template: pass.template, version: pass.templateVersion) }
        }
    }

    /// Records per statement of a settlement: 12 parameters a pass, well under both engines' limits.
    private static let bulkSettlementBatch = 500

    /// Inserts `passes` under `tag` with one statement, skipping every key that is taken (by a stored
    /// pass, or by an earlier pass of the list); returns the keys inserted.
    private static func insertIssued(_ passes: ArraySlice<NewPass>, tag: Int64, at now: Int64, in transaction: Transaction) async throws -> Set<PassKey> {
        var parameters: [SQLValue] = []
        parameters.reserveCapacity(passes.count * 12)
        for pass in passes {
            parameters += [
                .text(pass.key.passTypeIdentifier), .text(pass.key.serialNumber), .text(pass.template), .text(pass.data),
                .text(pass.overrides), .text(pass.authenticationToken), .integer(tag), .integer(pass.voided ? 1 : 0), .integer(now), .integer(now),
                .integer(pass.templateVersion), pass.expiresAt.map { .integer(Milliseconds.of($0)) } ?? .null,
            ]
        }
        // Only placeholders are repeated; every value is a parameter.
        let rows = try await transaction.query(SQL(
            unsafeText: """
            INSERT INTO passes (pass_type_identifier, serial_number, template, data, overrides, authentication_token,
                                update_tag, voided, created_at, updated_at, template_version, expires_at)
            VALUES \(SQL.list("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: passes.count)) ON CONFLICT DO NOTHING
            RETURNING pass_type_identifier, serial_number
            """, parameters: parameters))
        return Set(try rows.map { PassKey(passTypeIdentifier: try $0.string("pass_type_identifier"), serialNumber: try $0.string("serial_number")) })
    }

    /// Marks settled records of `job` still leased to `instance` with one statement; returns how many
    /// it marked (fewer than given when a lease passed to another instance).
    private static func mark(
        _ marks: ArraySlice<(line: Int, state: String, errors: String?, ordinal: Int?)>, job: String, instance: String, in transaction: Transaction
    ) async throws -> Int {
        var parameters: [SQLValue] = []
        parameters.reserveCapacity(marks.count * 4 + 4)
        for mark in marks {
            parameters += [.integer(Int64(mark.line)), .text(mark.state), mark.errors.map(SQLValue.text) ?? .null, mark.ordinal.map { .integer(Int64($0)) } ?? .null]
        }
        // The lines' range bounds the scan, as in ``leaseStatement(job:lines:instance:until:)``.
        parameters += [.text(job), .integer(Int64(marks.map(\.line).min() ?? 0)), .integer(Int64(marks.map(\.line).max() ?? 0)), .text(instance)]
        // Only placeholders are repeated; every value is a parameter.
        return try await transaction.execute(SQL(
            unsafeText: """
            WITH marks (line, state, errors, issued_ordinal) AS (VALUES \(SQL.list("(?, ?, ?, ?)", count: marks.count)))
            UPDATE bulk_job_records SET state = marks.state, errors = marks.errors, issued_ordinal = CAST(marks.issued_ordinal AS BIGINT),
                lease_owner = NULL, lease_until = NULL
            FROM marks
            WHERE bulk_job_records.job_id = ? AND bulk_job_records.line BETWEEN ? AND ? AND bulk_job_records.line = CAST(marks.line AS BIGINT)
              AND bulk_job_records.lease_owner = ? AND bulk_job_records.state IN ('pending', 'valid')
            """, parameters: parameters))
    }

    private static func existsError(_ key: PassKey) -> String {
        let message = "a pass with the serial number \(key.serialNumber) exists already"
        return String(decoding: JSONValue.array([.object(["path": .string("serialNumber"), "message": .string(message)])]).serialized(sortedKeys: true), as: UTF8.self)
    }

    /// Moves a job on when its records are all settled: a validating job to issuing (or rejected, when
    /// any record failed), an issuing job to completed, each finish with a `job.finished` event. A
    /// validating job is rejected at once when `rejecting` (its upload had unreadable lines).
    private func finishBulkJobIfDone(_ job: BulkJob, at now: Int64, rejecting: Bool = false, in transaction: Transaction) async throws -> BulkJob {
        let next: BulkJobState
        switch job.state {
        case .validating where rejecting:
            next = .rejected
        case .validating where job.validated + job.failed >= job.records:
            next = job.failed > 0 ? .rejected : .issuing
        case .issuing where job.issued + job.failed >= job.records:
            next = .completed
        default:
            return job
        }
        let finished = next.isFinished ? now : nil
        // A job validated whole issues its records from the first line again: the claim cursor restarts.
        let rows = try await transaction.query(SQL(
            "UPDATE bulk_jobs SET state = ?, finished_at = ?, updated_at = ?, claimed_through = 0 WHERE id = ? RETURNING id, template, format, validation, state, records, issued, failed, validated, actor, created_at, started_at, finished_at, updated_at",
            .text(next.rawValue), finished.map(SQLValue.integer) ?? .null, .integer(now), .text(job.id)))
        let moved = try BulkJob(row: rows[0])
        if next.isFinished {
            try await appendEvents([WalletEventDraft(
                type: .jobFinished, template: job.template, actor: job.actor,
                payload: ["job": .string(job.id), "state": .string(next.rawValue), "records": .number(Double(job.records)),
                          "issued": .number(Double(job.issued)), "failed": .number(Double(job.failed))])], at: now, in: transaction)
        }
        return moved
    }

    /// The job with `id`, or `nil`.
    public func bulkJob(_ id: String) async throws -> BulkJob? {
        try await storing("read the bulk job \(id)") {
            try await database.query(SQL("SELECT id, template, format, validation, state, records, issued, failed, validated, actor, created_at, started_at, finished_at, updated_at FROM bulk_jobs WHERE id = ?", .text(id))).first.map(BulkJob.init(row:))
        }
    }

    /// The newest jobs first.
    public func bulkJobs(limit: Int) async throws -> [BulkJob] {
        try await storing("list bulk jobs") {
            try await database.query(SQL(
                "SELECT id, template, format, validation, state, records, issued, failed, validated, actor, created_at, started_at, finished_at, updated_at FROM bulk_jobs ORDER BY created_at DESC, id DESC LIMIT ?", .integer(Int64(limit)))).map(BulkJob.init(row:))
        }
    }

    /// Up to `limit` result lines of a job after line `after`, in line order; only the failed ones
    /// with `failedOnly`.
    ///
    /// Read a range of lines at a time up to the job's last line, like a claim: asked for the lines
    /// after `after` alone, PostgreSQL's generic plan read and sorted every record of the job for each
    /// page (22–87 ms a page of 10,000 at 100,000 records).
    public func bulkResults(job: String, after: Int, limit: Int, failedOnly: Bool = false) async throws -> [BulkResult] {
        try await storing("read the results of the bulk job \(job)") {
            guard let row = try await database.query(SQL("SELECT last_line FROM bulk_jobs WHERE id = ?", .text(job))).first else { return [] }
            let last = try row.int64("last_line")
            let window = Int64(max(2 * limit, Int(Self.claimWindow)))
            var results: [BulkResult] = []
            var from = Int64(after)
            while results.count < limit && from < last {
                let through = min(from + window, last)
                results += try await database.query(Self.resultsStatement(job: job, after: from, through: through, limit: limit - results.count, failedOnly: failedOnly))
                    .map(BulkResult.init(row:))
                from = through
            }
            return results
        }
    }

    /// The statement of one range of ``bulkResults(job:after:limit:failedOnly:)``; the range is an
    /// index condition whatever the planner estimates (``BulkClaimPlanTests``).
    static func resultsStatement(job: String, after: Int64, through: Int64, limit: Int, failedOnly: Bool) -> SQL {
        SQL(
            """
            SELECT line, serial_number, state, errors, issued_ordinal FROM bulk_job_records
            WHERE job_id = ? AND line > ? AND line <= ? AND (? = 0 OR state = 'failed') ORDER BY line LIMIT ?
            """, .text(job), .integer(after), .integer(through), .integer(failedOnly ? 1 : 0), .integer(Int64(limit)))
    }

    /// The serial numbers of a job's issued passes numbered `first` to `last` (in the order they were
    /// issued, from 1): one bundle's worth, an index seek however large the job.
    public func bulkIssuedSerials(job: String, ordinals: ClosedRange<Int>) async throws -> [String] {
        try await storing("read the passes of the bulk job \(job)") {
            try await database.query(SQL(
                """
                SELECT serial_number FROM bulk_job_records
                WHERE job_id = ? AND issued_ordinal BETWEEN ? AND ? ORDER BY issued_ordinal
                """, .text(job), .integer(Int64(ordinals.lowerBound)), .integer(Int64(ordinals.upperBound)))).map { try $0.string("serial_number") }
        }
    }

    /// Deletes up to `limit` jobs (their records with them) created before `cutoff` that finished, or
    /// never finished receiving their upload; returns how many.
    public func pruneBulkJobs(before cutoff: Date, limit: Int = 20) async throws -> Int {
        try await storing("prune bulk jobs") {
            try await database.execute(SQL(
                """
                DELETE FROM bulk_jobs WHERE id IN (
                    SELECT id FROM bulk_jobs WHERE created_at < ? AND state IN ('completed', 'rejected', 'receiving') ORDER BY created_at LIMIT ?)
                """, .integer(Milliseconds.of(cutoff)), .integer(Int64(limit))))
        }
    }

    /// The PostgreSQL channel a job's opening is announced on.
    static let bulkJobChannel = "passwright_bulk_jobs"

    /// Calls `heard` whenever an instance opens a job (PostgreSQL only).
    public func listenForBulkJobs(_ heard: @escaping @Sendable () -> Void) async throws {
        try await storing("listen for bulk jobs") {
            try await database.listen(on: Self.bulkJobChannel, notified: heard)
        }
    }
}
