import Barcodes
import Drawing
import Foundation
import PassModel

/// The barcode on its white plate, centred above the bottom edge, with its `altText` under it.
extension PreviewPainter {
    /// The barcode Wallet shows: the first of `barcodes` (iOS 9+), else the legacy `barcode`.
    var shownBarcode: Pass.Barcode? { pass.barcodes.first ?? pass.barcode }

    /// Draws the plate with its bottom edge at `bottom`; returns the plate's top (or `bottom` when
    /// the pass has no barcode).
    func barcode(bottom: Double, width: Double) -> Double {
        guard let barcode = shownBarcode else { return bottom }
        let altStyle = TextStyle(size: 11, alignment: .centre)
        let altText = strings(barcode.altText)
        let altHeight = altText.map { _ in lineHeight(altStyle) + 4 } ?? 0
        let symbology: BarcodeSymbology
        switch barcode.format {
        case .qr: symbology = .qr
        case .pdf417: symbology = .pdf417
        case .aztec: symbology = .aztec
        case .code128: symbology = .code128
        default:
            return failedPlate("\(barcode.format.rawValue) is not a format Wallet draws (QR, PDF417, Aztec, Code 128)", bottom: bottom, width: width)
        }
        let bytes = Self.bytes(of: barcode.message, encoding: barcode.messageEncoding)
        let symbol: BarcodeSymbol
        do {
            symbol = try BarcodeEncoder.encode(bytes, as: symbology)
        } catch {
            return failedPlate("barcodes[0].message: \(error)", bottom: bottom, width: width)
        }
        // Target sizes in points, then whole pixels per module so every module is sharp.
        let targetWidth: Double = symbology.isSquare ? 130 : 250
        let module = max(1 / canvas.scale, pixelFloor(targetWidth / symbol.width))
        let quietModules: Double = symbology == .code128 ? 10 : symbology == .aztec ? 1 : 2
        let padding = max(8, pixelRound(quietModules * module))
        let symbolWidth = symbol.width * module
        let rowScale: Double
        switch symbology {
        case .code128: rowScale = pixelRound(60 / symbol.height * 1000) / 1000
        case .pdf417: rowScale = module * min(1, 90 / (symbol.height * module))
        default: rowScale = module
        }
        let symbolHeight = symbol.height * rowScale
        let plateWidth = min(width - 2 * Self.margin, symbolWidth + 2 * padding)
        let plateHeight = symbolHeight + 2 * 8 + altHeight
        let plate = Rect(x: pixelRound((width - plateWidth) / 2), y: pixelRound(bottom - plateHeight), width: plateWidth, height: plateHeight)
        canvas.fill(plate, color: palette.plate, cornerRadius: 6)
        let origin = Point(x: pixelRound(plate.midX - symbolWidth / 2), y: plate.y + 8)
        canvas.clipped(to: plate) {
            canvas.fillCrisp(symbol.bars.map { bar in
                Rect(x: origin.x + bar.x * module, y: origin.y + bar.y * rowScale, width: bar.width * module, height: bar.height * rowScale)
            }, color: palette.plateInk)
        }
        if let altText {
            text(altText, role: "barcode.altText", style: altStyle,
                 in: Rect(x: plate.x + 6, y: origin.y + symbolHeight + 4, width: plate.width - 12, height: lineHeight(altStyle)), color: palette.plateInk)
        }
        self.barcode = PlacedBarcode(message: barcode.message, format: barcode.format.rawValue,
                                     rect: Rect(x: plate.x + offset.x, y: plate.y + offset.y, width: plate.width, height: plate.height))
        return plate.y
    }

    /// A plate that says why the barcode is missing, so a designer sees the problem where the code would be.
    private func failedPlate(_ problem: String, bottom: Double, width: Double) -> Double {
        problems.append(problem)
        let plate = Rect(x: (width - 250) / 2, y: bottom - 60, width: 250, height: 60)
        canvas.fill(plate, color: palette.plate, cornerRadius: 6)
        text("Barcode cannot be drawn: \(problem)", role: "barcode.error", style: TextStyle(size: 10, alignment: .centre, maximumLines: 3),
             in: plate.insetBy(8), color: RGBA(red: 190, green: 30, blue: 30))
        return plate.y
    }

    /// The message's bytes as Wallet encodes them (`messageEncoding`, ISO-8859-1 by default).
    static func bytes(of message: String, encoding: String?) -> [UInt8] {
        switch encoding?.lowercased() {
        case "utf-8", "utf8": return Array(message.utf8)
        default: return message.data(using: .isoLatin1).map { Array($0) } ?? Array(message.utf8)
        }
    }
}
