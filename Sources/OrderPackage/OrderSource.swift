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
    /// Warnings from decoding (unknown keys).
    public var warnings: [ValidationIssue]
    /// Files left out (junk, links, stray folders), with the reason.
    public var skipped: [String]

    /// Reads `directory`: `order.json` must decode (every decoding problem in one error); the other
    /// files are listed by the rules passes follow too (`DocumentFolder`).
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
        let (order, warnings): (Order, [ValidationIssue])
        do {
            (order, warnings) = try Order.decode(json)
        } catch {
            throw .undecodableOrder(error)
        }
        return OrderSource(order: order, files: files, warnings: warnings, skipped: folder.skipped)
    }
}
