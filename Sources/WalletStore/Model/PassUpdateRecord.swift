import Foundation
import PassModel
import Storage

/// One change of a pass, as its history keeps it: written in the same transaction as the change, so
/// the history never misses a change nor shows one that did not land.
///
/// (Named `PassUpdateRecord`, not `PassUpdate`: the service layer's `PassService.PassUpdate` is the
/// answer of an update, and a store type of the same name would be shadowed inside it.)
public struct PassUpdateRecord: Sendable, Hashable {
    /// Increasing in commit order of the store's writes; newest first is descending.
    public let id: Int64
    /// The pass.
    public let key: PassKey
    /// The update tag the change was written under.
    public let updateTag: Int64
    /// When it was written.
    public let changedAt: Date
    /// Who made it: `api` (the admin API), `console` (the web console), `hold` (a held notifying
    /// change released at its time), `template vN` (the roll-out of a template's version N), or
    /// whatever the writer passed.
    public let source: String
    /// What it changed, sorted: `data.<key>` for each top-level key of the record added, removed or
    /// changed (`data` when the record is not an object), `overrides.<key>` likewise (`overrides`),
    /// `voided`, and `templateVersion` for a roll-out.
    public let changes: [String]

    init(row: Row) throws {
        id = try row.int64("id")
        key = PassKey(passTypeIdentifier: try row.string("pass_type_identifier"), serialNumber: try row.string("serial_number"))
        updateTag = try row.int64("update_tag")
        changedAt = Milliseconds.date(try row.int64("changed_at"))
        source = try row.string("source")
        changes = (try? JSONDecoder().decode([String].self, from: Data(try row.string("changes").utf8))) ?? []
    }
}

extension PassUpdateRecord {
    /// The source of changes made through the admin API, and the default of the store's writes.
    public static let api = "api"
    /// The source of changes made in the web console.
    public static let console = "console"
    /// The source of held notifying changes written when their time came.
    public static let hold = "hold"

    /// The source of a template roll-out's advance of a pass to `version`.
    public static func template(version: Int64) -> String { "template v\(version)" }
}
