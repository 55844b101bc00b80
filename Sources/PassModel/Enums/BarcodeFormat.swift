/// A barcode symbology Wallet can draw (Apple's Pass reference). Code128 is not allowed in the legacy `barcode` key; the
/// iOS 27 formats need a QR/PDF417/Aztec fallback after them for older devices.
public enum BarcodeFormat: String, Sendable, Hashable, CaseIterable, JSONStringEnum {
    case qr = "PKBarcodeFormatQR"
    case pdf417 = "PKBarcodeFormatPDF417"
    case aztec = "PKBarcodeFormatAztec"
    case code128 = "PKBarcodeFormatCode128"
    case code39 = "PKBarcodeFormatCode39"
    case codabar = "PKBarcodeFormatCodabar"
    case ean13 = "PKBarcodeFormatEAN13"
    case i2of5 = "PKBarcodeFormatI2of5"
}
