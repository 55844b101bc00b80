/// The transaction open on the SQLite writer and the writes that share it.
///
/// SQLite has one writer, so writes queue for it. Instead of a `BEGIN IMMEDIATE … COMMIT` each, a
/// write that finds others waiting hands them its open transaction; each runs in a savepoint of its
/// own (undone alone if its body throws), and the last one commits for all. The pages a write
/// changes are then appended to the WAL once per group instead of once per write, and the lock
/// taken once. Bounded, so the first write of a group is not kept waiting for long.
struct SQLiteCommitGroup {
    /// The most writes one commit takes.
    static let maximumMembers = 32
    /// How long the first write handed on may wait for the commit: past it, the write that finds
    /// the group open commits instead of handing it on.
    static let maximumWait = Duration.milliseconds(2)

    let outcome = SQLiteCommitOutcome()
    private(set) var members = 0
    /// When the first write was done and handed the transaction on; its answer waits from then.
    private var firstHandedOn: ContinuousClock.Instant?

    /// Whether another write may still join before the commit.
    var mayGrow: Bool {
        members < Self.maximumMembers && (firstHandedOn.map { $0.duration(to: .now) < Self.maximumWait } ?? true)
    }

    mutating func join() {
        members += 1
    }

    mutating func handedOn() {
        if firstHandedOn == nil { firstHandedOn = .now }
    }
}
