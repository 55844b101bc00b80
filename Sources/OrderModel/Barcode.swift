import PassModel

/// A barcode shown with the order or at pick-up (`Barcode`, Apple's "Barcode").
public struct Barcode: Sendable, Hashable {
    /// The symbology.
    public var format: OrderBarcodeFormat
    /// The contents.
    public var message: String
    /// The IANA charset that turns `message` into bytes, typically `iso-8859-1`.
    public var messageEncoding: String
    /// Localized text shown under the code, for when a scanner fails.
    public var altText: String?
    /// Keys OrderModel does not know, kept for round trips.
    public var unknownKeys: JSONObject = [:]

    /// Creates a barcode.
    public init(format: OrderBarcodeFormat, message: String, messageEncoding: String = "iso-8859-1", altText: String? = nil) {
        self.format = format
        self.message = message
        self.messageEncoding = messageEncoding
        self.altText = altText
    }
}

extension Barcode: JSONModel {
    package static let blank = Self(format: .qr, message: "", messageEncoding: "")
    package static let schema = Schema<Self>([
        Property(required: "format", { $0.format }, { $0.format = $1 }),
        Property(required: "message", { $0.message }, { $0.message = $1 }),
        Property(required: "messageEncoding", { $0.messageEncoding }, { $0.messageEncoding = $1 }),
        Property("altText", { $0.altText }, { $0.altText = $1 }),
    ])
}
