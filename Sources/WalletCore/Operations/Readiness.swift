/// The facts `/readyz` answers from (``WalletServices/readiness()`` gathers them; `WalletHTTP` turns
/// them into the answer): `503` until the database answers, while it is full (writes can only fail
/// until space is freed) and while no template can issue passes,
/// since a load balancer should not send traffic that can only fail; every unusable template is named
/// with its reason (an identity that cannot be read says why and which user the server runs as). A
/// refused APNs identity degrades pushes only: still `200`, with status `degraded`.
public struct Readiness: Sendable {
    /// Whether the database answered a ping.
    public var databaseAnswers: Bool
    /// The database's lasting trouble, `nil` when it takes writes.
    public var storage: StorageTrouble? = nil
    /// Each template's reason for being unusable, `nil` when it can issue passes.
    public var templates: [String: String?]
    /// Pass types whose pushes stopped, with the reason.
    public var stoppedPushIdentities: [String: String]
    /// Identities whose certificate ends soon, with when: still signing, so degraded, not unready.
    public var identitiesNeedingRenewal: [String: String] = [:]
    /// Webhook endpoints whose deliveries stopped, with why: degraded, not unready.
    public var disabledWebhooks: [String: String] = [:]

    /// Facts as gathered.
    public init(
        databaseAnswers: Bool, storage: StorageTrouble? = nil, templates: [String: String?], stoppedPushIdentities: [String: String],
        identitiesNeedingRenewal: [String: String] = [:], disabledWebhooks: [String: String] = [:]
    ) {
        self.databaseAnswers = databaseAnswers
        self.storage = storage
        self.templates = templates
        self.stoppedPushIdentities = stoppedPushIdentities
        self.identitiesNeedingRenewal = identitiesNeedingRenewal
        self.disabledWebhooks = disabledWebhooks
    }
}

/// A database's failure that outlasts one request: what `/readyz` names until it clears.
public struct StorageTrouble: Sendable, Equatable {
    /// Whether the database does not answer, or is full.
    public enum Kind: Sendable, Equatable {
        case unavailable
        case full
    }

    /// What kind of trouble.
    public var kind: Kind
    /// What failed, naming the engine and, for a full database, its file or server and what to do.
    public var reason: String

    /// Trouble of `kind`, explained by `reason`.
    public init(kind: Kind, reason: String) {
        self.kind = kind
        self.reason = reason
    }
}
