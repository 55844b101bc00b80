import Foundation
import HTTPServer
import PassModel
import WalletCore

/// Holders' and customers' data rights from a pass's or an order's page, for the person who answers
/// a request by e-mail: download everything kept about it (the API's export) and erase it (the API's
/// erasure, through the same service calls). Erasing is the one console action that cannot be undone,
/// so its form asks for the serial number or order identifier typed out, and the server checks it.
extension ConsoleRoutes {
    var dataRightsRoutes: [Route] {
        [
            signed(.get, "/passes/:passType/:serial/export", "Everything kept about a pass, as JSON", needs: .scope(.passesRead)) { _, context, _ in
                let key = try context.parameters.passKey()
                guard let export = try await passes.export(key) else { return .problem(status: .notFound, detail: "no such pass") }
                return try Self.download(export, name: "pass-\(SafeFileName.from(key.serialNumber)).json")
            },
            signed(.post, "/passes/:passType/:serial/erase", "Erase a pass's holder data", needs: .scope(.passesErase)) { _, context, signed in
                let key = try context.parameters.passKey()
                guard signed.form?["confirm"] == key.serialNumber else {
                    return try await passDetails(key, signed, error: Self.unconfirmed("serial number", key.serialNumber), status: .unprocessableContent)
                }
                guard let erasure = try await passes.erase(key, origin: signed.origin) else { return try await passDetails(key, signed) }
                let notice = erasure.alreadyErased
                    ? "It had been erased already."
                    : "Erased: the holder's data is gone and the pass is voided; \(erasure.pushesQueued) push\(erasure.pushesQueued == 1 ? "" : "es") queued so Wallet shows it."
                return ConsolePage.redirect("/console/passes/\(Self.path(key))?notice=\(QueryComponent.escaped(notice))")
            },
            signed(.get, "/orders/:orderType/:orderId/export", "Everything kept about an order, as JSON", needs: .scope(.ordersRead)) { _, context, _ in
                let key = try context.parameters.orderKey()
                guard let export = try await orders.export(key) else { return .problem(status: .notFound, detail: "no such order") }
                return try Self.download(export, name: "order-\(SafeFileName.from(key.orderIdentifier)).json")
            },
            signed(.post, "/orders/:orderType/:orderId/erase", "Erase an order's customer data", needs: .scope(.ordersErase)) { _, context, signed in
                let key = try context.parameters.orderKey()
                guard signed.form?["confirm"] == key.orderIdentifier else {
                    return try await orderDetails(key, signed, error: Self.unconfirmed("order identifier", key.orderIdentifier), status: .unprocessableContent)
                }
                guard let erasure = try await orders.erase(key, origin: signed.origin) else { return try await orderDetails(key, signed) }
                let notice = erasure.alreadyErased
                    ? "It had been erased already."
                    : "Erased: only what Wallet needs of the order is kept; \(erasure.pushesQueued) push\(erasure.pushesQueued == 1 ? "" : "es") queued so Wallet's copy loses the rest."
                return ConsolePage.redirect("/console/orders/\(Self.orderPath(key))?notice=\(QueryComponent.escaped(notice))")
            },
        ]
    }

    /// The pass page's section: the export, and the erase form when the role may erase (or the date it
    /// was erased).
    func passDataRights(_ key: PassKey, erasedAt: Date?, _ signed: Signed) -> HTML {
        let base = "/console/passes/\(Self.path(key))"
        return Self.dataRights(
            export: "\(base)/export", erase: "\(base)/erase", erasedAt: erasedAt, mayErase: signed.can(.passesErase), csrf: signed.csrf,
            what: "the holder's data", identifier: ("serial number", key.serialNumber),
            consequence: "The pass is voided and blanked (every value in its data emptied), its history, held change, upload lines and device log lines naming it go, and its devices are pushed so Wallet shows it voided. The serial number stays, and the pass takes no further change.")
    }

    /// The order page's section, as ``passDataRights(_:erasedAt:_:)``.
    func orderDataRights(_ key: OrderService.Key, erasedAt: Date?, _ signed: Signed) -> HTML {
        let base = "/console/orders/\(Self.orderPath(key))"
        return Self.dataRights(
            export: "\(base)/export", erase: "\(base)/erase", erasedAt: erasedAt, mayErase: signed.can(.ordersErase), csrf: signed.csrf,
            what: "the customer's data", identifier: ("order identifier", key.orderIdentifier),
            consequence: "Only what Wallet needs stays (identifiers, type, status, merchant, dates); the customer, items, fulfilments and payment go, with the device log lines naming the order, and its devices are pushed so Wallet's copy loses them too. The order takes no further change.")
    }

    private static func dataRights(export: String, erase: String, erasedAt: Date?, mayErase: Bool, csrf: String, what: String,
                                   identifier: (name: String, value: String), consequence: String) -> HTML {
        let download: HTML = "<p><a class=\"button quiet\" href=\"\(export)\" download>Download everything kept (JSON)</a></p>"
        if let erasedAt {
            return "<h2>Data rights</h2>\(download)<p id=\"erased\">Erased \(ConsolePage.time(erasedAt)): \(what) is gone; nothing can be changed any more.</p>"
        }
        guard mayErase else { return "<h2>Data rights</h2>\(download)" }
        return """
            <h2>Data rights</h2>
            \(download)
            <form id="erase" method="post" action="\(erase)">
            \(ConsolePage.csrfField(csrf))
            <p class="hint" id="erase-hint">Erase \(what) when its owner asks (GDPR Art. 17). \(consequence) This cannot be undone.</p>
            <label for="confirm">Type the \(identifier.name) <code>\(identifier.value)</code> to confirm</label>
            <input name="confirm" id="confirm" autocomplete="off" spellcheck="false" aria-describedby="erase-hint" required>
            <button type="submit" class="danger">Erase \(what)</button>
            </form>
            """
    }

    private static func unconfirmed(_ name: String, _ value: String) -> String {
        "Nothing was erased: type the \(name) \(value) exactly, as the form shows it, to confirm."
    }

    /// A JSON attachment with the console's headers.
    private static func download(_ value: some WireValue, name: String) throws -> HTTPResponse {
        var response = try HTTPResponse.json(value)
        response.headers["Content-Disposition"] = "attachment; filename=\"\(name)\""
        ConsolePage.secure(&response)
        return response
    }
}
