/// Which Apple type identifier a signing certificate is for: a Pass Type ID or an Order Type ID.
///
/// Apple's portal issues both the same way (subject UID = the identifier, OU = the team); only the
/// common name's prefix tells them apart (`Pass Type ID: …`, `Order Type ID: …`), so a pass
/// certificate is never taken for an order's, or the other way round.
public enum TypeIdentifierKind: String, Sendable, Hashable, CaseIterable {
    case pass
    case order

    /// The common name's prefix Apple's portal writes: `Pass Type ID: `, `Order Type ID: `.
    public var commonNamePrefix: String {
        switch self {
        case .pass: return "Pass Type ID: "
        case .order: return "Order Type ID: "
        }
    }
}
