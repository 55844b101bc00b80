import Foundation
import Storage

/// Order templates as immutable versions in the database: every instance signs an order with the
/// files of the version the order was created from, whatever its own templates folder holds.
extension WalletStore {
    /// Stores `version` as the template's new current version unless its digest equals the current
    /// one's (then nothing is written). In one transaction with an `order-template.publish` audit
    /// row, so two instances importing the same change at once store it once; orders made before
    /// versions (version 0) adopt the template's first version.
    public func saveOrderTemplateVersion(_ version: NewOrderTemplateVersion) async throws -> OrderTemplateSave {
        let now = clock.nowMilliseconds()
        return try await storing("store a version of the order template \(version.name)") {
            try await database.transaction { transaction in
                _ = try await transaction.execute(SQL(
                    "INSERT INTO order_templates (name, current_version, updated_at) VALUES (?, 0, ?) ON CONFLICT (name) DO NOTHING",
                    .text(version.name), .integer(now)))
                let lock = transaction.engine == .postgres ? " FOR UPDATE OF order_templates" : ""
                let current = try await transaction.query(SQL(
                    unsafeText: """
                    SELECT order_templates.current_version, order_template_versions.digest FROM order_templates
                    LEFT JOIN order_template_versions ON order_template_versions.name = order_templates.name
                                                     AND order_template_versions.version = order_templates.current_version
                    WHERE order_templates.name = ?
                    """ + lock,
                    parameters: [.text(version.name)]))
                let currentVersion = try current[0].int64("current_version")
                if currentVersion > 0, try current[0].optionalString("digest") == version.digest {
                    return .unchanged(version: currentVersion)
                }
                let next = currentVersion + 1
                _ = try await transaction.execute(SQL(
                    """
                    INSERT INTO order_template_versions (name, version, order_type_identifier, digest, document, stored_by, stored_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                    .text(version.name), .integer(next), .text(version.orderTypeIdentifier), .text(version.digest), .text(version.document),
                    .text(version.origin.actor), .integer(now)))
                for (path, bytes) in version.files.sorted(by: { $0.key < $1.key }) {
                    _ = try await transaction.execute(SQL(
                        "INSERT INTO order_template_files (name, version, path, bytes) VALUES (?, ?, ?, ?)",
                        .text(version.name), .integer(next), .text(path), .blob(bytes)))
                }
                _ = try await transaction.execute(SQL(
                    "UPDATE order_templates SET current_version = ?, updated_at = ? WHERE name = ?", .integer(next), .integer(now), .text(version.name)))
                if currentVersion == 0 {
                    _ = try await transaction.execute(SQL(
                        "UPDATE orders SET template_version = ? WHERE template = ? AND template_version = 0", .integer(next), .text(version.name)))
                }
                try await self.appendAudit(
                    [AuditDraft(action: "order-template.publish", target: "order template \(version.name)", changes: ["version \(next)"])],
                    by: version.origin, at: now, in: transaction)
                return .stored(version: next)
            }
        }
    }

    /// Every order template's current version, by name.
    public func currentOrderTemplateVersions() async throws -> [String: Int64] {
        try await storing("read the current order template versions") {
            try await currentVersions(SQL("SELECT name, current_version FROM order_templates WHERE current_version > 0"))
        }
    }

    /// Whether any version of the order template, current or not, has `digest`: a folder imported at
    /// start whose files were stored before is not stored again, so a restart never undoes a newer
    /// version an upload made current.
    public func hasOrderTemplateVersion(_ name: String, digest: String) async throws -> Bool {
        try await storing("look for a version of the order template \(name)") {
            try await !database.query(SQL(
                "SELECT 1 AS found FROM order_template_versions WHERE name = ? AND digest = ? LIMIT 1", .text(name), .text(digest))).isEmpty
        }
    }

    /// Every version of the order template, newest first, without their files: (version, digest,
    /// who stored it, when).
    public func orderTemplateVersions(_ name: String) async throws -> [(version: Int64, digest: String, storedBy: String, storedAt: Date)] {
        try await storing("read the versions of the order template \(name)") {
            try await database.query(SQL(
                "SELECT version, digest, stored_by, stored_at FROM order_template_versions WHERE name = ? ORDER BY version DESC", .text(name)
            )).map { (try $0.int64("version"), try $0.string("digest"), try $0.string("stored_by"), Milliseconds.date(try $0.int64("stored_at"))) }
        }
    }

    /// How many orders each version of the order template signs, by version; versions without
    /// orders are absent. Erased orders count: Wallet still fetches them, signed with their version.
    /// A walk of the template's orders (its index), for an admin's look, not a hot path.
    public func orderCountsByVersion(ofTemplate name: String) async throws -> [Int64: Int] {
        try await storing("count the orders of the order template \(name) by version") {
            var counts: [Int64: Int] = [:]
            for row in try await database.query(SQL(
                "SELECT template_version, COUNT(*) AS count FROM orders WHERE template = ? GROUP BY template_version", .text(name))) {
                counts[try row.int64("template_version")] = try row.int("count")
            }
            return counts
        }
    }

    /// One version of an order template with its files, `nil` when there is none.
    public func orderTemplateVersion(_ name: String, _ version: Int64) async throws -> StoredOrderTemplateVersion? {
        try await storing("read version \(version) of the order template \(name)") {
            guard let row = try await database.query(SQL(
                "SELECT order_type_identifier, digest, document, stored_at FROM order_template_versions WHERE name = ? AND version = ?",
                .text(name), .integer(version))).first else { return nil }
            var files: [String: Data] = [:]
            for file in try await database.query(SQL(
                "SELECT path, bytes FROM order_template_files WHERE name = ? AND version = ?", .text(name), .integer(version))) {
                files[try file.string("path")] = try file.data("bytes")
            }
            return StoredOrderTemplateVersion(
                name: name, version: version, orderTypeIdentifier: try row.string("order_type_identifier"), digest: try row.string("digest"),
                document: try row.string("document"), files: files, storedAt: Milliseconds.date(try row.int64("stored_at")))
        }
    }
}
