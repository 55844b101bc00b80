import Foundation
import OrderModel
import PassModel
import WalletPackage

/// An order's source as a folder holds it (Apple's "Creating the source for an order"): `order.json`
/// decoded into an `Order`, and every other file by its path inside the package.
public struct OrderSource: Sendable {
    /// The decoded order.
    public var order: Order
    /// The other files: path inside the package (`logo.png`, `de.lproj/logo.png`) → bytes.
    public var files: [String: Data]
    /// What decoding found: warnings (unknown keys) and errors (a value of the wrong type or outside
    /// its enumeration, left at its default), kept rather than thrown so that a build reports them
    /// with every other problem of the order at once (``OrderPackager/package(_:at:)``).
    public var issues: [ValidationIssue]

    /// The decoding warnings only.
    public var warnings: [ValidationIssue] { issues.filter { $0.severity != .error } }
    /// Files left out (junk, links, stray folders), with the reason.
    public var skipped: [String]

    /// Reads `directory`: `order.json` must be a JSON object (its decoding problems are kept in
    /// ``issues``); the other files are listed by the rules passes follow too (`DocumentFolder`).
    public static func load(from directory: URL) throws(OrderPackageError) -> OrderSource {
        let folder: DocumentFolder
        do {
            folder = try DocumentFolder(directory: directory)
        } catch {
            throw .source(path: directory.path, message: "\(error)")
        }
        var json: Data?
        var files: [String: Data] = [:]
        for entry in folder.entries {
            let bytes: Data
            do {
                bytes = try Data(contentsOf: entry.url)
            } catch {
                throw .source(path: entry.path, message: "cannot be read: \(error.localizedDescription)")
            }
            if entry.path == WalletDocumentKind.order.payloadFile { json = bytes } else { files[entry.path] = bytes }
        }
        guard let json else {
            throw .source(path: directory.path, message: "has no order.json: an order's source is an order.json with its images")
        }
        let (order, issues): (Order, [ValidationIssue])
        do {
            (order, issues) = try Order.decodeAll(JSONValue.parse(json))
        } catch {
            throw .undecodableOrder(error)
        }
        return OrderSource(order: order, files: files, issues: issues, skipped: folder.skipped)
    }
}
