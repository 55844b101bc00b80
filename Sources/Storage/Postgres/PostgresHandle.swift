internal import CPostgres
import Foundation

/// Owns one `PGconn*`; finishes it when the last reference goes.
final class PostgresHandle {
    let pointer: OpaquePointer

    /// Connects with a libpq URL or keyword string; `location` (no password) names it in errors.
    init(url: String, location: String) throws {
        guard let pointer = PQconnectdb(url) else {
            throw StorageError.connectionFailed(engine: .postgres, location: location, message: "libpq could not allocate a connection")
        }
        self.pointer = pointer
        guard PQstatus(pointer) == CONNECTION_OK else {
            throw StorageError.connectionFailed(engine: .postgres, location: location, message: lastMessage)
        }
        // libpq prints notices ("relation already exists, skipping") to stderr by default.
        PQsetNoticeProcessor(pointer, discardPostgresNotice, nil)
    }

    /// Adopts a connection started with `PQconnectStart`, still being established; it is finished
    /// with this handle.
    init(takingOwnershipOf pointer: OpaquePointer) {
        self.pointer = pointer
        PQsetNoticeProcessor(pointer, discardPostgresNotice, nil)
    }

    deinit {
        PQfinish(pointer)
    }

    var isConnected: Bool {
        PQstatus(pointer) == CONNECTION_OK
    }

    /// Where the connection goes, `postgres://host:port/database`, without user or password: names
    /// the server in an error that an operator must fix there (a full disk).
    var server: String {
        let part = { (value: UnsafeMutablePointer<CChar>?) in value.map { String(cString: $0) } ?? "" }
        return "postgres://\(part(PQhost(pointer))):\(part(PQport(pointer)))/\(part(PQdb(pointer)))"
    }

    /// libpq's message for the last connection-level failure.
    var lastMessage: String {
        String(cString: PQerrorMessage(pointer)).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Owns one `PGresult*`; clears it when the last reference goes.
final class PostgresResult {
    let pointer: OpaquePointer

    init(adopting pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        PQclear(pointer)
    }
}

/// Notice processor that drops notices; a global function, as C callbacks must be.
private func discardPostgresNotice(_ context: UnsafeMutableRawPointer?, _ message: UnsafePointer<CChar>?) {}
