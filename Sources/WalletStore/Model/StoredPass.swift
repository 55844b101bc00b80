import Foundation
import PassModel
import Storage

/// A pass as stored, with its update tag and modification time.
public struct StoredPass: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The pass's permanent identity.
    public let key: PassKey
    /// The name of the template the pass is compiled from.
    public let template: String
    /// The record (JSON text).
    public let data: String
    /// Per-pass top-level `pass.json` overrides (JSON text, `{}` when none).
    public let overrides: String
    /// The pass's `authenticationToken`; compare it in constant time, never log it.
    public let authenticationToken: String
    /// The tag of the last change, from a store-wide strictly increasing counter; the web service's
    /// `lastUpdated` and `passesUpdatedSince` are these numbers.
    public let updateTag: Int64
    /// Whether the pass is voided.
    public let voided: Bool
    /// When the pass was created.
    public let createdAt: Date
    /// When the pass last changed: the `Last-Modified` of the pass endpoint. Every change moves it to
    /// a later whole second, so a comparison with 1-second HTTP dates always sees the change.
    public let lastModified: Date
    /// ``lastModified`` in epoch milliseconds, as stored.
    public let updatedAtMilliseconds: Int64
    /// The template version the pass renders from: it moves to a new version together with the update
    /// tag, so what a device fetches always matches the tag it was told about. 0 for a pass stored
    /// before templates had versions (it renders from the current version).
    public let templateVersion: Int64
    /// When a change last showed the holder a notification, if ever (epoch milliseconds).
    public let lastNotifiedAtMilliseconds: Int64?

    /// ``lastNotifiedAtMilliseconds`` as a date.
    public var lastNotifiedAt: Date? { lastNotifiedAtMilliseconds.map(Milliseconds.date) }

    /// The key, template and tag only: the token must not reach a log.
    public var description: String { "StoredPass(\(key), template: \(template) v\(templateVersion), updateTag: \(updateTag), voided: \(voided))" }

    /// Debuggers and `dump` show the description only, never the token.
    public var customMirror: Mirror { Mirror(self, children: ["pass": description]) }

    /// Every column of `passes`, as ``init(row:)`` reads them.
    static let columns = """
        pass_type_identifier, serial_number, template, data, overrides, authentication_token,
        update_tag, voided, created_at, updated_at, template_version, last_notified_at
        """

    /// Decodes a row selected with every column of `passes`.
    init(row: Row) throws {
        key = PassKey(passTypeIdentifier: try row.string("pass_type_identifier"), serialNumber: try row.string("serial_number"))
        template = try row.string("template")
        data = try row.string("data")
        overrides = try row.string("overrides")
        authenticationToken = try row.string("authentication_token")
        updateTag = try row.int64("update_tag")
        voided = try row.bool("voided")
        createdAt = Milliseconds.date(try row.int64("created_at"))
        updatedAtMilliseconds = try row.int64("updated_at")
        lastModified = Milliseconds.date(updatedAtMilliseconds)
        templateVersion = try row.int64("template_version")
        lastNotifiedAtMilliseconds = try row.optionalInt64("last_notified_at")
    }

    /// The pass as `rewrite` leaves it, under the tag its write drew.
    init(_ rewrite: PassRewrite, updateTag: Int64) {
        let pass = rewrite.pass
        key = pass.key
        template = pass.template
        data = rewrite.data
        overrides = rewrite.overrides
        authenticationToken = pass.authenticationToken
        self.updateTag = updateTag
        voided = rewrite.voided
        createdAt = pass.createdAt
        updatedAtMilliseconds = rewrite.updatedAt
        lastModified = Milliseconds.date(rewrite.updatedAt)
        templateVersion = rewrite.templateVersion
        lastNotifiedAtMilliseconds = pass.lastNotifiedAtMilliseconds
    }
}
