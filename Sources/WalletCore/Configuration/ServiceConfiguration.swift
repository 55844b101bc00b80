import Foundation
import Storage

/// Everything the services need, built by the CLI from flags, then `PASSWRIGHT_*` environment
/// variables, then defaults that work on a laptop. The library never reads the environment itself.
/// The HTTP server's own settings (address, limits, timeouts) are given to `WalletHTTP`'s
/// `WalletService` beside it, so WalletCore does not depend on the HTTP server.
public struct ServiceConfiguration: Sendable {
    /// Where passes, devices and registrations live (`sqlite:./data/passwright.sqlite` by default).
    public var database: DatabaseConfiguration
    /// Connections to PostgreSQL (SQLite uses one writer and a few readers).
    public var databasePoolSize: Int
    /// A folder of template folders imported at start (and on `SIGHUP`): each subfolder with a
    /// `pass.json` is a template named after it, stored as a new version when its files changed;
    /// each `orders/<name>` with an `order.json` is an order template, stored the same way.
    /// `nil`: templates come only from uploads (`PUT /api/v1/templates/{name}`).
    public var templatesDirectory: URL?
    /// The identities folder (`<dir>/<passTypeIdentifier>/`, `<dir>/wwdr/`).
    public var identitiesDirectory: URL
    /// Key passphrases by pass type identifier (from the environment, via the CLI).
    public var passphrase: @Sendable (String) -> String?
    /// Where a missing passphrase is set (the CLI names its environment variables), for errors.
    /// Set after creation; `nil` leaves the error without a hint.
    public var passphraseHelp: @Sendable (String) -> String? = { _ in nil }
    /// How long start-up waits for the database to accept connections, and how it backs off.
    public var databaseStartup = DatabaseStartup()
    /// The public https base of this service, e.g. `https://passes.example.com`; passes get
    /// `<publicURL>/wallet/` as their `webServiceURL` and holders get download links under it.
    public var publicURL: String
    /// The admin API bearer token.
    public var adminToken: String
    /// Key for signing holder download links (HMAC-SHA256).
    public var downloadLinkKey: Data
    /// How long a holder download link stays valid.
    public var downloadLinkLifetime: Duration
    /// A folder of Apple's Add to Apple Wallet badge SVGs named by language (`en.svg`), for holder
    /// pages; `nil` shows a plain button (Apple's artwork may not be redrawn).
    public var walletBadgesDirectory: String?
    /// Device log lines kept (newest win).
    public var deviceLogCapacity: Int
    /// Where and whether pass-update pushes are sent.
    public var push: PushSettings
    /// When changes that show the holder a notification go out (quiet hours, spacing).
    public var notifications: NotificationPolicy
    /// Whether `/console` (the web console) is served; on by default, behind sign-in with the admin token.
    public var console = true
    /// Whether every event adds to the daily analytics counters (on by default); off, the writes
    /// skip that statement and the analytics show nothing new (a programme that wants no figures).
    public var analytics = true
    /// How long the event log keeps events (`GET /api/v1/events`, webhook replays).
    public var eventRetention: Duration = .seconds(30 * 86_400)
    /// How long the audit trail keeps its rows (`GET /api/v1/audit`): a year, the span reviews ask about.
    public var auditRetention: Duration = .seconds(365 * 86_400)
    /// How long pass history, device logs and voided passes are kept.
    public var retention = RetentionSettings()
    /// The most bytes of signed passes kept in memory, so the devices of a pass that fetch one update
    /// seconds apart get one signature between them: 128 MiB holds about 2,000 passes of 65 KB, the
    /// 4 seconds of a wave at 500 refreshed passes a second that a pass's devices take to wake up.
    public var passCacheBytes = SignedPassCache.defaultBudget

    /// Creates a configuration; see each property for its meaning.
    public init(
        database: DatabaseConfiguration, databasePoolSize: Int = 4, templatesDirectory: URL?, identitiesDirectory: URL,
        passphrase: @escaping @Sendable (String) -> String? = { _ in nil }, publicURL: String, adminToken: String,
        downloadLinkKey: Data, downloadLinkLifetime: Duration = .seconds(7 * 24 * 3600),
        deviceLogCapacity: Int = 10_000,
        push: PushSettings = PushSettings(enabled: false), notifications: NotificationPolicy = .standard
    ) {
        self.database = database
        self.databasePoolSize = databasePoolSize
        self.templatesDirectory = templatesDirectory
        self.identitiesDirectory = identitiesDirectory
        self.passphrase = passphrase
        self.publicURL = publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
        self.adminToken = adminToken
        self.downloadLinkKey = downloadLinkKey
        self.downloadLinkLifetime = downloadLinkLifetime
        self.deviceLogCapacity = deviceLogCapacity
        self.push = push
        self.notifications = notifications
    }

    /// The `webServiceURL` written into every pass: Wallet appends `v1/…` to it.
    public var webServiceURL: String { "\(publicURL)/wallet/" }
    /// The `webServiceURL` written into every order: Wallet appends `/v1/…` to it (no trailing slash,
    /// since clients join it with a `/` of their own).
    public var ordersWebServiceURL: String { "\(publicURL)/orders" }
}
