/// The four barcode formats Wallet draws (Apple's `PKBarcodeFormat…`).
public enum BarcodeSymbology: String, Sendable, Hashable, CaseIterable {
    case qr, pdf417, aztec, code128

    /// Whether the symbol is square (QR, Aztec) rather than a wide band (PDF417, Code 128): Wallet
    /// lays the two kinds out differently.
    public var isSquare: Bool { self == .qr || self == .aztec }
}
