import PassModel

/// The symbology of an order's barcode (`Barcode.format`, Apple's "Barcode"). Lower-case names, unlike
/// the `PKBarcodeFormat…` names of passes; the newer pass symbologies are not documented for orders.
public enum OrderBarcodeFormat: String, Sendable, Hashable, CaseIterable, JSONStringEnum {
    case qr
    case pdf417
    case aztec
    case code128
}
