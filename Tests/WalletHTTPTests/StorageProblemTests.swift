import PassModel
import Foundation
import HTTPServer
import PasswrightTesting
import Storage
import Testing
import WalletCore
@testable import WalletHTTP
import WalletStore

/// A database that cannot take a request gets its true status, once, in `ProblemResponses`: 503 with
/// `Retry-After` while it does not answer, 507 naming it while it is full, and `/readyz` says so.
@Suite struct StorageProblemTests {
    static let key = PassKey(passTypeIdentifier: "pass.dev.passwright.loyalty", serialNumber: "S-1")

    private static func respond(to error: any Error) -> (HTTPResponse, LogCapture) {
        let logs = LogCapture()
        return (ProblemResponses.response(for: error, context: RequestContext(route: nil, logger: logs.logger)), logs)
    }

    private static func body(_ response: HTTPResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    }

    @Test(arguments: [
        StorageError.connectionFailed(engine: .postgres, location: "postgres://passwright@db.internal/passwright", message: "Connection refused"),
        StorageError.statementFailed(engine: .postgres, sql: "UPDATE passes SET record = ?", code: "57P01", message: "terminating connection due to administrator command"),
        StorageError.statementFailed(engine: .postgres, sql: "COMMIT", code: "08006", message: "server closed the connection unexpectedly"),
    ])
    func unavailableDatabaseIs503WithRetryAfter(storage: StorageError) throws {
        for error: any Error in [WalletStoreError.database(operation: "update a pass", error: storage), storage] {
            let (response, logs) = Self.respond(to: error)
            #expect(response.status == .serviceUnavailable)
            #expect(Int(response.headers["Retry-After"] ?? "") == ProblemResponses.unavailableRetrySeconds)
            let body = try Self.body(response)
            #expect(body["type"] as? String == ProblemResponses.problemType("database-unavailable"))
            let detail = try #require(body["detail"] as? String)
            #expect(detail.contains("database is unavailable"))
            // Where the database lives and what SQL ran stay in the log.
            #expect(!detail.contains("db.internal") && !detail.contains("UPDATE") && !detail.contains("COMMIT"), "\(detail)")
            #expect(logs.recorded.contains { $0.message == "database cannot take the request" })
        }
    }

    @Test func fullDatabaseIs507NamingIt() throws {
        let storage = StorageError.full(engine: .sqlite, location: "sqlite:/var/lib/passwright/passwright.sqlite", code: "13", message: "database or disk is full")
        let (response, _) = Self.respond(to: WalletStoreError.database(operation: "create a pass", error: storage))
        #expect(response.status.code == 507)
        #expect(response.status.reasonPhrase == "Insufficient Storage")
        let body = try Self.body(response)
        #expect(body["type"] as? String == ProblemResponses.problemType("database-full"))
        #expect(body["database"] as? String == "sqlite:/var/lib/passwright/passwright.sqlite")
        let detail = try #require(body["detail"] as? String)
        #expect(detail.contains("/var/lib/passwright/passwright.sqlite") && detail.contains("Free space"), "\(detail)")
        // A group of writes undone by the full disk is full too.
        #expect(Self.respond(to: WalletStoreError.database(operation: "create a pass", error: .groupRolledBack(cause: .full))).0.status.code == 507)
    }

    @Test func exhaustedCompareAndSwapIs503WithRetryAfter() {
        let (response, _) = Self.respond(to: WalletStoreError.updateConflict(Self.key, attempts: 5))
        #expect(response.status == .serviceUnavailable)
        #expect(Int(response.headers["Retry-After"] ?? "") == ProblemResponses.busyRetrySeconds)
    }

    @Test func otherStorageFailuresStay500() {
        let storage = StorageError.statementFailed(engine: .sqlite, sql: "SELECT", code: "11", message: "database disk image is malformed")
        #expect(Self.respond(to: WalletStoreError.database(operation: "read a pass", error: storage)).0.status == .internalServerError)
    }

    @Test(arguments: [
        (StorageTrouble(kind: .full, reason: "sqlite: the database sqlite:/data/p.sqlite … is full"), "full"),
        (StorageTrouble(kind: .unavailable, reason: "postgres: cannot connect"), "unavailable"),
    ])
    func readinessNamesTheStorageFailure(failure: StorageTrouble, state: String) throws {
        let response = Readiness(databaseAnswers: failure.kind != .unavailable, storage: failure, templates: ["loyalty": nil], stoppedPushIdentities: [:]).response
        #expect(response.status == .serviceUnavailable)
        let body = try Self.body(response)
        #expect(body["database"] as? String == state)
        #expect((body["detail"] as? String)?.contains(failure.reason) == true, "\(body)")
    }
}
