internal import CZint

/// Encodes messages with zint, the barcode library Debian ships.
public enum BarcodeEncoder {
    /// Encodes `message` (the bytes of the pass's `message` in its `messageEncoding`, as Wallet
    /// encodes them) as `symbology`. QR and PDF417 get a medium error-correction level as Wallet's do.
    public static func encode(_ message: [UInt8], as symbology: BarcodeSymbology) throws(BarcodeError) -> BarcodeSymbol {
        guard !message.isEmpty else { throw .unencodable(symbology: symbology, details: "the message is empty") }
        guard let symbol = ZBarcode_Create() else { throw .unencodable(symbology: symbology, details: "zint could not allocate a symbol") }
        defer { ZBarcode_Delete(symbol) }
        switch symbology {
        case .qr:
            symbol.pointee.symbology = BARCODE_QRCODE
            symbol.pointee.option_1 = 2 // error correction M
        case .pdf417:
            symbol.pointee.symbology = BARCODE_PDF417
            symbol.pointee.option_1 = 2
        case .aztec: symbol.pointee.symbology = BARCODE_AZTEC
        case .code128: symbol.pointee.symbology = BARCODE_CODE128
        }
        symbol.pointee.input_mode = DATA_MODE
        let code = message.withUnsafeBufferPointer { ZBarcode_Encode(symbol, $0.baseAddress, Int32($0.count)) }
        if code >= ZINT_ERROR {
            let details = withUnsafeBytes(of: &symbol.pointee.errtxt) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if code == ZINT_ERROR_TOO_LONG { throw .tooLong(symbology: symbology, bytes: message.count, details: details) }
            throw .unencodable(symbology: symbology, details: details)
        }
        return bars(of: symbol, symbology: symbology)
    }

    /// The dark modules of an encoded symbol, merged into horizontal runs per row.
    private static func bars(of symbol: UnsafeMutablePointer<zint_symbol>, symbology: BarcodeSymbology) -> BarcodeSymbol {
        let rows = Int(symbol.pointee.rows), columns = Int(symbol.pointee.width)
        let rowBytes = MemoryLayout.size(ofValue: symbol.pointee.encoded_data.0)
        let linearHeight = Double(symbol.pointee.height > 0 ? symbol.pointee.height : 50)
        let heights: [Double] = withUnsafeBytes(of: &symbol.pointee.row_height) { raw in
            (0..<rows).map { row in
                let height = Double(raw.load(fromByteOffset: row * MemoryLayout<Float>.size, as: Float.self))
                if symbology.isSquare { return 1 }
                if height > 0 { return height }
                return symbology == .code128 ? linearHeight : 3
            }
        }
        var bars: [BarcodeSymbol.Bar] = []
        var top = 0.0
        withUnsafeBytes(of: &symbol.pointee.encoded_data) { raw in
            for row in 0..<rows {
                var column = 0
                while column < columns {
                    func isSet(_ x: Int) -> Bool { (raw[row * rowBytes + (x >> 3)] >> (x & 7)) & 1 == 1 }
                    guard isSet(column) else { column += 1; continue }
                    let start = column
                    while column < columns, isSet(column) { column += 1 }
                    bars.append(.init(x: Double(start), y: top, width: Double(column - start), height: heights[row]))
                }
                top += heights[row]
            }
        }
        return BarcodeSymbol(symbology: symbology, width: Double(columns), height: top, bars: bars)
    }
}
