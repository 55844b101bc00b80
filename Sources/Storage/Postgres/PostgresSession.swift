internal import CPostgres
import Foundation

/// One libpq connection that reconnects when broken: the blocking calls of ``PostgresConnection``
/// (on its queue) and of ``PostgresInlineSessions`` (on a daemon thread), used by one thread at a time.
final class PostgresSession: @unchecked Sendable {  // @unchecked: never shared; its owner (the connection's actor, or PostgresInlineSessions while lent) gives it to one thread at a time
    private let location: String
    private var handle: PostgresHandle?
    private var statements = PostgresStatements()
    /// `begin()` was called and no statement has run since: `BEGIN` travels with the first one.
    private var beginPending = false
    /// Statements of the open transaction whose results nobody waits for (``executeLater(_:)``):
    /// they travel with the next statement or the `COMMIT`.
    private var deferred: [PostgresBoundStatement] = []

    /// A session not connected yet; `location` is the URL without its password, for errors.
    init(location: String) {
        self.location = location
    }

    /// Connects to `url` (blocking until the server answers or refuses).
    func open(url: String) throws {
        handle = try PostgresHandle(url: url, location: location)
    }

    func execute(_ sql: SQL) throws -> Int {
        let result = try run(sql)
        return Int(String(cString: PQcmdTuples(result.pointer))) ?? 0
    }

    func query(_ sql: SQL) throws -> [Row] {
        let result = try run(sql)
        let pointer = result.pointer
        let fields = PQnfields(pointer)
        let columns = (0..<fields).map { String(cString: PQfname(pointer, $0)) }
        let types = (0..<fields).map { PQftype(pointer, $0) }
        return (0..<PQntuples(pointer)).map { row in
            Row(columns: columns, values: (0..<fields).map { field in
                Self.value(of: pointer, row: row, field: field, type: types[Int(field)])
            })
        }
    }

    /// Queues `sql` to go with the transaction's next statement or its `COMMIT`, in the same round
    /// trip; its failure fails that statement or the commit (and so the transaction). Prepared now,
    /// so a statement whose text or parameters do not fit fails here.
    func executeLater(_ sql: SQL) throws {
        deferred.append(try bind(sql, on: connectedHandle()))
    }

    /// Scripts are migrations: their schema changes may leave a prepared statement planned against
    /// a table that changed, so the prepared ones are dropped after.
    func executeScript(_ script: String) throws {
        try flush(then: nil)
        try command(script)
        try statements.forgetAll(on: connectedHandle())
    }

    /// Sends nothing yet: `BEGIN` goes out with the transaction's first statement, in one round trip.
    func begin() throws {
        beginPending = true
    }

    /// PostgreSQL answers `COMMIT` on a transaction aborted by an earlier error with a silent
    /// `ROLLBACK`; that is turned into an error so the caller never believes it committed.
    func commit() throws {
        // A transaction that ran no statement was never begun on the server.
        guard !beginPending || !deferred.isEmpty else {
            beginPending = false
            return
        }
        let handle = try connectedHandle()
        let result = deferred.isEmpty
            ? try Self.check(PQexec(handle.pointer, "COMMIT"), sql: "COMMIT", on: handle)
            : try flush(then: .command("COMMIT"))!
        guard String(cString: PQcmdStatus(result.pointer)) == "COMMIT" else {
            throw StorageError.statementFailed(engine: .postgres, sql: "COMMIT", code: "25P02", message: "the transaction was rolled back because a statement in it failed")
        }
    }

    func rollback() throws {
        // Deferred statements were never sent; a transaction whose `BEGIN` was not either is nothing
        // on the server.
        deferred = []
        guard !beginPending else {
            beginPending = false
            return
        }
        try command("ROLLBACK")
    }

