import PassModel

/// Why an order request cannot be done, in terms an adapter answers (HTTP: 422, 404, 409, 503).
public enum OrderFailure: Error, Sendable, CustomStringConvertible {
    /// No order template of this name (HTTP 422).
    case unknownTemplate(String, available: [String])
    /// An order template folder that cannot be used, and why.
    case unusableTemplate(String, reason: String)
    /// The order would be invalid: every problem with its JSON path (HTTP 422).
    case invalid([ValidationIssue])
    /// A key the server sets was given (HTTP 422).
    case serverOwned(String)
    /// No order with this key (HTTP 404).
    case notFound(String)
    /// An order with this key exists (HTTP 409).
    case exists(String)
    /// The order kept changing under the update (HTTP 503 with `Retry-After`).
    case busy(String)
    /// The order changed after the form that edits it was made (HTTP 409): nothing was written.
    case changedSince(String)
    /// The server cannot sign orders of this type: no usable identity (HTTP 503).
    case cannotSign(String, reason: String)
    /// The order's customer data was erased: it is a tombstone and takes no change (HTTP 409).
    case erased(String)

    public var description: String {
        switch self {
        case .unknownTemplate(let name, let available):
            "order template '\(name)' does not exist; available: \(available.isEmpty ? "none (add a folder under <templates>/orders/ of an instance, then restart it or send it SIGHUP)" : available.joined(separator: ", "))"
        case .unusableTemplate(let name, let reason):
            "order template '\(name)' cannot be used: \(reason)"
        case .invalid(let issues):
            "the order is invalid: " + issues.filter { $0.severity == .error }.map { "\($0.path.isEmpty ? "order" : $0.path): \($0.message)" }.joined(separator: "; ")
        case .serverOwned(let key):
            "\(key) is set by the server and cannot be given or changed"
        case .notFound(let key):
            "no order \(key)"
        case .exists(let key):
            "the order \(key) already exists; change it with PATCH instead"
        case .busy(let key):
            "the order \(key) kept changing under the update; nothing of it was written, try again"
        case .changedSince(let key):
            "the order \(key) changed after this form was opened; nothing was saved: open it again and repeat the change"
        case .cannotSign(let type, let reason):
            "orders of type \(type) cannot be signed here: \(reason); add its Order Type ID identity (passwright certs import) and restart"
        case .erased(let key):
            "the order \(key) was erased (its customer's data removed) and takes no further change; create a new order instead"
        }
    }
}
