import Foundation
import WalletStore

/// What `GET /api/v1/templates/{template}` answers (and `passwright templates versions` prints): the
/// current version, the roll-out (passes, and those still on an older version) and the history.
public struct TemplateDetails: WireValue {
    public static let schemaName = "TemplateDetails"

    /// One stored version.
    public struct Version: Codable, Sendable, Equatable {
        /// The version number, from 1, in upload order.
        public var version: Int64
        /// SHA-256 over the sorted file paths and bytes.
        public var digest: String
        /// Who stored it: `admin API`, `admin API (rollback)`, or the folder it was imported from.
        public var uploadedBy: String
        /// When it was stored.
        public var uploadedAt: Date
        /// The older version a rollback copied; absent for an upload.
        public var restores: Int64?

        /// Creates the value from its members.
        public init(version: Int64, digest: String, uploadedBy: String, uploadedAt: Date, restores: Int64? = nil) {
            self.version = version
            self.digest = digest
            self.uploadedBy = uploadedBy
            self.uploadedAt = uploadedAt
            self.restores = restores
        }
    }

    /// The template's name.
    public var name: String
    /// The version new passes are issued from.
    public var currentVersion: Int64
    /// Passes issued from the template.
    public var passes: Int
    /// Passes the roll-out has not reached yet.
    public var passesBehind: Int
    /// Whether the current version can issue passes.
    public var status: TemplateStatus
    /// Why the current version cannot issue passes; absent when it can.
    public var reason: String?
    /// Oldest first.
    public var versions: [Version]

    /// Creates the value from its members.
    public init(
        name: String, currentVersion: Int64, passes: Int, passesBehind: Int, status: TemplateStatus, reason: String? = nil,
        versions: [Version]
    ) {
        self.name = name
        self.currentVersion = currentVersion
        self.passes = passes
        self.passesBehind = passesBehind
        self.status = status
        self.reason = reason
        self.versions = versions
    }
}

extension TemplateDetails.Version {
    /// A stored version as the admin API and the console show it.
    init(_ stored: StoredTemplateVersion) {
        self.init(version: stored.version, digest: stored.digest, uploadedBy: stored.uploadedBy, uploadedAt: stored.uploadedAt, restores: stored.restores)
    }
}
