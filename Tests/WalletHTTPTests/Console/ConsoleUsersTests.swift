import Foundation
import PasswrightTesting
import Signing
import Testing
@testable import WalletCore
import WalletHTTP

/// Console users on both engines: an invite works once and only before it expires, a password is
/// kept only as an argon2id hash, sign-in needs the right password of an active user, disabling ends
/// the user's sessions at once, and every step is audited without a secret.
@Suite(.timeLimit(.minutes(5))) struct ConsoleUsersTests {
    @Test(arguments: Engine.selected)
    func inviteAcceptSignInDisable(engine: Engine) async throws {
        try await withService(engine: engine) { server in
            let users = server.service.services.consoleUsers
            let sessions = server.service.services.consoleSessions
            let owner = ConsoleSessions.origin(of: nil, address: "192.0.2.1")
            let invitation = try await users.invite(email: " Ada@Example.TEST ", name: "Ada", role: .support, origin: owner)
            #expect(invitation.user.email == "ada@example.test" && invitation.user.passwordHash == nil && invitation.token.count == 64)
            await #expect(throws: ServiceError.self) { try await users.invite(email: "ada@example.test", name: "Again", role: .viewer, origin: owner) }
            await #expect(throws: ServiceError.self) { try await users.invite(email: "not an address", name: "X", role: .viewer, origin: owner) }

            let password = "a long enough password"
            #expect(try await users.authenticate(email: "ada@example.test", password: password) == nil, "no password before the invite is accepted")
            await #expect(throws: ServiceError.self) { try await users.accept(token: invitation.token, password: "short") }
            let accepted = try #require(try await users.accept(token: invitation.token, password: password))
            let hash = try #require(accepted.passwordHash)
            #expect(hash.hasPrefix("$argon2id$v=19$") && !hash.contains(password))
            #expect(try await users.accept(token: invitation.token, password: password) == nil, "an invite works once")
            #expect(try await users.invited(token: invitation.token) == nil)

            #expect(try await users.authenticate(email: "ADA@example.test", password: password)?.id == accepted.id)
            #expect(try await users.authenticate(email: "ada@example.test", password: password + "x") == nil)
            #expect(try await users.authenticate(email: "nobody@example.test", password: password) == nil)

            let now = Date()
            try await sessions.create(cookie: String(repeating: "c", count: 64), user: accepted, now: now, expiresAt: now.addingTimeInterval(3600))
            let session = try #require(try await sessions.session(cookie: String(repeating: "c", count: 64), now: now))
            #expect(session.role == .support && session.user?.id == accepted.id)
            _ = try #require(try await users.setDisabled(accepted.id, true, origin: owner))
            #expect(try await sessions.session(cookie: String(repeating: "c", count: 64), now: now) == nil, "disabling ends the session")
            #expect(try await users.authenticate(email: "ada@example.test", password: password) == nil, "a disabled user cannot sign in")
            _ = try await users.setDisabled(accepted.id, false, origin: owner)
            #expect(try await users.setRole(accepted.id, .editor, origin: owner)?.role == "editor")

            // An expired invite does not work.
            let late = try await users.invite(email: "late@example.test", name: "Late", role: .viewer, origin: owner)
            let expiry = try #require(late.user.inviteExpiresAt)
            let lateHash = Digest.sha256Hex(Data(late.token.utf8))
            #expect(try await users.invited(token: late.token) != nil)
            #expect(try await server.service.store.consoleUser(inviteHash: lateHash, now: expiry.addingTimeInterval(-1)) != nil)
            #expect(try await server.service.store.consoleUser(inviteHash: lateHash, now: expiry.addingTimeInterval(1)) == nil)
            #expect(try await server.service.store.acceptConsoleInvite(inviteHash: lateHash, passwordHash: "x", now: expiry.addingTimeInterval(1)) == nil)

            let audit = try await server.api("GET", "/api/v1/audit?limit=100").text
            for action in ["user.invite", "user.activate", "user.disable", "user.enable", "user.role"] {
                #expect(audit.contains(action), "no \(action) in the audit trail")
            }
            #expect(!audit.contains(password) && !audit.contains(invitation.token) && !audit.contains(hash))
        }
    }
}
