import Foundation
import OrderModel
import PassModel

/// A signed order: the `.order` bytes plus the facts a caller stores or reports.
public struct CompiledOrder: Sendable {
    /// The typed order that was signed.
    public let order: Order
    /// The exact `order.json` bytes inside the archive.
    public let orderJSON: Data
    /// The exact `manifest.json` bytes the signature covers.
    public let manifest: Data
    /// The `.order` bytes.
    public let archive: Data
    /// Warnings about the order (unknown keys, soft rules); errors never get this far.
    public let warnings: [ValidationIssue]
}
