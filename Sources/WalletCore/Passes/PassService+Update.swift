import PassModel
import Foundation
import WalletStore

/// Updating one pass: the REST `PATCH`, the console's save and a void, through the write pipeline.
extension PassService {
    /// What an update of one pass came to.
    public struct PassUpdate: Sendable {
        /// The pass as stored now (without a held change).
        public let pass: StoredPass
        /// Whether anything changed, now or held.
        public let changed: Bool
        /// Outbox rows queued or coalesced now.
        public let pushesQueued: Int
        /// When a held notifying change goes out, if one is held.
        public let heldUntil: Date?
    }

    /// Applies a change to one pass; a change that changes nothing advances nothing.
    ///
    /// A change that would notify the holder overnight, or within the policy's spacing of the last
    /// notification, is held: later edits fold into it, and silent edits still go out at once.
    /// `origin` says who asks and from where: the pass's history, its event and the audit trail record
    /// it with each change written now; a held change is recorded as ``PassUpdateRecord/hold`` when it
    /// goes out.
    public func update(_ key: PassKey, _ change: Change, origin: WriteOrigin) async throws -> PassUpdate {
        try await writer.write(key, change, origin: origin)
    }
}
