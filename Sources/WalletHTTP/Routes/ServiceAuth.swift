import HTTPServer
import PassModel
import WalletCore

/// The two ways callers of the service authenticate, as route auth values.
enum ServiceAuth {
    /// The admin API: `Authorization: Bearer <admin token>`, compared in constant time; `401` otherwise.
    static func admin(token: String) -> RouteAuth {
        RouteAuth(scheme: "adminBearer", refusal: "Missing or wrong admin token") { request in
            guard Credentials.isAdmin(request, adminToken: token) else {
                return .problem(
                    status: .unauthorized, detail: "send the admin token as Authorization: Bearer <token>",
                    headers: ["WWW-Authenticate": "Bearer"])
            }
            return nil
        }
    }

    /// Wallet's `Authorization: ApplePass <token>`. The handler checks it against the pass it loads,
    /// so that a wrong token and an unknown pass answer the same `401`.
    static let deviceToken = RouteAuth(scheme: "applePass", refusal: "Wrong token or unknown pass")
}

extension PathParameters {
    /// The pass named by the `:passType` and `:serial` path parameters.
    func passKey() throws(HTTPError) -> PassKey {
        PassKey(passTypeIdentifier: try require("passType"), serialNumber: try require("serial"))
    }
}
