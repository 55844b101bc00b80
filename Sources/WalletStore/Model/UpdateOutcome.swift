/// The result of updating one pass.
public struct UpdateOutcome: Sendable, Hashable {
    /// The pass after the update (unchanged when ``changed`` is false).
    public let pass: StoredPass
    /// Whether anything was written; a `nil` or equal change advances neither tag nor pushes.
    public let changed: Bool
    /// How many outbox rows (one per registered device) were queued or coalesced.
    public let pushesQueued: Int
}

/// The result of updating every pass of a template (``WalletStore/updatePasses(template:maxAttempts:_:)``).
public struct TemplateUpdateOutcome: Sendable, Hashable {
    /// How many passes the template has (each was shown to the change closure).
    public let matched: Int
    /// How many of them changed.
    public let changed: Int
    /// How many outbox rows were queued or coalesced: one per device, pass type and written batch,
    /// however many of the device's passes changed.
    public let pushesQueued: Int
}
