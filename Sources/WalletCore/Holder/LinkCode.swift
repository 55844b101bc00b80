import Barcodes
import Drawing
import Foundation
import ImageProcessing

/// A QR code of a link, as SVG for print and as PNG for e-mails and pages: what a holder scans with
/// a phone's camera to open a page seen on another screen.
public enum LinkCode {
    /// White modules around the code: the quiet zone a QR reader needs (ISO/IEC 18004: four).
    static let quietZone = 4.0

    /// The code as an SVG document, `title` its accessible name; black on white whatever the page's
    /// colours, since cameras read dark on light.
    public static func svg(_ link: String, title: String) throws -> String {
        let symbol = try BarcodeEncoder.encode(Array(link.utf8), as: .qr)
        let side = symbol.width + 2 * quietZone
        let path = symbol.bars.map { "M\(format($0.x + quietZone)) \(format($0.y + quietZone))h\(format($0.width))v\(format($0.height))h-\(format($0.width))z" }.joined()
        let escaped = title.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: "\"", with: "&quot;")
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(format(side)) \(format(side))" shape-rendering="crispEdges" role="img" aria-label="\(escaped)">\
            <title>\(escaped)</title><rect width="\(format(side))" height="\(format(side))" fill="#fff"/><path fill="#000" d="\(path)"/></svg>
            """
    }

    /// The code as a PNG, `moduleSize` pixels per module.
    public static func png(_ link: String, moduleSize: Int = 8) throws -> Data {
        let symbol = try BarcodeEncoder.encode(Array(link.utf8), as: .qr)
        let side = symbol.width + 2 * quietZone
        let canvas = try Canvas(size: Size(width: side, height: side), scale: Double(moduleSize), format: .raster)
        canvas.fill(Rect(x: 0, y: 0, width: side, height: side), color: .white)
        canvas.fillCrisp(symbol.bars.map { Rect(x: $0.x + quietZone, y: $0.y + quietZone, width: $0.width, height: $0.height) }, color: .black)
        let pixels = try canvas.finishRaster()
        return try PNGEncoder.encode(rgba: pixels.data, width: pixels.width, height: pixels.height)
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
