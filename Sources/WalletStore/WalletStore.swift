import Storage

/// The persistent state of the Wallet web service: passes with their update tags, devices,
/// registrations, device logs and the push outbox, on SQLite or PostgreSQL.
///
/// Every write that must be atomic runs in one transaction: an update writes the pass, advances its
/// tag and queues the pushes together, so a crash never leaves a change that no device hears about.
/// An update's change is computed outside that transaction and written with a compare-and-swap on
/// the pass's update tag (``writePass(_:expectedTag:change:)``), so a writer never waits while another
/// renders or validates a pass.
/// Several instances may share one PostgreSQL store; tags stay strictly increasing in commit order and
/// the push outbox is shared out with `FOR UPDATE SKIP LOCKED`.
///
/// The store knows nothing of `pass.json`: records and overrides are opaque JSON text. It stores the
/// authentication tokens it is given and never generates, logs or prints them.
public final class WalletStore: Sendable {
    /// The newest schema version this build knows: a database (or a backup) from a newer build has
    /// tables this one cannot read, so `restore` refuses it.
    public static var schemaVersion: Int { WalletSchema.migrations.map(\.version).max() ?? 0 }

    /// The database, shared with nothing else that writes these tables.
    let database: any Database
    /// The source of every timestamp the store writes or compares; the service layer reads "now" from
    /// it too, so one injected clock pins every time of a request.
    public let clock: any WalletClock
    /// How many device log messages are kept; older ones are trimmed on insert.
    let logCapacity: Int
    /// Called after every commit that queued or re-queued outbox rows (see ``pushesQueued``).
    let pushesQueued: @Sendable () -> Void
    /// Called after every commit that queued webhook deliveries, so this process's webhook worker
    /// delivers them at once; other instances hear of them through PostgreSQL.
    let webhooksQueued: @Sendable () -> Void
    /// Whether writes add to the analytics counters (``WalletSchema/analytics``).
    let countsAnalytics: Bool

    /// A store over `database`; call ``migrate()`` before use.
    ///
    /// - Parameters:
    ///   - logCapacity: the newest device log messages kept (Wallet can be noisy, and the log
    ///     endpoint is unauthenticated, so the table must not grow without bound).
    ///   - pushesQueued: called after every commit that queued pushes (an update, a roll-out batch, a
    ///     forced push), so this process's push worker claims them at once instead of at its next
    ///     round; other instances hear of them through PostgreSQL (``listenForQueuedPushes(_:)``).
    ///     It runs on the writer's task: ring something, never block.
    ///   - countsAnalytics: whether each event adds to the daily analytics counters in its transaction
    ///     (off: an operator who wants no figures, and the benchmark of what counting costs).
    public init(
        database: any Database, clock: any WalletClock = SystemWalletClock(), logCapacity: Int = 10_000,
        pushesQueued: @escaping @Sendable () -> Void = {}, webhooksQueued: @escaping @Sendable () -> Void = {}, countsAnalytics: Bool = true
    ) {
        precondition(logCapacity >= 1, "the device log must keep at least one message")
        self.database = database
        self.clock = clock
        self.logCapacity = logCapacity
        self.pushesQueued = pushesQueued
        self.webhooksQueued = webhooksQueued
        self.countsAnalytics = countsAnalytics
    }

    /// Creates or upgrades the tables; safe at every start and from several instances at once.
    public func migrate() async throws {
        try await storing("migrate the schema") {
            try await database.migrate(WalletSchema.migrations)
        }
    }
}
