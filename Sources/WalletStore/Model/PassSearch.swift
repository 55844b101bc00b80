import Foundation
import PassModel
import Storage

/// A search for passes across pass types (``WalletStore/searchPasses(_:)``): one page in
/// (serial number, pass type identifier) order, continued with the previous page's ``PassSearchPage/next``.
public struct PassSearch: Sendable, Hashable {
    /// The most passes one page holds.
    public static let maximumLimit = 200

    /// Matches passes whose serial number starts with it, or whose record (data JSON text) contains
    /// it; case-sensitive, compared as bytes. `nil` or empty: every pass.
    public var text: String?
    /// Only passes of this template; `nil`: every template.
    public var template: String?
    /// Start after this pass (the previous page's ``PassSearchPage/next``); `nil`: from the start.
    public var after: PassKey?
    /// Passes per page, 1 to ``maximumLimit``.
    public var limit: Int

    /// A search; `limit` is clamped to 1…``maximumLimit``.
    public init(text: String? = nil, template: String? = nil, after: PassKey? = nil, limit: Int = 50) {
        self.text = text
        self.template = template
        self.after = after
        self.limit = min(max(limit, 1), Self.maximumLimit)
    }
}

/// One pass found by a search: what a list shows, without the record or the token.
public struct PassSearchResult: Sendable, Hashable {
    /// The pass.
    public let key: PassKey
    /// Its template.
    public let template: String
    /// The template version it renders from (0: stored before templates had versions).
    public let templateVersion: Int64
    /// Its current update tag.
    public let updateTag: Int64
    /// When it last changed.
    public let updatedAt: Date
    /// Whether it is voided.
    public let voided: Bool

    init(row: Row) throws {
        key = PassKey(passTypeIdentifier: try row.string("pass_type_identifier"), serialNumber: try row.string("serial_number"))
        template = try row.string("template")
        templateVersion = try row.int64("template_version")
        updateTag = try row.int64("update_tag")
        updatedAt = Milliseconds.date(try row.int64("updated_at"))
        voided = try row.bool("voided")
    }
}

/// One page of a search.
public struct PassSearchPage: Sendable, Hashable {
    /// The passes, in (serial number, pass type identifier) order, bytewise.
    public let passes: [PassSearchResult]
    /// The cursor of the next page (the last pass of this one), or `nil` when this page is the last.
    public let next: PassKey?
}
