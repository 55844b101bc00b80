internal import CPostgres

extension PostgresHandle {
    /// Sends `BEGIN` and a prepared statement in one round trip (libpq's pipeline mode) and returns
    /// the statement's result: a transaction's opening costs no wait of its own.
    ///
    /// Every result is read up to the pipeline's sync point before leaving pipeline mode, so the
    /// connection is back in its ordinary state whatever failed. A failed `BEGIN` is the error
    /// reported (the statement was then skipped by the server).
    func beginAndExecute(
        prepared name: String, values: [UnsafePointer<CChar>?], lengths: [Int32], formats: [Int32], sql: String
    ) throws -> PostgresResult {
        guard PQenterPipelineMode(pointer) == 1 else {
            throw StorageError.statementFailed(engine: .postgres, sql: sql, code: "08006", message: lastMessage)
        }
        let sent = PQsendQueryParams(pointer, "BEGIN", 0, nil, nil, nil, nil, 0) == 1
            && PQsendQueryPrepared(pointer, name, Int32(values.count), values, lengths, formats, 0) == 1
            && PQpipelineSync(pointer) == 1
        let failureMessage = sent ? nil : lastMessage
        var results: [OpaquePointer] = []
        // Each query's result is followed by a NULL, then comes the sync's own result; a broken
        // connection gives NULLs only, so a bounded number of them ends the wait.
        var nulls = 0
        while nulls < 4 {
            guard let result = PQgetResult(pointer) else {
                nulls += 1
                if !isConnected { break }
                continue
            }
            if PQresultStatus(result) == PGRES_PIPELINE_SYNC {
                PQclear(result)
                break
            }
            results.append(result)
        }
        PQexitPipelineMode(pointer)
        guard failureMessage == nil, results.count == 2 else {
            results.forEach { PQclear($0) }
            throw StorageError.statementFailed(engine: .postgres, sql: sql, code: "08006", message: failureMessage ?? lastMessage)
        }
        do {
            _ = try PostgresSession.check(results[0], sql: "BEGIN", on: self)
        } catch {
            PQclear(results[1])
            throw error
        }
        return try PostgresSession.check(results[1], sql: sql, on: self)
    }
}
