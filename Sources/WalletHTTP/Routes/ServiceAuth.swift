import HTTPServer
import PassModel
import WalletCore

/// How Wallet's devices authenticate, as a route auth value (the admin API's keys: ``APIAuth``).
enum ServiceAuth {
    /// Wallet's `Authorization: ApplePass <token>` (Apple's Wallet Web Service Reference), checked
    /// against the pass the path's `:passType` and `:serial` name, which becomes the request's identity
    /// for the handler. A wrong token and an unknown pass answer the same `401`, so the endpoint does
    /// not tell an attacker which serial numbers exist.
    static func deviceToken(_ passes: PassService) -> RouteAuth {
        RouteAuth(scheme: "applePass", refusal: "Wrong token or unknown pass", resolving: { request, parameters in
            guard let pass = try await passes.authorizedPass(parameters.passKey(), token: Credentials.passToken(request)) else {
                return .refused(wrongPassToken)
            }
            return .allowed(identity: pass)
        })
    }

    /// Wallet's `Authorization: AppleOrder <token>` (Apple's Orders web service), checked against the
    /// order the path's `:orderType` and `:orderId` name; a wrong token and an unknown order answer
    /// the same `401`.
    static func orderToken(_ orders: OrderService) -> RouteAuth {
        RouteAuth(scheme: "appleOrder", refusal: "Wrong token or unknown order", resolving: { request, parameters in
            guard let order = try await orders.authorizedOrder(parameters.orderKey(), token: Credentials.orderToken(request)) else {
                return .refused(wrongOrderToken)
            }
            return .allowed(identity: order)
        })
    }

    private static let wrongOrderToken = HTTPResponse.problem(
        status: .unauthorized, detail: "missing or wrong Authorization: AppleOrder token for this order")

    private static let wrongPassToken = HTTPResponse.problem(
        status: .unauthorized, detail: "missing or wrong Authorization: ApplePass token for this pass")
}

extension PathParameters {
    /// The order named by the `:orderType` and `:orderId` path parameters.
    func orderKey() throws(HTTPError) -> OrderService.Key {
        OrderService.Key(orderTypeIdentifier: try require("orderType"), orderIdentifier: try require("orderId"))
    }

    /// The pass named by the `:passType` and `:serial` path parameters.
    func passKey() throws(HTTPError) -> PassKey {
        PassKey(passTypeIdentifier: try require("passType"), serialNumber: try require("serial"))
    }
}