    /// Sends what waits for the next round trip (`BEGIN`, deferred statements) followed by `final`,
    /// in one pipeline, and returns `final`'s result; the first failure among them is thrown. With
    /// nothing waiting, `final` alone is not sent here (nil).
    @discardableResult
    private func flush(then final: PostgresCall?) throws -> PostgresResult? {
        guard beginPending || !deferred.isEmpty else { return nil }
        let calls = (beginPending ? [PostgresCall.command("BEGIN")] : []) + deferred.map(PostgresCall.prepared) + (final.map { [$0] } ?? [])
        beginPending = false
        deferred = []
        let handle = try connectedHandle()
        let results = try handle.pipeline(calls)
        for (result, call) in zip(results, calls) { try Self.check(result, sql: call.sql, on: handle) }
        return final == nil ? nil : results.last
    }

    /// Runs statements without parameters and without preparing them.
    private func command(_ text: String) throws {
        let handle = try connectedHandle()
        _ = try Self.check(PQexec(handle.pointer, text), sql: text, on: handle)
    }

    func close() {
        handle = nil
    }

    /// The handle, reset first if the server dropped the connection since the last call.
    private func connectedHandle() throws -> PostgresHandle {
        guard let handle else { throw StorageError.closed(engine: .postgres) }
        if !handle.isConnected {
            PQreset(handle.pointer)
            statements.forget()
            guard handle.isConnected else {
                throw StorageError.connectionFailed(engine: .postgres, location: location, message: handle.lastMessage)
            }
        }
        return handle
    }

    /// Sends one statement with its parameters (``bind(_:on:)``). A statement the server no longer
    /// knows (`26000`: a pooler in between, `DISCARD ALL`) or whose plan another instance's migration
    /// outdated (`0A000`) is prepared again and sent once more, outside a transaction only: inside
    /// one, the failure has already aborted it.
    private func run(_ sql: SQL) throws -> PostgresResult {
        let handle = try connectedHandle()
        do {
            return try execute(try bind(sql, on: handle), on: handle)
        } catch let error as StorageError where error.isOutdatedStatement {
            statements.forget()
            guard PQtransactionStatus(handle.pointer) == PQTRANS_IDLE else { throw error }
            return try execute(try bind(sql, on: handle), on: handle)
        }
    }

    /// `sql` prepared on `handle` (once per connection) with its parameters: text format for numbers
    /// and text (PostgreSQL infers their types from the statement), binary `bytea` for blobs.
    private func bind(_ sql: SQL, on handle: PostgresHandle) throws -> PostgresBoundStatement {
        var values: [UnsafeMutablePointer<CChar>?] = []
        var bound = false
        defer { if !bound { values.forEach { free($0) } } }
        var lengths: [Int32] = []
        var formats: [Int32] = []
        var types: [Oid] = []
        for (offset, parameter) in sql.parameters.enumerated() {
            var length: Int32 = 0
            var format: Int32 = 0
            var type: Oid = 0
            switch parameter {
            case .null:
                values.append(nil)
            case .integer(let integer):
                values.append(strdup(String(integer)))
            case .real(let real):
                values.append(strdup(String(real)))
            case .text(let string):
                guard !string.utf8.contains(0) else {
                    throw StorageError.invalidParameter(engine: .postgres, sql: sql.text, index: offset + 1, reason: "PostgreSQL text cannot contain a NUL character")
                }
                values.append(strdup(string))
            case .blob(let data):
                let bytes = malloc(max(data.count, 1))!.assumingMemoryBound(to: CChar.self)
                data.withUnsafeBytes { raw in
                    if let base = raw.baseAddress { memcpy(bytes, base, raw.count) }
                }
                values.append(bytes)
                length = Int32(data.count)
                format = 1
                type = PostgresType.bytea
            }
            lengths.append(length)
            formats.append(format)
            types.append(type)
        }
        // Deferred statements name prepared statements that a full set would drop: they go first.
        if !deferred.isEmpty, statements.dropsAll(toPrepare: sql.text, types: types) { try flush(then: nil) }
        let name = try statements.name(for: sql.text, types: types, on: handle)
        bound = true
        return PostgresBoundStatement(sql: sql.text, name: name, values: values, lengths: lengths, formats: formats)
    }

