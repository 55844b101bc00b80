import PasswrightLogging
import Foundation
import HTTPServer
import PassCompiler
import PassModel
import PassPreview
import WalletCore

/// The one place that turns errors into HTTP answers: a status and an `application/problem+json`
/// body that says what is wrong and where. Anything unexpected is a 500 whose detail goes to the log.
enum ProblemResponses {
    /// The router's error mapper: what a handler throws, as the response the client gets.
    static func response(for error: any Error, context: RequestContext) -> HTTPResponse {
        switch error {
        case let error as HTTPError:
            return error.response
        case ServiceError.unknownTemplate(let name, _):
            return .problem(status: .unprocessableContent, detail: "\(error)", type: problemType("unknown-template"))
                .with(extra: ["template": .string(name)])
        case ServiceError.invalid(let message):
            return .problem(status: .unprocessableContent, detail: message)
        case ServiceError.unavailableTemplate:
            return .problem(status: .serviceUnavailable, detail: "\(error)")
        case let failure as OrderFailure:
            return order(failure)
        case _ where PassFailure(error) != nil:
            switch PassFailure(error)! {
            case .exists(let key):
                return .problem(status: .conflict, detail: "a pass \(key.passTypeIdentifier) / \(key.serialNumber) already exists")
            case .erased(let key):
                return .problem(status: .conflict, detail: "the pass \(key.passTypeIdentifier) / \(key.serialNumber) was erased (its holder's data removed) and takes no change; issue a new pass instead")
            case .busy(let detail):
                // The pass kept changing under this update (or its template under this issue); it is
                // busy, not wrong, and a retry soon works.
                return .problem(status: .serviceUnavailable, detail: detail, headers: ["Retry-After": String(busyRetrySeconds)])
            case .notFound:
                return .problem(status: .notFound, detail: "no such pass")
            case .databaseUnavailable(let logDetail):
                context.logger.warning("database cannot take the request", ["route": context.routeName, "error": logDetail])
                let detail = "the database is unavailable, so nothing was written; try again in \(unavailableRetrySeconds) seconds"
                return .problem(
                    status: .serviceUnavailable, detail: detail, type: problemType("database-unavailable"),
                    headers: ["Retry-After": String(unavailableRetrySeconds)])
            case .databaseFull(let detail, let location):
                context.logger.warning("database cannot take the request", ["route": context.routeName, "error": detail])
                let response = HTTPResponse.problem(status: .insufficientStorage, detail: detail, type: problemType("database-full"))
                return location.map { response.with(extra: ["database": .string($0)]) } ?? response
            }
        case let error as PassCompilerError:
            return invalidPass(error)
        case PreviewError.invalidOption(let name, let message):
            return .problem(status: .badRequest, detail: "\(name): \(message)", type: problemType("invalid-preview-option"))
                .with(extra: ["parameter": .string(name)])
        case PreviewError.unreadable(_, let problems):
            // A record that does not fill the template, or a pass.json that does not decode.
            return .problem(status: .unprocessableContent, title: "Cannot preview", detail: "\(error)", type: problemType("unreadable-preview"))
                .with(extra: ["problems": .array(problems.map(JSONValue.string))])
        default:
            context.logger.error("request failed", ["route": context.routeName, "error": "\(error)"])
            return .problem(status: .internalServerError, detail: "the server could not complete the request; see its log")
        }
    }

    /// An order request's failure: 422 with every invalid value by JSON path, 404, 409, 503.
    private static func order(_ failure: OrderFailure) -> HTTPResponse {
        switch failure {
        case .unknownTemplate(let name, _):
            return .problem(status: .unprocessableContent, detail: "\(failure)", type: problemType("unknown-template")).with(extra: ["template": .string(name)])
        case .invalid(let issues):
            let errors = issues.filter { $0.severity == .error }
            return .problem(status: .unprocessableContent, title: "Invalid order", detail: "\(failure)", type: problemType("invalid-order"))
                .with(extra: ["errors": .array(errors.map { .object(["path": .string($0.path), "message": .string($0.message)]) })])
        case .serverOwned(let key):
            return .problem(status: .unprocessableContent, detail: "\(failure)").with(extra: ["path": .string(key)])
        case .notFound:
            return .problem(status: .notFound, detail: "\(failure)")
        case .exists, .changedSince, .erased:
            return .problem(status: .conflict, detail: "\(failure)")
        case .busy:
            return .problem(status: .serviceUnavailable, detail: "\(failure)", headers: ["Retry-After": String(busyRetrySeconds)])
        case .cannotSign, .unusableTemplate:
            return .problem(status: .serviceUnavailable, detail: "\(failure)")
        }
    }

    /// Seconds a client waits before retrying a pass that kept changing under its update.
    static let busyRetrySeconds = 1
    /// Seconds a client waits before retrying while the database does not answer (a `503`; a full
    /// database is a `507` naming it, and both are logged as warnings, since an operator must act):
    /// long enough not to hammer a server that is restarting, short enough that writes resume soon
    /// after it is back.
    static let unavailableRetrySeconds = 5

    /// 422 with every invalid value by JSON path, so a client fixes all of them in one go.
    private static func invalidPass(_ error: PassCompilerError) -> HTTPResponse {
        HTTPResponse.problem(status: .unprocessableContent, title: "Invalid pass", detail: "\(error)", type: problemType("invalid-pass"))
            .with(extra: ["errors": .array(InvalidValues.entries(of: error))])
    }

    static func problemType(_ name: String) -> String { "https://passwright.dev/problems/\(name)" }
}

extension HTTPError {
    /// A request the client must fix: malformed JSON, a wrong type, a missing field.
    static func badRequest(_ detail: String) -> HTTPError { HTTPError(.badRequest, detail) }
}

extension HTTPResponse {
    /// Adds members to a problem body (RFC 9457 extension members).
    func with(extra members: [String: JSONValue]) -> HTTPResponse {
        guard case .object(var object)? = try? JSONValue.parse(body) else { return self }
        for (key, value) in members { object[key] = value }
        var copy = self
        copy.body = JSONValue.object(object).serialized(sortedKeys: false)
        return copy
    }
}
