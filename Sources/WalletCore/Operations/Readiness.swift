/// The facts `/readyz` answers from (``WalletServices/readiness()`` gathers them; `WalletHTTP` turns
/// them into the answer): `503` until the database answers and while no template can issue passes,
/// since a load balancer should not send traffic that can only fail; every unusable template is named
/// with its reason (an identity that cannot be read says why and which user the server runs as). A
/// refused APNs identity degrades pushes only: still `200`, with status `degraded`.
public struct Readiness: Sendable {
    /// Whether the database answered a ping.
    public var databaseAnswers: Bool
    /// Each template's reason for being unusable, `nil` when it can issue passes.
    public var templates: [String: String?]
    /// Pass types whose pushes stopped, with the reason.
    public var stoppedPushIdentities: [String: String]
    /// Identities whose certificate ends soon, with when: still signing, so degraded, not unready.
    public var identitiesNeedingRenewal: [String: String] = [:]
}
