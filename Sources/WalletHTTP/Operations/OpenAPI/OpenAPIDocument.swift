import Foundation
import HTTPServer
import Locking
import PassModel
import WalletCore

/// The served `/openapi.json`: generated once, after the router holds every route — the route that
/// serves it included, which is why it is filled in after the routes are made rather than passed in.
final class OpenAPIDocument: Sendable {
    private let text = Locked(Data())

    init() {}

    /// The document as served.
    var json: Data { text.withLock { $0 } }

    /// Generates the document for the router's routes.
    func describe(_ router: Router) throws {
        let document = OpenAPIGenerator.document(for: router.routes, base: try OpenAPIGenerator.base(), maxParameterLength: router.maxParameterLength)
        text.withLock { $0 = document.serialized(sortedKeys: true) }
    }
}
