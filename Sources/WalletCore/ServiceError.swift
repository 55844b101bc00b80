/// Errors of the service layer that are not the compiler's or the store's.
public enum ServiceError: Error, CustomStringConvertible {
    case unknownTemplate(String, available: [String])
    case unavailableTemplate(String)
    case invalid(String)

    public var description: String {
        switch self {
        case .unknownTemplate(let name, let available):
            return "template '\(name)' does not exist; available: \(available.joined(separator: ", "))"
        case .unavailableTemplate(let name):
            return "template '\(name)' is not available on this server (see GET /api/v1/templates)"
        case .invalid(let message):
            return message
        }
    }
}