    /// Runs `statement`, with whatever waits for the next round trip in front of it.
    private func execute(_ statement: PostgresBoundStatement, on handle: PostgresHandle) throws -> PostgresResult {
        if let result = try flush(then: .prepared(statement)) { return result }
        let borrowed = statement.values.map { UnsafePointer($0) }
        let raw = PQexecPrepared(handle.pointer, statement.name, Int32(borrowed.count), borrowed, statement.lengths, statement.formats, 0)
        return try Self.check(raw, sql: statement.sql, on: handle)
    }

    /// The error gate: adopts a result and turns a failed one into a typed error carrying the
    /// SQLSTATE and the primary message (never the detail, which quotes row values). Shared with
    /// ``PostgresListener``, which runs its `LISTEN` on a connection of its own.
    static func check(_ raw: OpaquePointer?, sql: String, on handle: PostgresHandle) throws -> PostgresResult {
        guard let raw else {
            throw StorageError.statementFailed(engine: .postgres, sql: sql, code: "08006", message: handle.lastMessage)
        }
        return try check(PostgresResult(adopting: raw), sql: sql, on: handle)
    }

    /// ``check(_:sql:on:)`` for a result already adopted.
    @discardableResult
    static func check(_ result: PostgresResult, sql: String, on handle: PostgresHandle) throws -> PostgresResult {
        let raw = result.pointer
        let status = PQresultStatus(raw)
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK {
            return result
        }
        let field = { (code: Character) in PQresultErrorField(raw, Int32(code.asciiValue!)).map { String(cString: $0) } }
        let code = field("C") ?? (handle.isConnected ? "XX000" : "08006")
        let message = field("M") ?? String(cString: PQresultErrorMessage(raw)).trimmingCharacters(in: .whitespacesAndNewlines)
        if code == "23505" {
            throw StorageError.uniqueViolation(engine: .postgres, sql: sql, message: message)
        }
        if code == "53100" {
            throw StorageError.full(engine: .postgres, location: handle.server, code: code, message: message)
        }
        throw StorageError.statementFailed(engine: .postgres, sql: sql, code: code, message: message)
    }

    /// Converts one text-format field by its type.
    private static func value(of result: OpaquePointer, row: Int32, field: Int32, type: Oid) -> SQLValue {
        if PQgetisnull(result, row, field) != 0 { return .null }
        let bytes = PQgetvalue(result, row, field)!
        let count = Int(PQgetlength(result, row, field))
        let text = bytes.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
        switch type {
        case PostgresType.int2, PostgresType.int4, PostgresType.int8, PostgresType.oid:
            return Int64(text).map(SQLValue.integer) ?? .text(text)
        case PostgresType.bool:
            return .integer(text == "t" ? 1 : 0)
        case PostgresType.float4, PostgresType.float8:
            return Double(text).map(SQLValue.real) ?? .text(text)
        case PostgresType.bytea:
            var length = 0
            guard let unescaped = bytes.withMemoryRebound(to: UInt8.self, capacity: count, { PQunescapeBytea($0, &length) }) else {
                return .text(text)
            }
            defer { PQfreemem(unescaped) }
            return .blob(Data(bytes: unescaped, count: length))
        default:
            return .text(text)
        }
    }
}

extension StorageError {
    /// The server no longer knows the prepared statement (`26000`), or its plan no longer fits the
    /// table it reads (`0A000`, "cached plan must not change result type").
    fileprivate var isOutdatedStatement: Bool {
        guard case .statementFailed(.postgres, _, let code, _) = self else { return false }
        return code == "26000" || code == "0A000"
    }
}

/// The type OIDs converted to something other than text (`pg_type.oid`, fixed since PostgreSQL 7).
enum PostgresType {
    static let bool: Oid = 16
    static let bytea: Oid = 17
    static let int8: Oid = 20
    static let int2: Oid = 21
    static let int4: Oid = 23
    static let oid: Oid = 26
    static let float4: Oid = 700
    static let float8: Oid = 701
}
