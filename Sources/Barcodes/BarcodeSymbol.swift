/// An encoded barcode as dark rectangles on a grid of modules, ready to be drawn at any size.
public struct BarcodeSymbol: Sendable, Hashable {
    /// One dark area, in modules (a module is the narrowest bar or one matrix cell).
    public struct Bar: Sendable, Hashable {
        public var x: Double, y: Double, width: Double, height: Double
    }

    public let symbology: BarcodeSymbology
    /// Size in modules, without a quiet zone.
    public let width: Double, height: Double
    public let bars: [Bar]
}

/// Why a message cannot be drawn as a barcode.
public enum BarcodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The message holds more than the format can carry.
    case tooLong(symbology: BarcodeSymbology, bytes: Int, details: String)
    /// The message cannot be encoded in the format at all.
    case unencodable(symbology: BarcodeSymbology, details: String)

    public var description: String {
        switch self {
        case .tooLong(let symbology, let bytes, let details):
            return "the barcode message (\(bytes) bytes) is too long for \(symbology.displayName): \(details); shorten the message or use a format that holds more (QR or PDF417)"
        case .unencodable(let symbology, let details):
            return "the barcode message cannot be encoded as \(symbology.displayName): \(details)"
        }
    }
}

extension BarcodeSymbology {
    /// The name people know the format by.
    public var displayName: String {
        switch self {
        case .qr: return "QR"
        case .pdf417: return "PDF417"
        case .aztec: return "Aztec"
        case .code128: return "Code 128"
        }
    }
}
