internal import CPostgres
import Foundation

/// One call of a pipeline: a statement without parameters (`BEGIN`, `COMMIT`), or a prepared one.
enum PostgresCall {
    case command(String)
    case prepared(PostgresBoundStatement)

    /// The statement as written, for errors.
    var sql: String {
        switch self {
        case .command(let text): text
        case .prepared(let statement): statement.sql
        }
    }
}

/// A prepared statement's server-side name with its parameter values, owned until it has been sent:
/// a statement deferred to the next round trip (``PostgresSession/executeLater(_:)``) outlives the
/// call that bound it.
final class PostgresBoundStatement {
    /// The statement as written (with `?` placeholders), for errors.
    let sql: String
    let name: String
    let values: [UnsafeMutablePointer<CChar>?]
    let lengths: [Int32]
    let formats: [Int32]

    init(sql: String, name: String, values: [UnsafeMutablePointer<CChar>?], lengths: [Int32], formats: [Int32]) {
        (self.sql, self.name, self.values, self.lengths, self.formats) = (sql, name, values, lengths, formats)
    }

    deinit {
        values.forEach { free($0) }
    }

    /// Sends the statement on `handle` (in pipeline mode: queues it); whether libpq took it.
    fileprivate func send(on handle: PostgresHandle) -> Bool {
        let borrowed = values.map { UnsafePointer($0) }
        return PQsendQueryPrepared(handle.pointer, name, Int32(values.count), borrowed, lengths, formats, 0) == 1
    }
}

extension PostgresHandle {
    /// Sends `calls` in one round trip (libpq's pipeline mode) and returns their results in order: a
    /// transaction's `BEGIN`, the statements whose results nobody waited for, and the one that is
    /// waited for, or the `COMMIT`, cost one wait instead of one each.
    ///
    /// Every result is read up to the pipeline's sync point before leaving pipeline mode, so the
    /// connection is back in its ordinary state whatever failed. After a failed call the server skips
    /// the rest (their results are "aborted"); the caller checks the results in order, so the first
    /// failure is the error reported. A connection that breaks is reported as such.
    func pipeline(_ calls: [PostgresCall]) throws -> [PostgresResult] {
        let last = calls.last?.sql ?? ""
        guard PQenterPipelineMode(pointer) == 1 else {
            throw StorageError.statementFailed(engine: .postgres, sql: last, code: "08006", message: lastMessage)
        }
        var sent = true
        for call in calls where sent {
            switch call {
            case .command(let text): sent = PQsendQueryParams(pointer, text, 0, nil, nil, nil, nil, 0) == 1
            case .prepared(let statement): sent = statement.send(on: self)
            }
        }
        sent = sent && PQpipelineSync(pointer) == 1
        let failureMessage = sent ? nil : lastMessage
        var results: [PostgresResult] = []
        // Each call's result is followed by a NULL, then comes the sync's own result; a broken
        // connection gives NULLs only, so a bounded number of them in a row ends the wait.
        var nulls = 0
        while nulls < 4 {
            guard let result = PQgetResult(pointer) else {
                nulls += 1
                if !isConnected { break }
                continue
            }
            nulls = 0
            if PQresultStatus(result) == PGRES_PIPELINE_SYNC {
                PQclear(result)
                break
            }
            results.append(PostgresResult(adopting: result))
        }
        PQexitPipelineMode(pointer)
        guard failureMessage == nil, results.count == calls.count else {
            throw StorageError.statementFailed(engine: .postgres, sql: last, code: "08006", message: failureMessage ?? lastMessage)
        }
        return results
    }
}
