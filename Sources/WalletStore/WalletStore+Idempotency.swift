import Foundation
import Storage

/// What a request with an `Idempotency-Key` should do, as the store decided in one statement or two.
public enum IdempotencyClaim: Sendable, Equatable {
    /// The key is new (or expired, or its first request died): run the request, then ``WalletStore/finishIdempotencyKey(scope:key:answer:)``.
    case proceed
    /// The same request was answered already: send this again.
    case replay(IdempotentAnswer)
    /// The same key is being answered right now.
    case inFlight
    /// The key was used with another request.
    case mismatch
}

/// An answer kept for replaying.
public struct IdempotentAnswer: Sendable, Equatable {
    public var status: Int
    /// Header fields in order, as `[name, value]` pairs.
    public var headers: [[String]]
    public var body: Data

    public init(status: Int, headers: [[String]], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

extension WalletStore {
    /// Claims `key` in `scope` for a request with `fingerprint`. A key older than `lifetime` counts
    /// as new; one still unanswered after `stale` (its first request died with its instance) is taken
    /// over. Two instances claiming the same key at once: the primary key lets one insert, the other
    /// then reads `inFlight`.
    public func claimIdempotencyKey(scope: String, key: String, fingerprint: String, lifetime: Duration, stale: Duration) async throws -> IdempotencyClaim {
        let now = clock.nowMilliseconds()
        return try await storing("claim an idempotency key") {
            try await database.transaction { transaction in
                // An expired key, or a stale unanswered one, makes way first.
                try await transaction.execute(SQL(
                    "DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND (created_at < ? OR (done = 0 AND created_at < ?))",
                    .text(scope), .text(key), .integer(now - Milliseconds.of(lifetime)), .integer(now - Milliseconds.of(stale))))
                let inserted = try await transaction.execute(SQL(
                    """
                    INSERT INTO idempotency_keys (scope, key, fingerprint, done, created_at) VALUES (?, ?, ?, 0, ?)
                    ON CONFLICT (scope, key) DO NOTHING
                    """, .text(scope), .text(key), .text(fingerprint), .integer(now)))
                if inserted == 1 { return .proceed }
                let rows = try await transaction.query(SQL(
                    "SELECT fingerprint, done, status, headers, body FROM idempotency_keys WHERE scope = ? AND key = ?", .text(scope), .text(key)))
                guard let row = rows.first else { return .inFlight }  // deleted meanwhile by its own failure: the client retries
                guard try row.string("fingerprint") == fingerprint else { return .mismatch }
                guard try row.int("done") == 1, let status = try row.optionalInt64("status") else { return .inFlight }
                let headers = (try? JSONDecoder().decode([[String]].self, from: Data((try row.optionalString("headers") ?? "[]").utf8))) ?? []
                return .replay(IdempotentAnswer(status: Int(status), headers: headers, body: try row.data("body")))
            }
        }
    }

    /// Keeps the answer of a claimed key, to replay.
    public func finishIdempotencyKey(scope: String, key: String, answer: IdempotentAnswer) async throws {
        let headers = String(decoding: (try? JSONEncoder().encode(answer.headers)) ?? Data("[]".utf8), as: UTF8.self)
        try await storing("keep an idempotent answer") {
            _ = try await database.execute(SQL(
                "UPDATE idempotency_keys SET done = 1, status = ?, headers = ?, body = ? WHERE scope = ? AND key = ? AND done = 0",
                .integer(Int64(answer.status)), .text(headers), .blob(answer.body), .text(scope), .text(key)))
        }
    }

    /// Forgets a claimed key whose request failed on the server's side (5xx): a retry runs it again.
    public func releaseIdempotencyKey(scope: String, key: String) async throws {
        try await storing("release an idempotency key") {
            _ = try await database.execute(SQL("DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND done = 0", .text(scope), .text(key)))
        }
    }

    /// Deletes up to `limit` keys created before `cutoff`; returns how many.
    public func pruneIdempotencyKeys(before cutoff: Date, limit: Int = 1_000) async throws -> Int {
        try await storing("prune idempotency keys") {
            try await database.execute(SQL(
                """
                DELETE FROM idempotency_keys WHERE (scope, key) IN (
                    SELECT scope, key FROM idempotency_keys WHERE created_at < ? ORDER BY created_at LIMIT ?)
                """, .integer(Milliseconds.of(cutoff)), .integer(Int64(limit))))
        }
    }
}
