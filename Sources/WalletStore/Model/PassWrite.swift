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
}

/// What a write does with the pass's held notifying change.
public enum HoldAction: Sendable, Hashable {
    /// Leaves it as it is.
    case keep
    /// Stores this one in its place (a new hold, or an edit folded in, or a later write's keys taken out).
    case replace(PassHold)
    /// Removes it: its edits are written now, or nothing of them is left to write.
    case remove
}

/// One pass's part of a batch of compare-and-swap writes (``WalletStore/writePasses(_:)``): the change
/// computed from the version of the pass with `expectedTag` and the held change `expectedHold`.
public struct PassWriteRequest: Sendable, Hashable {
    /// The pass to change.
    public var key: PassKey
    /// The update tag of the version the change was computed from.
    public var expectedTag: Int64
    /// The edits of the held change the write was computed with (``PassHold/edits``), `nil` for none:
    /// a hold stored or changed since is a conflict, like a new tag.
    public var expectedHold: String?
    /// What to set; `nil` (or a change equal to the stored values) writes nothing.
    public var change: PassChange?
    /// What happens to the pass's held change, in the same transaction.
    public var hold: HoldAction
    /// Whether the change shows the holder a notification: the pass's last notification time moves
    /// to now when it is written, so the next notifying change keeps its distance.
    public var notifies: Bool
    /// Who makes the change and from where: the history's source (``PassUpdateRecord/source``), the
    /// event's actor and the audit row's author.
    public var origin: WriteOrigin
    /// Whether the write erases the holder's data (``WalletStore/writePasses(_:)`` then removes the
    /// pass's history, held change, bulk upload lines and device logs, and marks it erased).
    public var erases = false

    /// A change computed from the version of `key` whose tag is `expectedTag`.
    public init(
        key: PassKey, expectedTag: Int64, expectedHold: String? = nil, change: PassChange?, hold: HoldAction = .keep,
        notifies: Bool = false, origin: WriteOrigin = .api
    ) {
        self.key = key
        self.expectedTag = expectedTag
        self.expectedHold = expectedHold
        self.change = change
        self.hold = hold
        self.notifies = notifies
        self.origin = origin
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
