import PassModel

/// One entry of `fulfillments`: a shipment or a pick-up, chosen by its `fulfillmentType`.
///
/// An enum rather than one struct with every key optional, so a pick-up can't carry a tracking
/// number and a shipment can't lack its own required keys.
public enum Fulfillment: Sendable, Hashable {
    /// `fulfillmentType` `shipping`.
    case shipping(ShippingFulfillment)
    /// `fulfillmentType` `pickup`.
    case pickup(PickupFulfillment)

    /// The `fulfillmentType` written for this case.
    public var fulfillmentType: FulfillmentType {
        switch self {
        case .shipping: return .shipping
        case .pickup: return .pickup
        }
    }

    /// The identifier unique within the order, whichever the kind.
    public var fulfillmentIdentifier: String {
        switch self {
        case .shipping(let shipping): return shipping.fulfillmentIdentifier
        case .pickup(let pickup): return pickup.fulfillmentIdentifier
        }
    }

    /// The items of this fulfilment, whichever the kind.
    public var lineItems: [LineItem] {
        switch self {
        case .shipping(let shipping): return shipping.lineItems
        case .pickup(let pickup): return pickup.lineItems
        }
    }
}

extension Fulfillment: JSONCodable {
    package init(json: JSONValue, at path: JSONPath, issues: inout [ValidationIssue]) throws(PassDecodingError) {
        guard case .object(let object) = json else { throw .mismatch(path, expected: "an object", found: json) }
        let base = path.rendered
        guard let type = object["fulfillmentType"] else {
            throw .invalidValue(path: joinPath(base, "fulfillmentType"),
                                message: "required key is missing; it decides the other keys: \"shipping\" or \"pickup\"")
        }
        switch try FulfillmentType(json: type, at: .member("fulfillmentType", of: base), issues: &issues) {
        case .shipping: self = .shipping(try ShippingFulfillment(json: json, at: path, issues: &issues))
        case .pickup: self = .pickup(try PickupFulfillment(json: json, at: path, issues: &issues))
        }
    }

    package func write(to writer: inout JSONWriter) {
        switch self {
        case .shipping(let shipping): shipping.write(to: &writer)
        case .pickup(let pickup): pickup.write(to: &writer)
        }
    }
}
