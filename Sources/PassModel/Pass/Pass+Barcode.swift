extension Pass {
    /// A barcode (`Pass.Barcodes`). In `barcodes` the first one the device can draw is shown,
    /// so newer symbologies go first with a QR fallback after them.
    public struct Barcode: Sendable, Hashable {
        /// Symbology.
        public var format: BarcodeFormat
        /// Payload.
        public var message: String
        /// IANA charset turning `message` into bytes (usually `iso-8859-1`); Wallet requires it.
        public var messageEncoding: String?
        /// Human-readable text under the code, for when a scanner fails.
        public var altText: String?
        /// Keys PassModel does not know, kept for round trips.
        public var unknownKeys: JSONObject = [:]

        /// Creates a barcode.
        public init(format: BarcodeFormat, message: String, messageEncoding: String? = "iso-8859-1", altText: String? = nil) {
            self.format = format
            self.message = message
            self.messageEncoding = messageEncoding
            self.altText = altText
        }
    }

    /// The NFC payload for Apple Pay/VAS terminals (Apple's Pass reference); needs an NFC-entitled certificate.
    public struct NFC: Sendable, Hashable {
        /// Payload; at most 64 bytes of UTF-8 (longer is truncated by the terminal).
        public var message: String
        /// Base64 X.509 SubjectPublicKeyInfo of the terminal's ECDH P-256 key (PEM body only).
        public var encryptionPublicKey: String
        /// Ask the user to authenticate each time; required on poster event tickets.
        public var requiresAuthentication: Bool?
        /// Keys PassModel does not know, kept for round trips.
        public var unknownKeys: JSONObject = [:]

        /// Creates an NFC payload.
        public init(message: String, encryptionPublicKey: String, requiresAuthentication: Bool? = nil) {
            self.message = message
            self.encryptionPublicKey = encryptionPublicKey
            self.requiresAuthentication = requiresAuthentication
        }
    }
}

extension Pass.Barcode: JSONModel {
    package static let blank = Self(format: .qr, message: "", messageEncoding: nil)
    package static let schema = Schema<Self>([
        Property(required: "format", { $0.format }, { $0.format = $1 }), Property(required: "message", { $0.message }, { $0.message = $1 }),
        Property("messageEncoding", { $0.messageEncoding }, { $0.messageEncoding = $1 }), Property("altText", { $0.altText }, { $0.altText = $1 }),
    ])
}

extension Pass.NFC: JSONModel {
    package static let blank = Self(message: "", encryptionPublicKey: "")
    package static let schema = Schema<Self>([
        Property(required: "message", { $0.message }, { $0.message = $1 }), Property(required: "encryptionPublicKey", { $0.encryptionPublicKey }, { $0.encryptionPublicKey = $1 }),
        Property("requiresAuthentication", { $0.requiresAuthentication }, { $0.requiresAuthentication = $1 }),
    ])
}
