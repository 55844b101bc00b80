/// The identity of a pass: Apple never lets the pass type identifier or the serial number change.
///
/// A plain value here, below both the store and the HTTP adapters, so that a route can name the pass
/// it asks a WalletCore service about without importing `WalletStore` (style rule 14).
public struct PassKey: Sendable, Hashable, CustomStringConvertible {
    /// The pass type identifier (`pass.com.example.event`), also the APNs topic.
    public let passTypeIdentifier: String
    /// The serial number, unique within the pass type.
    public let serialNumber: String

    /// A key from its two parts.
    public init(passTypeIdentifier: String, serialNumber: String) {
        self.passTypeIdentifier = passTypeIdentifier
        self.serialNumber = serialNumber
    }

    /// `passTypeIdentifier/serialNumber`, as in the web service paths.
    public var description: String { "\(passTypeIdentifier)/\(serialNumber)" }
}
