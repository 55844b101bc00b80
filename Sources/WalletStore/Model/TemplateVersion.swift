import Foundation
import Storage

/// One immutable version of a template, as stored: its files live beside it in `template_files`.
public struct StoredTemplateVersion: Sendable, Hashable {
    /// The template's name.
    public let name: String
    /// 1, 2, 3…: only grows; a rollback stores an older version again under a new number.
    public let version: Int64
    /// SHA-256 over the sorted file paths and bytes: equal digests mean equal templates.
    public let digest: String
    /// Who uploaded it (`api`, `key <id>`, `console`, `folder <path>` for an imported folder).
    public let uploadedBy: String
    /// When it was stored.
    public let uploadedAt: Date
    /// For a rollback, the version whose files it restores.
    public let restores: Int64?
    /// The lint findings at upload, as JSON text (an array), kept for the history.
    public let findings: String

    init(row: Row) throws {
        name = try row.string("name")
        version = try row.int64("version")
        digest = try row.string("digest")
        uploadedBy = try row.string("uploaded_by")
        uploadedAt = Milliseconds.date(try row.int64("uploaded_at"))
        restores = try row.optionalInt64("restores")
        findings = try row.string("findings")
    }
}

/// A version to store.
public struct NewTemplateVersion: Sendable {
    /// The template's name.
    public var name: String
    /// The files by path.
    public var files: [(path: String, bytes: Data)]
    /// The content digest of `files`.
    public var digest: String
    /// Who uploads it, and from where (the audit row's author).
    public var origin: WriteOrigin
    /// Lint findings as JSON text.
    public var findings: String
    /// For a rollback, the version whose files it restores.
    public var restores: Int64?

    /// Creates a version to store.
    public init(name: String, files: [(path: String, bytes: Data)], digest: String, origin: WriteOrigin, findings: String = "[]", restores: Int64? = nil) {
        self.name = name
        self.files = files
        self.digest = digest
        self.origin = origin
        self.findings = findings
        self.restores = restores
    }
}

/// What storing a version came to.
public enum TemplateSave: Sendable, Hashable {
    /// A template of that name did not exist: version 1 is current.
    case created(StoredTemplateVersion)
    /// A new version is current; the passes of the template now render from an older one until the
    /// roll-out advances them.
    case newVersion(StoredTemplateVersion, previous: Int64)
    /// The digest equals the current version's: nothing was stored, nothing changes.
    case unchanged(StoredTemplateVersion)

    /// The version that is current afterwards.
    public var current: StoredTemplateVersion {
        switch self {
        case .created(let version), .newVersion(let version, _), .unchanged(let version): version
        }
    }
}

/// A template and where its passes are in rolling out its current version.
public struct TemplateRollout: Sendable, Hashable {
    /// The template's name.
    public let name: String
    /// Its current version.
    public let currentVersion: Int64
    /// Its passes.
    public let passes: Int
    /// Passes still rendering from an older version.
    public let behind: Int
}
