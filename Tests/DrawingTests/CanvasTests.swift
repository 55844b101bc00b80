import Barcodes
import Drawing
import Foundation
import ImageProcessing
import PasswrightTesting
import Testing

/// The Cairo/Pango wrapper and the zint wrapper on their own.
@Suite struct CanvasTests {
    @Test func fillsLandOnTheirPixels() throws {
        let canvas = try Canvas(size: Size(width: 10, height: 10), scale: 3, format: .raster)
        canvas.fill(Rect(x: 0, y: 0, width: 10, height: 10), color: RGBA(red: 10, green: 20, blue: 30))
        canvas.fill(Rect(x: 5, y: 5, width: 5, height: 5), color: RGBA(red: 200, green: 100, blue: 50))
        let pixels = try canvas.finishRaster()
        #expect((pixels.width, pixels.height) == (30, 30))
        let bitmap = try Bitmap(png: try PNGEncoder.encode(rgba: pixels.data, width: pixels.width, height: pixels.height), source: "canvas")
        #expect((bitmap.pixelWidth, bitmap.pixelHeight) == (30, 30))
        #expect(pixels.pixel(x: 2, y: 2) == RGBA(red: 10, green: 20, blue: 30))
        #expect(bitmap.pixel(x: 2, y: 2) == RGBA(red: 10, green: 20, blue: 30))
        #expect(bitmap.pixel(x: 20, y: 20) == RGBA(red: 200, green: 100, blue: 50))
        #expect(bitmap.pixel(x: 30, y: 0) == nil)
    }

    @Test func textIsCutToItsWidth() throws {
        let canvas = try Canvas(size: Size(width: 100, height: 40), scale: 1, format: .raster)
        let short = canvas.layout("Gold", style: TextStyle(size: 17), width: 100)
        let long = canvas.layout(String(repeating: "Platinum ", count: 10), style: TextStyle(size: 17), width: 100)
        #expect(!short.isEllipsized && short.lineCount == 1 && short.size.width < 60)
        #expect(long.isEllipsized && long.lineCount == 1 && long.size.width <= 100)
        let wrapped = canvas.layout(String(repeating: "Platinum ", count: 10), style: TextStyle(size: 17, maximumLines: 2), width: 100)
        #expect(wrapped.lineCount == 2 && wrapped.isEllipsized)
    }

    @Test func aMissingScriptIsCounted() throws {
        let canvas = try Canvas(size: Size(width: 100, height: 40), scale: 1, format: .raster)
        // U+10FFFD is a private-use code point no font on the system draws.
        #expect(canvas.layout("a\u{10FFFD}b", style: TextStyle(size: 17), width: nil).unknownGlyphs == 1)
        #expect(canvas.layout("日本語 العربية", style: TextStyle(size: 17), width: nil).unknownGlyphs == 0)
    }

    @Test func damagedPNGIsAnError() {
        #expect(throws: DrawingError.self) { try Bitmap(png: Data("nope".utf8), source: "x.png") }
    }

    @Test func qrVersionOneHasTwentyOneModules() throws {
        let symbol = try BarcodeEncoder.encode(Array("HELLO".utf8), as: .qr)
        #expect(symbol.width == 21 && symbol.height == 21)
        // The finder pattern's top row: seven dark modules from the corner.
        #expect(symbol.bars.contains { $0.x == 0 && $0.y == 0 && $0.width == 7 && $0.height == 1 })
    }

    @Test func drawnBarcodesDecode() async throws {
        for symbology in BarcodeSymbology.allCases {
            let symbol = try BarcodeEncoder.encode(Array("PW-0042".utf8), as: symbology)
            let module = 3.0, quiet = 12.0
            let rowScale = symbology == .code128 ? 60 / symbol.height : module
            let size = Size(width: symbol.width * module + 2 * quiet, height: symbol.height * rowScale + 2 * quiet)
            let canvas = try Canvas(size: size, scale: 1, format: .raster)
            canvas.fill(Rect(x: 0, y: 0, width: size.width, height: size.height), color: .white)
            canvas.fillCrisp(symbol.bars.map { Rect(x: quiet + $0.x * module, y: quiet + $0.y * rowScale, width: $0.width * module, height: $0.height * rowScale) }, color: .black)
            let pixels = try canvas.finishRaster()
            let found = try await PictureCheck.barcodes(in: try PNGEncoder.encode(rgba: pixels.data, width: pixels.width, height: pixels.height))
            #expect(found.map(\.text) == ["PW-0042"], "\(symbology): \(found)")
        }
    }
}
