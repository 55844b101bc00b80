import PassModel

/// One product of the order, a shipment, a pick-up or a return (`LineItem`); Wallet shows line items
/// in the order given and their images in notifications too.
public struct LineItem: Sendable, Hashable {
    /// The localized product name.
    public var title: String
    /// How many were ordered: a whole number of items.
    public var quantity: Int
    /// A localized second line (size, colour).
    public var subtitle: String?
    /// The product image file in the package.
    public var image: BundleFilePath?
    /// The price; Apple's samples give it per unit.
    public var price: CurrencyAmount?
    /// The Global Trade Item Number (EAN, UPC, ISBN).
    public var gtin: String?
    /// The merchant's stock-keeping unit.
    public var sku: String?
    /// Keys OrderModel does not know, kept for round trips.
    public var unknownKeys: JSONObject = [:]

    /// Creates a line item with the required keys; set the rest by assignment.
    public init(title: String, quantity: Int) {
        self.title = title
        self.quantity = quantity
    }
}

extension LineItem: JSONModel {
    package static let blank = Self(title: "", quantity: 0)
    package static let schema = Schema<Self>([
        Property(required: "title", { $0.title }, { $0.title = $1 }),
        Property(required: "quantity", { $0.quantity }, { $0.quantity = $1 }),
        Property("subtitle", { $0.subtitle }, { $0.subtitle = $1 }),
        Property("image", { $0.image }, { $0.image = $1 }),
        Property("price", { $0.price }, { $0.price = $1 }),
        Property("gtin", { $0.gtin }, { $0.gtin = $1 }),
        Property("sku", { $0.sku }, { $0.sku = $1 }),
    ])
}
