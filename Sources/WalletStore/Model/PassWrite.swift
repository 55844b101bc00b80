import PassModel
/// The answer to a compare-and-swap write of one pass (``WalletStore/writePass(_:expectedTag:change:)``).
///
/// A change is computed from one version of a pass (rendered and validated outside any transaction);
/// the write only lands when the pass still has that version's update tag, so nothing another writer
/// stored in between is lost.
public enum PassWrite: Sendable, Hashable {
    /// The change was written under a new update tag, and `pushesQueued` outbox rows (one per
    /// registered device) were queued or coalesced with a pending one.
    case written(StoredPass, pushesQueued: Int)
    /// The pass still had the expected tag and the change alters nothing: nothing was written, the
    /// tag did not advance and no push was queued.
    case unchanged(StoredPass)
    /// The pass changed after the change was computed: nothing was written. Compute the change again
    /// from `current` (the row as it is now) and write with its tag.
    case conflict(current: StoredPass)
    /// No pass has the key.
    case notFound

    /// The result as an ``UpdateOutcome``, or `nil` for a conflict or a missing pass.
    public var outcome: UpdateOutcome? {
        switch self {
        case .written(let pass, let pushesQueued): UpdateOutcome(pass: pass, changed: true, pushesQueued: pushesQueued)
        case .unchanged(let pass): UpdateOutcome(pass: pass, changed: false, pushesQueued: 0)
        case .conflict, .notFound: nil
        }
    }
}

/// One pass's part of a batch of compare-and-swap writes (``WalletStore/writePasses(_:)``): the change
/// computed from the version of the pass with `expectedTag`.
public struct PassWriteRequest: Sendable, Hashable {
    /// The pass to change.
    public var key: PassKey
    /// The update tag of the version the change was computed from.
    public var expectedTag: Int64
    /// What to set; `nil` (or a change equal to the stored values) writes nothing.
    public var change: PassChange?
    /// Whether the change shows the holder a notification: the pass's last notification time moves
    /// to now when it is written, so the next notifying change keeps its distance.
    public var notifies: Bool
    /// Whether the write carries out the pass's held change, which is then removed with it.
    public var releasesHold: Bool
    /// Who makes the change, as the pass's history records it (``PassUpdateRecord/source``).
    public var source: String

    /// A change computed from the version of `key` whose tag is `expectedTag`.
    public init(
        key: PassKey, expectedTag: Int64, change: PassChange?, notifies: Bool = false, releasesHold: Bool = false,
        source: String = PassUpdateRecord.api
    ) {
        self.key = key
        self.expectedTag = expectedTag
        self.change = change
        self.notifies = notifies
        self.releasesHold = releasesHold
        self.source = source
    }

    /// The change computed from `base`, a version of the pass as read from the store.
    public init(_ change: PassChange?, over base: StoredPass, source: String = PassUpdateRecord.api) {
        self.init(key: base.key, expectedTag: base.updateTag, change: change, source: source)
    }
}

/// The answer to a batch of compare-and-swap writes: what landed, and what must be computed again.
public struct PassBatchWrite: Sendable, Hashable {
    /// The passes written, all under one new update tag, in request order.
    public let written: [StoredPass]
    /// The passes that still had their expected tag but whose change alters nothing.
    public let unchanged: [StoredPass]
    /// The current rows of the passes that changed after their change was computed: nothing of them
    /// was written.
    public let conflicts: [StoredPass]
    /// The requested keys no pass has.
    public let missing: [PassKey]
    /// Outbox rows queued or coalesced: one per device and pass type among the written passes.
    public let pushesQueued: Int
}
