import Foundation
import PassCompiler
import PassModel
import WalletStore

/// A version of an order template: the `order.json` every order of it starts from (merchant, order
/// type, images by name) and its images and `.lproj` folders, as stored in the database. Folders
/// under `<templates>/orders/<name>/` are imported as new versions when their files change
/// (``OrderService/importFolders(in:logger:)``).
///
/// Orders differ from passes in shape: line items and fulfilments are lists whose length each order
/// sets, which placeholders in strings cannot express. So an order is the template's `order.json`
/// with the API's JSON Merge Patch (RFC 7386) applied — the same rule `PATCH` follows afterwards.
public struct OrderTemplate: Sendable {
    public let name: String
    public let version: Int64
    /// The template's `order.json` as written.
    public let document: JSONObject
    /// Every other file by its path inside the package.
    public let files: [String: Data]
    /// The template's order type: every order of it has this type (and its certificate signs them).
    public let orderTypeIdentifier: String

    /// The template of a stored version.
    init(_ stored: StoredOrderTemplateVersion) throws(OrderFailure) {
        guard case .object(let document)? = try? JSONValue.parse(Data(stored.document.utf8)) else {
            throw .unusableTemplate(stored.name, reason: "version \(stored.version)'s order.json is not a JSON object")
        }
        self.init(name: stored.name, version: stored.version, document: document, files: stored.files, orderTypeIdentifier: stored.orderTypeIdentifier)
    }

    init(name: String, version: Int64, document: JSONObject, files: [String: Data], orderTypeIdentifier: String) {
        self.name = name
        self.version = version
        self.document = document
        self.files = files
        self.orderTypeIdentifier = orderTypeIdentifier
    }

    /// Reads one template folder as a version to store (its root files and `<language>.lproj/`
    /// files, as a pass template folder is read).
    static func read(name: String, from folder: URL, origin: WriteOrigin) throws(OrderFailure) -> NewOrderTemplateVersion {
        let files: [TemplateSourceFile]
        do {
            files = try TemplateSourceFile.read(folder: folder).kept
        } catch {
            throw .unusableTemplate(name, reason: "\(error)")
        }
        return try version(name: name, files: files, origin: origin)
    }

    /// The version to store of a template's files, from a folder or an upload. Throws
    /// ``OrderFailure/unusableTemplate(_:reason:)`` unless `order.json` is a JSON object naming an
    /// order type.
    static func version(name: String, files: [TemplateSourceFile], origin: WriteOrigin) throws(OrderFailure) -> NewOrderTemplateVersion {
        guard let text = files.first(where: { $0.path == "order.json" })?.bytes else {
            throw .unusableTemplate(name, reason: "there is no order.json at its root")
        }
        guard case .object(let document)? = try? JSONValue.parse(text), case .string(let type)? = document["orderTypeIdentifier"], !type.isEmpty else {
            throw .unusableTemplate(name, reason: "its order.json must be a JSON object with an orderTypeIdentifier")
        }
        var others: [String: Data] = [:]
        for file in files where file.path != "order.json" { others[file.path] = file.bytes }
        return NewOrderTemplateVersion(
            name: name, orderTypeIdentifier: type, document: String(decoding: text, as: UTF8.self), files: others,
            digest: TemplateSourceFile.digest(of: files), origin: origin)
    }

    /// The template folders in `directory/orders/` (those holding an `order.json`), by name.
    static func folders(in directory: URL) -> [String: URL] {
        let root = directory.appendingPathComponent("orders")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        var folders: [String: URL] = [:]
        for name in names where FileManager.default.fileExists(atPath: root.appendingPathComponent("\(name)/order.json").path) {
            folders[name] = root.appendingPathComponent(name)
        }
        return folders
    }
}
