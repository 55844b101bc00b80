import Foundation
import OrderPackage
import PassModel

/// An order template: a folder under `<templates>/orders/<name>/` holding the `order.json` every order
/// of it starts from (merchant, order type, images by name) and its images and `.lproj` folders.
///
/// Orders differ from passes in shape: line items and fulfilments are lists whose length each order
/// sets, which placeholders in strings cannot express. So an order is the template's `order.json`
/// with the API's JSON Merge Patch (RFC 7386) applied — the same rule `PATCH` follows afterwards.
public struct OrderTemplate: Sendable {
    public let name: String
    /// The template's `order.json` as written.
    public let document: JSONObject
    /// Every other file by its path inside the package.
    public let files: [String: Data]
    /// The template's order type: every order of it has this type (and its certificate signs them).
    public let orderTypeIdentifier: String

    /// Reads one template folder. Throws ``OrderFailure/unusableTemplate(_:reason:)`` when its
    /// `order.json` is not an object naming an order type.
    public static func load(name: String, from folder: URL) throws(OrderFailure) -> OrderTemplate {
        let source: OrderSource
        do {
            source = try OrderSource.load(from: folder)
        } catch {
            throw .unusableTemplate(name, reason: "\(error)")
        }
        guard case .object(let document)? = try? JSONValue.parse(Data(contentsOf: folder.appendingPathComponent("order.json"))),
              case .string(let type)? = document["orderTypeIdentifier"], !type.isEmpty else {
            throw .unusableTemplate(name, reason: "its order.json must be a JSON object with an orderTypeIdentifier")
        }
        return OrderTemplate(name: name, document: document, files: source.files, orderTypeIdentifier: type)
    }

    /// Every template folder in `directory/orders/`, by name; a folder that cannot be used is
    /// returned with the reason, for a warning at start-up.
    static func loadAll(in directory: URL) -> (templates: [String: OrderTemplate], unusable: [String: String]) {
        let root = directory.appendingPathComponent("orders")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).filter {
            FileManager.default.fileExists(atPath: root.appendingPathComponent("\($0)/order.json").path)
        }
        var templates: [String: OrderTemplate] = [:]
        var unusable: [String: String] = [:]
        for name in names.sorted() {
            do {
                templates[name] = try load(name: name, from: root.appendingPathComponent(name))
            } catch {
                unusable[name] = "\(error)"
            }
        }
        return (templates, unusable)
    }
}
