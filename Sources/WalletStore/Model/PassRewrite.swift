import Foundation

/// A pass as a change leaves it, before the write's update tag is known: the values its row is
/// updated to. The tag is drawn by the database in the same round trip as the rows that name it
/// (``WalletStore/drawTagLater(_:)``), so the pass as written exists only once it is read back
/// (``StoredPass/init(_:updateTag:)``), and no value carries a tag that is not its own.
struct PassRewrite: Sendable {
    /// The pass as the write found it, locked.
    let pass: StoredPass
    let data: String
    let overrides: String
    let voided: Bool
    let templateVersion: Int64
    /// The new modification time (epoch milliseconds).
    let updatedAt: Int64
    /// The change's expiry: `nil` keeps the stored one (``PassChange/expiresAt``).
    let expiry: Date??

    init(_ pass: StoredPass, applying change: PassChange, updatedAt: Int64) {
        self.pass = pass
        data = change.data ?? pass.data
        overrides = change.overrides ?? pass.overrides
        voided = change.voided ?? pass.voided
        templateVersion = change.templateVersion ?? pass.templateVersion
        self.updatedAt = updatedAt
        expiry = change.expiresAt
    }
}
