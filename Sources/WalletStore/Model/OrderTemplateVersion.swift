import Foundation
import Storage

/// A version of an order template to store: its `order.json` and every other file, and the digest
/// that tells whether the folder changed since the version stored last.
public struct NewOrderTemplateVersion: Sendable {
    public let name: String
    public let orderTypeIdentifier: String
    /// `order.json` as written.
    public let document: String
    /// Every other file by its path inside the package.
    public let files: [String: Data]
    public let digest: String
    public let origin: WriteOrigin

    public init(name: String, orderTypeIdentifier: String, document: String, files: [String: Data], digest: String, origin: WriteOrigin) {
        self.name = name
        self.orderTypeIdentifier = orderTypeIdentifier
        self.document = document
        self.files = files
        self.digest = digest
        self.origin = origin
    }
}

/// A stored, immutable version of an order template, with its files.
public struct StoredOrderTemplateVersion: Sendable, Equatable {
    public let name: String
    public let version: Int64
    public let orderTypeIdentifier: String
    public let digest: String
    /// `order.json` as written.
    public let document: String
    public let files: [String: Data]
    public let storedAt: Date
}

/// What ``WalletStore/saveOrderTemplateVersion(_:)`` did.
public enum OrderTemplateSave: Sendable, Equatable {
    /// The current version has the same digest: nothing was written.
    case unchanged(version: Int64)
    /// A new version was stored and made current.
    case stored(version: Int64)

    /// The version current after the save.
    public var version: Int64 {
        switch self {
        case .unchanged(let version), .stored(let version): version
        }
    }
}
