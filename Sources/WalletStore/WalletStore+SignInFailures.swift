import Foundation
import Storage

/// Failed console sign-ins, in the database so that every instance counts them together: the limit
/// per address and per account holds however many instances an attacker's requests are spread over.
extension WalletStore {
    /// The most failures any of `keyHashes` had after `since`.
    public func signInFailures(keyHashes: [String], since: Date) async throws -> Int {
        guard !keyHashes.isEmpty else { return 0 }
        return try await storing("count failed sign-ins") {
            // Only placeholders are concatenated; every value is a parameter.
            let rows = try await database.query(SQL(
                unsafeText: """
                SELECT key_hash, COUNT(*) AS failures FROM sign_in_failures
                WHERE key_hash IN (\(SQL.placeholders(keyHashes.count))) AND failed_at > ?
                GROUP BY key_hash
                """,
                parameters: keyHashes.map(SQLValue.text) + [.integer(Milliseconds.of(since))]))
            return try rows.map { try $0.int("failures") }.max() ?? 0
        }
    }

    /// Records a failed sign-in at `at` against each of `keyHashes`, and deletes the failures from
    /// before `forgetBefore`, which no limit counts any more.
    public func recordSignInFailure(keyHashes: [String], at: Date, forgetBefore: Date) async throws {
        try await storing("record a failed sign-in") {
            try await database.transaction { transaction in
                _ = try await transaction.execute(SQL("DELETE FROM sign_in_failures WHERE failed_at < ?", .integer(Milliseconds.of(forgetBefore))))
                for keyHash in keyHashes {
                    _ = try await transaction.execute(SQL(
                        "INSERT INTO sign_in_failures (key_hash, failed_at) VALUES (?, ?)", .text(keyHash), .integer(Milliseconds.of(at))))
                }
            }
        }
    }
}
