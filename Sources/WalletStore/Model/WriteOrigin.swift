/// Who made a write and from where, as the pass's history, the event log and the audit trail record
/// it. Every write path of the store takes one, so no write can land without naming its author.
public struct WriteOrigin: Sendable, Hashable {
    /// Where a write came in.
    public enum Source: String, Sendable, CaseIterable, Codable {
        /// The admin API (a key or the admin token).
        case api
        /// The `passwright` command line, through the admin API.
        case cli
        /// The web console.
        case console
        /// A job of the server's own: a roll-out, a held change's release, a bulk job, retention.
        case system
        /// Wallet on a holder's device, or the holder (personalization).
        case wallet
    }

    /// The author: `key <id>`, `api` (the admin token), `console`, `template v3`, `hold`, `job <id>`,
    /// `device`… The history's source and the event's actor.
    public var actor: String
    public var source: Source
    /// The client's network address, when the write came over the network.
    public var address: String?

    public init(actor: String, source: Source, address: String? = nil) {
        self.actor = actor
        self.source = source
        self.address = address
    }

    /// A server job, named by `actor` (`template v3`, `hold`, `job j_…`, `retention`).
    public static func system(_ actor: String) -> WriteOrigin { WriteOrigin(actor: actor, source: .system) }

    /// The admin token over the API with no address: the default of store-level tools and tests.
    public static let api = WriteOrigin(actor: PassUpdateRecord.api, source: .api)
}
