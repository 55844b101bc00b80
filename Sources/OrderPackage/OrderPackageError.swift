import OrderModel
import PassModel
import WalletPackage

/// Everything that can stop an order from becoming a signed `.order`, each case saying where.
public enum OrderPackageError: Error, CustomStringConvertible, Sendable {
    /// The order folder is missing, unreadable, or has no `order.json`.
    case source(path: String, message: String)
    /// `order.json` does not decode into an order.
    case undecodableOrder(OrderDecodingError)
    /// The order, or its files, break rules Wallet enforces; every error is listed (model rules, missing
    /// referenced files, files Wallet does not take).
    case invalidOrder(issues: [ValidationIssue])
    /// The signing identity does not fit the order.
    case identityMismatch(message: String)
    /// Signing or archiving failed underneath, or the archive reaches Apple's size limit.
    case packaging(WalletPackageError)

    public var description: String {
        switch self {
        case .source(let path, let message):
            return "\(path): \(message)"
        case .undecodableOrder(let error):
            return "order.json \(error)"
        case .invalidOrder(let issues):
            let errors = issues.filter { $0.severity == .error }
            return "the order would be refused by Wallet (\(errors.count) error\(errors.count == 1 ? "" : "s")):\n"
                + errors.map { "  - \($0)" }.joined(separator: "\n")
        case .identityMismatch(let message):
            return message
        case .packaging(let error):
            return "cannot package the order: \(error)"
        }
    }
}
