import Foundation
import Storage

/// Console users: invited (a pending invite's token only as a hash), activated with a password hash,
/// given another role, disabled (their sessions end with it) and enabled again. Each change is audited
/// in its own transaction.
extension WalletStore {
    /// Stores a new user with a pending invite; a taken e-mail address throws
    /// ``WalletStoreError/consoleUserExists(_:)``.
    public func createConsoleUser(
        id: String, email: String, name: String, role: String, inviteHash: String, inviteExpiresAt: Date, origin: WriteOrigin
    ) async throws -> ConsoleUser {
        let now = clock.nowMilliseconds()
        do {
            return try await database.transaction { transaction in
                let user = try await transaction.query(SQL(unsafeText: """
                    INSERT INTO console_users (id, email, name, role, invite_hash, invite_expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                    RETURNING \(ConsoleUser.columns)
                    """, parameters: [.text(id), .text(email), .text(name), .text(role), .text(inviteHash), .integer(Milliseconds.of(inviteExpiresAt)), .integer(now)]))
                    .map(ConsoleUser.init(row:))[0]
                try await self.appendAudit([AuditDraft(action: "user.invite", target: "user \(id)", changes: ["email", "name", "role"])], by: origin, at: now, in: transaction)
                return user
            }
        } catch let error as StorageError where error.isUniqueViolation {
            throw WalletStoreError.consoleUserExists(email)
        } catch let error as StorageError {
            throw WalletStoreError.database(operation: "create a console user", error: error)
        }
    }

    public func consoleUser(id: String) async throws -> ConsoleUser? {
        try await oneConsoleUser("id = ?", .text(id))
    }

    public func consoleUser(email: String) async throws -> ConsoleUser? {
        try await oneConsoleUser("email = ?", .text(email))
    }

    /// The user whose pending, unexpired invite has the token hashing to `inviteHash`.
    public func consoleUser(inviteHash: String, now: Date) async throws -> ConsoleUser? {
        try await oneConsoleUser("invite_hash = ? AND invite_expires_at > ? AND disabled_at IS NULL", .text(inviteHash), .integer(Milliseconds.of(now)))
    }

    private func oneConsoleUser(_ condition: String, _ parameters: SQLValue...) async throws -> ConsoleUser? {
        try await storing("read a console user") {
            // Only the fixed conditions above are concatenated; every value is a parameter.
            try await database.query(SQL(unsafeText: "SELECT \(ConsoleUser.columns) FROM console_users WHERE \(condition)", parameters: parameters))
                .first.map(ConsoleUser.init(row:))
        }
    }

    /// Every user, by name.
    public func consoleUsers() async throws -> [ConsoleUser] {
        try await storing("list the console users") {
            try await database.query(SQL(unsafeText: "SELECT \(ConsoleUser.columns) FROM console_users ORDER BY name, id", parameters: []))
                .map(ConsoleUser.init(row:))
        }
    }

    /// Uses the invite whose token hashes to `inviteHash` (once, before it expires): the user gets
    /// `passwordHash` and the invite is gone. `nil` when no such invite is pending.
    public func acceptConsoleInvite(inviteHash: String, passwordHash: String, now: Date) async throws -> ConsoleUser? {
        let at = Milliseconds.of(now)
        return try await storing("accept a console invite") {
            try await database.transaction { transaction in
                guard let user = try await transaction.query(SQL(unsafeText: """
                    UPDATE console_users SET password_hash = ?, invite_hash = NULL, invite_expires_at = NULL
                    WHERE invite_hash = ? AND invite_expires_at > ? AND disabled_at IS NULL RETURNING \(ConsoleUser.columns)
                    """, parameters: [.text(passwordHash), .text(inviteHash), .integer(at)])).first.map(ConsoleUser.init(row:)) else { return nil }
                let origin = WriteOrigin(actor: "user \(user.id)", source: .console)
                try await self.appendAudit([AuditDraft(action: "user.activate", target: "user \(user.id)", changes: ["password"])], by: origin, at: at, in: transaction)
                return user
            }
        }
    }

    /// Changes what is given of the user `id`, audited with the names of what changed; disabling
    /// also ends every session of the user, in the same transaction. `nil` when there is no such user.
    public func updateConsoleUser(
        _ id: String, role: String? = nil, disabled: Bool? = nil, invite: (hash: String, expiresAt: Date)? = nil, origin: WriteOrigin
    ) async throws -> ConsoleUser? {
        let now = clock.nowMilliseconds()
        var sets: [String] = []
        var parameters: [SQLValue] = []
        var changes: [String] = []
        if let role { sets.append("role = ?"); parameters.append(.text(role)); changes.append("role") }
        if let disabled {
            sets.append(disabled ? "disabled_at = ?" : "disabled_at = NULL")
            if disabled { parameters.append(.integer(now)) }
            changes.append("disabled")
        }
        if let invite {
            sets.append("invite_hash = ?, invite_expires_at = ?")
            parameters += [.text(invite.hash), .integer(Milliseconds.of(invite.expiresAt))]
            changes.append("invite")
        }
        guard !sets.isEmpty else { return try await consoleUser(id: id) }
        let audited = changes
        let statement = SQL(
            unsafeText: "UPDATE console_users SET \(sets.joined(separator: ", ")) WHERE id = ? RETURNING \(ConsoleUser.columns)",
            parameters: parameters + [.text(id)])
        return try await storing("change a console user") {
            try await database.transaction { transaction in
                // Only the fixed fragments above are concatenated; every value is a parameter.
                guard let user = try await transaction.query(statement).first.map(ConsoleUser.init(row:)) else { return nil }
                if disabled == true {
                    _ = try await transaction.execute(SQL("DELETE FROM console_sessions WHERE user_id = ?", .text(id)))
                }
                let action = disabled == true ? "user.disable" : disabled == false ? "user.enable" : invite != nil ? "user.reinvite" : "user.role"
                try await self.appendAudit([AuditDraft(action: action, target: "user \(id)", changes: audited)], by: origin, at: now, in: transaction)
                return user
            }
        }
    }

    /// Records a sign-in of the user (and, when its parameters were raised, the password's new hash).
    public func noteConsoleSignIn(_ id: String, rehashed: String?) async throws {
        let now = clock.nowMilliseconds()
        try await storing("note a console sign-in") {
            _ = try await database.execute(SQL(
                "UPDATE console_users SET last_sign_in_at = ?, password_hash = COALESCE(?, password_hash) WHERE id = ?",
                .integer(now), rehashed.map(SQLValue.text) ?? .null, .text(id)))
        }
    }

    /// Ends every session of the user `id` (a "sign out everywhere"); returns how many.
    @discardableResult
    public func deleteConsoleSessions(userID id: String) async throws -> Int {
        try await storing("end a console user's sessions") {
            try await database.execute(SQL("DELETE FROM console_sessions WHERE user_id = ?", .text(id)))
        }
    }
}
