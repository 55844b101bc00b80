import HTTPServer
import WalletCore

/// The fields of a posted console form: the server's ``HTTPForm``, decoded by libmicrohttpd's form
/// parser before the handler runs (the console's routes declare a form body, ``RouteBody/form(_:)``).
typealias ConsoleForm = HTTPForm

extension HTTPForm {
    /// The request's form; `400` for a malformed one, `415` for a body that is no form.
    init(_ request: HTTPRequest) throws(HTTPError) {
        self = try request.form()
    }
}
