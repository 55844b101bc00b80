import PassModel
import Foundation
import Storage

/// Templates as immutable versions: every instance on one database issues and renders from the same
/// files, and a new version reaches the passes through the roll-out, in bounded batches.
extension WalletStore {
    private static let versionColumns = "name, version, digest, uploaded_by, uploaded_at, restores, findings"

    /// Stores `version` as the template's new current version, unless its digest equals the current
    /// one's: then nothing is written. In one transaction, so two instances uploading at once get
    /// versions N and N+1, never the same number, and a half-stored version is never visible.
    ///
    /// When the template is new, passes stored before templates had versions (version 0) adopt
    /// version 1 without a new tag: they were rendered from these very files. The version becomes
    /// current under the tags' lock, so no pass of an older version is stored after it.
    public func saveTemplateVersion(_ version: NewTemplateVersion) async throws -> TemplateSave {
        let now = clock.nowMilliseconds()
        return try await storing("store a version of the template \(version.name)") {
            try await database.transaction { transaction in
                _ = try await transaction.execute(SQL(
                    "INSERT INTO templates (name, current_version, created_at, updated_at) VALUES (?, 0, ?, ?) ON CONFLICT (name) DO NOTHING",
                    .text(version.name), .integer(now), .integer(now)))
                let lock = transaction.engine == .postgres ? " FOR UPDATE" : ""
                let current = try await transaction.query(SQL(
                    unsafeText: "SELECT current_version FROM templates WHERE name = ?" + lock, parameters: [.text(version.name)]))
                let currentVersion = try current[0].int64("current_version")
                if currentVersion > 0, let stored = try await Self.version(version.name, currentVersion, in: transaction),
                   stored.digest == version.digest {
                    return .unchanged(stored)
                }
                let next = currentVersion + 1
                _ = try await transaction.execute(SQL(
                    """
                    INSERT INTO template_versions (name, version, digest, uploaded_by, uploaded_at, restores, findings)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                    .text(version.name), .integer(next), .text(version.digest), .text(version.origin.actor), .integer(now),
                    version.restores.map(SQLValue.integer) ?? .null, .text(version.findings)))
                for file in version.files {
                    _ = try await transaction.execute(SQL(
                        "INSERT INTO template_files (name, version, path, bytes) VALUES (?, ?, ?, ?)",
                        .text(version.name), .integer(next), .text(file.path), .blob(file.bytes)))
                }
                // Under the tags' lock, held to the commit: an issue of the old version that holds it
                // commits first (and the roll-out that follows sees its pass); one that waits for it
                // finds this version current and builds its pass again (``versionIsCurrent``).
                try await Self.lockTags(transaction)
                _ = try await transaction.execute(SQL(
                    "UPDATE templates SET current_version = ?, updated_at = ? WHERE name = ?",
                    .integer(next), .integer(now), .text(version.name)))
                guard let stored = try await Self.version(version.name, next, in: transaction) else {
                    throw WalletStoreError.templateNotFound(version.name)
                }
                var payload: JSONObject = ["version": .number(Double(next)), "digest": .string(version.digest)]
                if let restores = version.restores { payload["restores"] = .number(Double(restores)) }
                try await self.appendEvents([WalletEventDraft(
                    type: .templatePublished, template: version.name, actor: version.origin.actor, payload: payload)], at: now, in: transaction)
                let audit = AuditDraft(
                    action: version.restores == nil ? "template.publish" : "template.rollback", target: "template \(version.name)",
                    changes: ["version \(next)"])
                try await self.appendAudit([audit], by: version.origin, at: now, in: transaction)
                if currentVersion == 0 {
                    _ = try await transaction.execute(SQL(
                        "UPDATE passes SET template_version = ? WHERE template = ? AND template_version = 0",
                        .integer(next), .text(version.name)))
                    return .created(stored)
                }
                return .newVersion(stored, previous: currentVersion)
            }
        }
    }

    /// The template's current version number, `nil` when there is no such template.
    public func currentTemplateVersion(_ name: String) async throws -> Int64? {
        try await storing("read the current version of the template \(name)") {
            try await database.query(SQL("SELECT current_version FROM templates WHERE name = ? AND current_version > 0", .text(name)))
                .first.map { try $0.int64("current_version") }
        }
    }

    /// Every template's current version, by name.
    public func currentTemplateVersions() async throws -> [String: Int64] {
        try await storing("read the current template versions") {
            try await currentVersions(SQL("SELECT name, current_version FROM templates WHERE current_version > 0"))
        }
    }

    /// The `name` → `current_version` rows `query` reads: pass templates' or order templates'.
    func currentVersions(_ query: SQL) async throws -> [String: Int64] {
        var versions: [String: Int64] = [:]
        for row in try await database.query(query) {
            versions[try row.string("name")] = try row.int64("current_version")
        }
        return versions
    }

    /// One version's record, `nil` when there is none.
    public func templateVersion(_ name: String, _ version: Int64) async throws -> StoredTemplateVersion? {
        try await storing("read version \(version) of the template \(name)") {
            try await database.query(SQL(
                unsafeText: "SELECT \(Self.versionColumns) FROM template_versions WHERE name = ? AND version = ?",
                parameters: [.text(name), .integer(version)])).first.map(StoredTemplateVersion.init(row:))
        }
    }

    /// Every version of the template, newest first.
    public func templateVersions(_ name: String) async throws -> [StoredTemplateVersion] {
        try await storing("read the versions of the template \(name)") {
            try await database.query(SQL(
                unsafeText: "SELECT \(Self.versionColumns) FROM template_versions WHERE name = ? ORDER BY version DESC",
                parameters: [.text(name)])).map(StoredTemplateVersion.init(row:))
        }
    }

    /// The files of one version, sorted by path.
    public func templateFiles(_ name: String, _ version: Int64) async throws -> [(path: String, bytes: Data)] {
        try await storing("read the files of version \(version) of the template \(name)") {
            try await database.query(SQL(
                "SELECT path, bytes FROM template_files WHERE name = ? AND version = ? ORDER BY path",
                .text(name), .integer(version))).map { (try $0.string("path"), try $0.data("bytes")) }
        }
    }

    /// Every template (or the one named `name`) with its current version, its passes and how many
    /// still render from an older version, for the API and the console.
    public func templateRollouts(named name: String? = nil) async throws -> [TemplateRollout] {
        try await storing("read the template roll-outs") {
            try await database.query(Self.templateRolloutsQuery(named: name)).map {
                let behind = try $0.int("behind")
                return TemplateRollout(
                    name: try $0.string("name"), currentVersion: try $0.int64("current_version"),
                    passes: behind + (try $0.int("on_current")), behind: behind)
            }
        }
    }

    /// The statement behind ``templateRollouts(named:)``, on its own so that tests can ask each
    /// engine for its plan.
    ///
    /// A template's passes are summed from `template_version_passes`, the count per template and
    /// version the database keeps as the passes change (``WalletSchema/heapOnlyPassUpdates``): a
    /// few rows a template, however many passes it has, whichever way the roll-out stands. (Grouping
    /// a join of every pass took 0.31–0.39 s of PostgreSQL at a million passes, on every template
    /// page and every look of the roll-out worker; see BENCHMARKS.md.)
    static func templateRolloutsQuery(named name: String?) -> SQL {
        SQL(
            unsafeText: """
            SELECT templates.name AS name, templates.current_version AS current_version,
                   CAST((SELECT COALESCE(SUM(counts.passes), 0) FROM template_version_passes counts
                         WHERE counts.template = templates.name AND counts.version < templates.current_version) AS BIGINT) AS behind,
                   CAST((SELECT COALESCE(SUM(counts.passes), 0) FROM template_version_passes counts
                         WHERE counts.template = templates.name AND counts.version >= templates.current_version) AS BIGINT) AS on_current
            FROM templates
            WHERE templates.current_version > 0 \(name == nil ? "" : "AND templates.name = ?")
            ORDER BY templates.name
            """, parameters: name.map { [SQLValue.text($0)] } ?? [])
    }

    /// The templates with a pass still behind their current version, with that version: what the
    /// roll-out works on.
    public func templatesBehind() async throws -> [(name: String, currentVersion: Int64)] {
        try await storing("read the templates behind their current version") {
            try await database.query(Self.templatesBehindQuery).map { (name: try $0.string("name"), currentVersion: try $0.int64("current_version")) }
        }
    }

    /// The statement behind ``templatesBehind()``: the roll-out worker's look at every start and
    /// upload reads the template's counts per version, never its passes, so it costs nothing however
    /// many passes there are.
    static let templatesBehindQuery = SQL(
        """
        SELECT name, current_version FROM templates
        WHERE current_version > 0
          AND EXISTS (SELECT 1 FROM template_version_passes counts
                      WHERE counts.template = templates.name AND counts.version < templates.current_version AND counts.passes > 0)
        ORDER BY name
        """)

    /// Records that every pass of `name` renders from `version`, its current one, unless a pass is still
    /// behind or this was recorded already: then nothing happens and the answer is `false`. The first
    /// caller appends `rollout.finished`, in the same transaction, so the event is appended once.
    public func finishRollout(_ name: String, version: Int64) async throws -> Bool {
        let now = clock.nowMilliseconds()
        return try await storing("finish the roll-out of \(name) version \(version)") {
            try await database.transaction { transaction in
                let finished = try await transaction.execute(SQL(
                    """
                    UPDATE templates SET rolled_out_version = ?
                    WHERE name = ? AND current_version = ? AND rolled_out_version < ?
                      AND NOT EXISTS (SELECT 1 FROM template_version_passes WHERE template = ? AND version < ? AND passes > 0)
                    """,
                    .integer(version), .text(name), .integer(version), .integer(version), .text(name), .integer(version)))
                guard finished == 1 else { return false }
                let passes = try await transaction.query(SQL(
                    "SELECT CAST(COALESCE(SUM(passes), 0) AS BIGINT) AS count FROM template_version_passes WHERE template = ?", .text(name)))[0].int("count")
                try await self.appendEvents([WalletEventDraft(
                    type: .rolloutFinished, template: name, actor: "template v\(version)",
                    payload: ["version": .number(Double(version)), "passes": .number(Double(passes))])], at: now, in: transaction)
                return true
            }
        }
    }

    /// Passes of the template behind `version` whose move to it is not held already, in serial order
    /// after `after` (``templatePageQuery(_:behind:after:limit:engine:)``): a roll-out that may
    /// notify holders moves them one by one through the write pipeline (which holds the notifying
    /// ones), instead of in one statement.
    public func passesBehind(_ name: String, version: Int64, after: PassKey? = nil, limit: Int) async throws -> [StoredPass] {
        try await storing("list the passes of the template \(name) behind version \(version)") {
            try await database.query(Self.templatePageQuery(name, behind: version, after: after, limit: limit, engine: database.engine))
                .map(StoredPass.init(row:))
        }
    }

    /// The condition (one parameter: the version) that a pass's move to a version is not held.
    static let notHeldAtVersion = """
        NOT EXISTS (SELECT 1 FROM held_changes WHERE held_changes.pass_type_identifier = passes.pass_type_identifier
                    AND held_changes.serial_number = passes.serial_number AND held_changes.template_version >= ?)
        """

    private static func version(_ name: String, _ version: Int64, in transaction: Transaction) async throws -> StoredTemplateVersion? {
        try await transaction.query(SQL(
            unsafeText: "SELECT \(versionColumns) FROM template_versions WHERE name = ? AND version = ?",
            parameters: [.text(name), .integer(version)])).first.map(StoredTemplateVersion.init(row:))
    }
}
