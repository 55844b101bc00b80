import PassModel
import Storage

extension WalletStore {
    /// The passes the devices of `jobs` will fetch once pushed: each job's device's passes of its type
    /// changed since the job was first queued (the change that queued it moved the pass's
    /// `updated_at` to that moment or later). What the push worker signs before it wakes the devices;
    /// a pass two of the jobs' devices hold is returned once. Order pushes find none (their
    /// registrations are not pass registrations).
    ///
    /// One statement for the whole batch: the jobs as a `VALUES` list joined to the registrations
    /// primary key (device, type, serial), then each pass by its own key, as the device's own list
    /// call walks them.
    public func passesToRefresh(after jobs: [PushJob]) async throws -> [StoredPass] {
        guard !jobs.isEmpty else { return [] }
        return try await storing("read the passes \(jobs.count) pushes will refresh") {
            var passes: [StoredPass] = []
            var seen = Set<PassKey>()
            for batch in jobs.batches(of: Self.maximumWriteBatch) {
                let rows = try await database.query(Self.passesToRefreshQuery(batch))
                for row in rows {
                    let pass = try StoredPass(row: row)
                    if seen.insert(pass.key).inserted { passes.append(pass) }
                }
            }
            return passes
        }
    }

    /// The statement behind ``passesToRefresh(after:)`` for one batch of jobs, on its own so that tests
    /// can ask each engine for its plan: a search of the registrations primary key per job and of the
    /// passes primary key per registration, never a scan (it runs once per 128 pushes of a wave).
    static func passesToRefreshQuery(_ jobs: ArraySlice<PushJob>) -> SQL {
        // PostgreSQL types an untyped VALUES column as text, so the time is cast to compare with `updated_at`.
        let list = SQL.list("(?, ?, CAST(? AS BIGINT))", count: jobs.count)
        let columns = StoredPass.columns.split(separator: ",").map { "passes." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }.joined(separator: ", ")
        // Only fixed fragments and placeholders are concatenated; every value is a parameter.
        return SQL(
            unsafeText: """
                SELECT \(columns) FROM (VALUES \(list)) AS wanted
                JOIN registrations ON registrations.device_library_identifier = wanted.column1
                                  AND registrations.pass_type_identifier = wanted.column2
                JOIN passes ON passes.pass_type_identifier = registrations.pass_type_identifier
                           AND passes.serial_number = registrations.serial_number
                WHERE passes.updated_at >= wanted.column3
                """,
            parameters: jobs.flatMap {
                [SQLValue.text($0.deviceLibraryIdentifier), .text($0.passTypeIdentifier), .integer(Milliseconds.of($0.enqueuedAt))]
            })
    }
}
