import Foundation
import Storage

/// An order as stored: its whole `order.json` and what the Orders web service needs to answer for it.
public struct StoredOrder: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    public let key: OrderKey
    /// The order template it was created from (its images and `.lproj` folders).
    public let template: String
    /// The version of the template whose files it is signed with: the one current when it was
    /// created (0 only for an order made before versions whose template was never stored since).
    public let templateVersion: Int64
    /// `order.json` as Wallet gets it (JSON text), the token and `updatedAt` included.
    public let document: String
    /// The order's `authenticationToken`; compare it in constant time, never log it.
    public let authenticationToken: String
    /// The tag of the last change, from the counter passes use: the registrations list's
    /// `lastModified` and `ordersModifiedSince` are these numbers.
    public let updateTag: Int64
    public let createdAt: Date
    /// The document's `updatedAt`: the `Last-Modified` of the order endpoint. Every change moves it
    /// to a later whole second (Apple: it must increase), so 1-second HTTP dates always see a change.
    public let lastModified: Date
    /// When the customer's data was erased from it (``WalletStore/writeOrder(_:)`` with
    /// ``OrderChange/erases``), or `nil`: an erased order is a tombstone that takes no change.
    public let erasedAt: Date?

    /// The key, template and tag only: the document holds the customer and the token.
    public var description: String { "StoredOrder(\(key), template: \(template) v\(templateVersion), updateTag: \(updateTag))" }

    /// Debuggers and `dump` show the description only.
    public var customMirror: Mirror { Mirror(self, children: ["order": description]) }

    public init(
        key: OrderKey, template: String, templateVersion: Int64, document: String, authenticationToken: String, updateTag: Int64, createdAt: Date, lastModified: Date,
        erasedAt: Date? = nil
    ) {
        self.key = key
        self.template = template
        self.templateVersion = templateVersion
        self.document = document
        self.authenticationToken = authenticationToken
        self.updateTag = updateTag
        self.createdAt = createdAt
        self.lastModified = lastModified
        self.erasedAt = erasedAt
    }

    static let columns = "order_type_identifier, order_identifier, template, template_version, document, authentication_token, update_tag, created_at, updated_at, erased_at"

    init(row: Row) throws {
        key = OrderKey(orderTypeIdentifier: try row.string("order_type_identifier"), orderIdentifier: try row.string("order_identifier"))
        template = try row.string("template")
        templateVersion = try row.int64("template_version")
        document = try row.string("document")
        authenticationToken = try row.string("authentication_token")
        updateTag = try row.int64("update_tag")
        createdAt = Milliseconds.date(try row.int64("created_at"))
        lastModified = Milliseconds.date(try row.int64("updated_at"))
        erasedAt = try row.optionalInt64("erased_at").map(Milliseconds.date)
    }
}

/// What ``WalletStore/writeOrder(_:)`` did.
public enum OrderWrite: Sendable, Equatable {
    /// The change landed under a new tag, with this many pushes queued.
    case written(StoredOrder, pushesQueued: Int)
    /// Another write landed since the change was computed: compute it again from `current`.
    case conflict(current: StoredOrder)
    /// No such order.
    case notFound
    /// The order's customer data was erased: it is a tombstone and takes no change.
    case erased(StoredOrder)
}

/// A change to an order, computed outside the store from the version with `expectedTag`.
public struct OrderChange: Sendable {
    public var key: OrderKey
    public var expectedTag: Int64
    /// The new `order.json` (JSON text).
    public var document: String
    /// Its `updatedAt`.
    public var lastModified: Date
    /// The top-level keys the change altered, for the event and the audit row (names, never values).
    public var changes: [String]
    public var origin: WriteOrigin
    /// This change erases the customer's data (GDPR Art. 17): the order is marked erased, the
    /// device logs naming it go, and the event and audit row say `erased`, in the same transaction.
    public var erases = false

    public init(key: OrderKey, expectedTag: Int64, document: String, lastModified: Date, changes: [String], origin: WriteOrigin) {
        self.key = key
        self.expectedTag = expectedTag
        self.document = document
        self.lastModified = lastModified
        self.changes = changes
        self.origin = origin
    }
}
