import Foundation
import HTTPServer
import Signing
import WalletCore

/// Who may use the console: sessions made by signing in as a named user (e-mail and password) or
/// with the admin token (the owner), kept in the database (so every instance accepts them) under the
/// SHA-256 of the cookie value (so a copy of the database holds no usable session), with a CSRF token
/// per session that every form carries. Failed sign-ins are limited per address and per account,
/// counted in the database so that the limit holds across every instance.
struct ConsoleAuth: Sendable {
    static let cookieName = "passwright_console"
    /// The sign-in form's CSRF token, double-submitted: a random cookie the form must repeat.
    static let preSessionCookieName = "passwright_console_pre"
    /// How long a session lasts: a working day.
    static let lifetime: TimeInterval = 8 * 3600
    /// Failed sign-ins allowed per address, and per account, per minute before it gets 429.
    static let attemptsPerMinute = 5
    /// The limit's window, in seconds.
    static let attemptWindow: TimeInterval = 60

    /// Where sessions are kept (the store, behind a WalletCore service).
    let sessions: ConsoleSessions
    let users: ConsoleUsers
    let adminToken: String
    /// `Secure` cookies when the console is reached over https (the public URL's scheme).
    let secureCookies: Bool
    let now: @Sendable () -> Date

    init(sessions: ConsoleSessions, users: ConsoleUsers, adminToken: String, secureCookies: Bool, now: @escaping @Sendable () -> Date) {
        self.sessions = sessions
        self.users = users
        self.adminToken = adminToken
        self.secureCookies = secureCookies
        self.now = now
    }

    /// The signed-in session of `request`, or `nil`.
    func session(of request: HTTPRequest) async throws -> ConsoleSessions.Session? {
        guard let value = Self.cookie(Self.cookieName, in: request), value.count == 64 else { return nil }
        return try await sessions.session(cookie: value, now: now())
    }

    enum SignIn: Sendable {
        /// Signed in as `user` (`nil`: the admin token).
        case signedIn(cookie: String, user: ConsoleUsers.User?)
        case refused
        case tooManyAttempts
    }

    /// Checks the admin token in constant time; a right one makes an owner's session and its cookie.
    func signIn(token: String, from address: String) async throws -> SignIn {
        try await signIn(limiting: [address], from: address) {
            constantTimeEquals(token, adminToken) ? .some(nil) : nil
        }
    }

    /// Checks a user's e-mail address and password (argon2id); right ones make the user's session.
    func signIn(email: String, password: String, from address: String) async throws -> SignIn {
        try await signIn(limiting: [address, "account " + email.lowercased()], from: address) {
            try await users.authenticate(email: email, password: password).map { .some($0) }
        }
    }

    /// A sign-in whose failures count against each of `keys` (an address, an account): past
    /// ``attemptsPerMinute`` on any, it is refused unchecked. `check` answers the user to sign in
    /// (`.some(nil)` for the admin token), or `nil` for wrong credentials.
    private func signIn(limiting keys: [String], from address: String, _ check: () async throws -> ConsoleUsers.User??) async throws -> SignIn {
        let moment = now()
        let recent = try await sessions.failedSignIns(keys, window: Self.attemptWindow, now: moment)
        guard recent < Self.attemptsPerMinute else { return .tooManyAttempts }
        guard let user = try await check() else {
            try await sessions.recordFailedSignIn(keys, window: Self.attemptWindow, now: moment)
            return .refused
        }
        let value = Self.randomHex(32)
        try await sessions.create(cookie: value, user: user, now: moment, expiresAt: moment.addingTimeInterval(Self.lifetime))
        return .signedIn(cookie: setCookie(value, maxAge: Int(Self.lifetime)), user: user)
    }

    /// A session for `user`, who just proved who they are another way (an invite's password set now);
    /// returns the header that sets its cookie.
    func startSession(for user: ConsoleUsers.User) async throws -> String {
        let moment = now()
        let value = Self.randomHex(32)
        try await sessions.create(cookie: value, user: user, now: moment, expiresAt: moment.addingTimeInterval(Self.lifetime))
        return setCookie(value, maxAge: Int(Self.lifetime))
    }

    /// Ends the request's session; returns the header that clears its cookie.
    func signOut(_ request: HTTPRequest) async throws -> String {
        if let value = Self.cookie(Self.cookieName, in: request) {
            try await sessions.delete(cookie: value)
        }
        return setCookie("", maxAge: 0)
    }

    /// The pre-session token for the sign-in form and the cookie that carries it: the browser's own
    /// when it has one (two sign-in tabs both work), else a fresh one.
    func preSession(reusing existing: String?) -> (token: String, cookie: String) {
        let token = existing.flatMap { $0.count == 32 && $0.allSatisfy(\.isHexDigit) ? $0 : nil } ?? Self.randomHex(16)
        return (token, cookie(Self.preSessionCookieName, token, maxAge: 600))
    }

    /// Whether the sign-in form repeated its pre-session cookie.
    static func preSessionMatches(_ request: HTTPRequest, form: ConsoleForm) -> Bool {
        guard let cookie = cookie(preSessionCookieName, in: request), let field = form["csrf"], !cookie.isEmpty else { return false }
        return constantTimeEquals(cookie, field)
    }

    private func setCookie(_ value: String, maxAge: Int) -> String { cookie(Self.cookieName, value, maxAge: maxAge) }

    private func cookie(_ name: String, _ value: String, maxAge: Int) -> String {
        "\(name)=\(value); Path=/console; HttpOnly; SameSite=Strict; Max-Age=\(maxAge)\(secureCookies ? "; Secure" : "")"
    }

    static func cookie(_ name: String, in request: HTTPRequest) -> String? {
        guard let header = request.headers["cookie"] else { return nil }
        for pair in header.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0] == name { return parts[1] }
        }
        return nil
    }

    static func randomHex(_ bytes: Int) -> String { ConsoleSessions.randomHex(bytes) }
}
