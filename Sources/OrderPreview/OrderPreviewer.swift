import Drawing
import Foundation
import ImageProcessing
import OrderModel

/// Draws an order as Wallet's order detail screen shows it: a phone-wide picture, as tall as the
/// order's content, light or dark, at @1x–@3x.
///
/// Safe to call from many tasks at once: each render has its own canvases and borrows its own font map.
public struct OrderPreviewer: Sendable {
    public init() {}

    /// PNG of the order as Wallet's order detail screen shows it. `files` maps package paths
    /// (`logo.png`, `shoes.png`) to bytes, as `OrderSource.files`; an image the order names that is
    /// missing or unreadable is drawn as a placeholder.
    public func render(_ order: Order, files: [String: Data], options: OrderPreviewOptions = OrderPreviewOptions())
        throws(OrderPreviewError) -> OrderPicture {
        guard OrderPreviewOptions.scales.contains(options.scale) else {
            throw .invalidOption(name: "scale", message: "\(options.scale) is not a screen scale; use 1, 2 or 3 (1...3)")
        }
        let palette = options.dark ? OrderPalette.dark : OrderPalette.light
        let images = OrderImages(files: files)
        do {
            // The height and every group's height, measured on a scratch canvas by the same painter.
            let scratch = try Canvas(size: Size(width: OrderPainter.width, height: 1), scale: 1, format: .raster)
            let measuring = OrderPainter(canvas: scratch, order: order, palette: palette, images: images, measured: [])
            let height = measuring.paint().rounded(.up)
            let canvas = try Canvas(size: Size(width: OrderPainter.width, height: height), scale: Double(options.scale), format: .raster)
            let painter = OrderPainter(canvas: canvas, order: order, palette: palette, images: images, measured: measuring.groupHeights)
            painter.paint()
            let pixels = try canvas.finishRaster()
            let png = try PNGEncoder.encode(rgba: pixels.data, width: pixels.width, height: pixels.height)
            return OrderPicture(png: png, width: pixels.width, height: pixels.height, regions: painter.regions)
        } catch {
            throw .drawing("\(error)")
        }
    }
}
