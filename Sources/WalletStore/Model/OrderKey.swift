/// An order's permanent identity: its order type identifier (the certificate's, and the APNs topic)
/// and the merchant's order identifier, unique within the type.
public struct OrderKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let orderTypeIdentifier: String
    public let orderIdentifier: String

    public init(orderTypeIdentifier: String, orderIdentifier: String) {
        self.orderTypeIdentifier = orderTypeIdentifier
        self.orderIdentifier = orderIdentifier
    }

    public var description: String { "\(orderTypeIdentifier)/\(orderIdentifier)" }

    public static func < (left: OrderKey, right: OrderKey) -> Bool {
        (left.orderTypeIdentifier, left.orderIdentifier) < (right.orderTypeIdentifier, right.orderIdentifier)
    }
}
