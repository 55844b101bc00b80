import Foundation
import Passwords
import Signing
import Storage
import WalletStore

/// Named console users: invited by a one-time link that expires, activated with a password hashed
/// with argon2id (only the hash is kept), signed in by e-mail and password, given another role,
/// disabled in one click (their sessions end at once). Hashing runs off the cooperative pool: it
/// takes tens of milliseconds of one core by design.
public struct ConsoleUsers: Sendable {
    public typealias User = ConsoleUser

    let store: WalletStore
    let hasher: PasswordHasher
    /// How long an invite link works.
    public static let inviteLifetime: TimeInterval = 72 * 3600
    /// The shortest password accepted.
    public static let minimumPasswordLength = 12

    public init(store: WalletStore, hasher: PasswordHasher = PasswordHasher()) {
        self.store = store
        self.hasher = hasher
    }

    /// A user and the token of their invite link, shown this once.
    public struct Invitation: Sendable {
        public let user: User
        public let token: String
    }

    /// Invites `email` as `role`: a new user with an invite that expires in ``inviteLifetime``.
    public func invite(email: String, name: String, role: ConsoleRole, origin: WriteOrigin) async throws -> Invitation {
        let email = email.trimmingCharacters(in: .whitespaces).lowercased()
        let name = name.trimmingCharacters(in: .whitespaces)
        guard email.count <= 254, email.split(separator: "@").count == 2, !email.contains(where: \.isWhitespace) else {
            throw ServiceError.invalid("email must be an e-mail address, such as ada@example.com")
        }
        guard (1...100).contains(name.count) else { throw ServiceError.invalid("name must be 1 to 100 characters") }
        let token = Self.newToken()
        do {
            let user = try await store.createConsoleUser(
                id: "u_" + ConsoleSessions.randomHex(8), email: email, name: name, role: role.rawValue, inviteHash: Self.hash(token),
                inviteExpiresAt: store.clock.now().addingTimeInterval(Self.inviteLifetime), origin: origin)
            return Invitation(user: user, token: token)
        } catch WalletStoreError.consoleUserExists {
            throw ServiceError.invalid("a user with the e-mail address \(email) exists already: change their role, or enable them, instead")
        }
    }

    /// A new invite link for a user who has not accepted theirs (or lost it); the old link stops working.
    public func reinvite(_ id: String, origin: WriteOrigin) async throws -> Invitation? {
        let token = Self.newToken()
        guard let user = try await store.updateConsoleUser(
            id, invite: (Self.hash(token), store.clock.now().addingTimeInterval(Self.inviteLifetime)), origin: origin) else { return nil }
        return Invitation(user: user, token: token)
    }

    /// The user whose pending invite `token` is, if it still works.
    public func invited(token: String) async throws -> User? {
        try await store.consoleUser(inviteHash: Self.hash(token), now: store.clock.now())
    }

    /// Uses the invite `token` once, setting the user's password; `nil` when the invite is used,
    /// expired or unknown.
    public func accept(token: String, password: String) async throws -> User? {
        guard password.count >= Self.minimumPasswordLength else {
            throw ServiceError.invalid("the password must be at least \(Self.minimumPasswordLength) characters")
        }
        let hasher = self.hasher
        let hash: String
        do {
            hash = try await offPool { try hasher.hash(password) }
        } catch let error as PasswordError {
            throw ServiceError.invalid("\(error)")
        }
        return try await store.acceptConsoleInvite(inviteHash: Self.hash(token), passwordHash: hash, now: store.clock.now())
    }

    /// The active user `email` and `password` sign in, or `nil`. An unknown address costs one hash
    /// check like a known one, so timing does not tell which addresses have accounts.
    public func authenticate(email: String, password: String) async throws -> User? {
        let user = try await store.consoleUser(email: email.trimmingCharacters(in: .whitespaces).lowercased())
        let hasher = self.hasher
        let matches = try await offPool { hasher.verify(password, against: user?.passwordHash ?? Self.decoy) }
        guard let user, let stored = user.passwordHash, matches, user.disabledAt == nil else { return nil }
        let rehashed = hasher.needsRehash(stored) ? try? await offPool { try hasher.hash(password) } : nil
        try await store.noteConsoleSignIn(user.id, rehashed: rehashed)
        return user
    }

    public func user(_ id: String) async throws -> User? {
        try await store.consoleUser(id: id)
    }

    public func list() async throws -> [User] {
        try await store.consoleUsers()
    }

    /// Gives the user another role; `nil` when there is no such user.
    public func setRole(_ id: String, _ role: ConsoleRole, origin: WriteOrigin) async throws -> User? {
        try await store.updateConsoleUser(id, role: role.rawValue, origin: origin)
    }

    /// Disables the user (their sessions end now) or enables them again.
    public func setDisabled(_ id: String, _ disabled: Bool, origin: WriteOrigin) async throws -> User? {
        try await store.updateConsoleUser(id, disabled: disabled, origin: origin)
    }

    /// Ends every session of the user.
    public func signOutEverywhere(_ id: String) async throws {
        try await store.deleteConsoleSessions(userID: id)
    }

    /// The role a stored user has (a role name the store does not know reads as viewer, the least).
    public static func role(of user: User) -> ConsoleRole { ConsoleRole(rawValue: user.role) ?? .viewer }

    /// How the audit trail names a user's writes.
    public static func origin(of user: User, address: String?) -> WriteOrigin {
        WriteOrigin(actor: "user \(user.id)", source: .console, address: address)
    }

    private static func newToken() -> String { ConsoleSessions.randomHex(32) }
    private static func hash(_ token: String) -> String { Digest.sha256Hex(Data(token.utf8)) }

    /// A valid hash of a random password, checked against for unknown addresses (see
    /// ``authenticate(email:password:)``).
    private static let decoy: String = (try? PasswordHasher().hash(ConsoleSessions.randomHex(16))) ?? ""
}
