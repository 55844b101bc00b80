import Drawing
import Foundation
import ImageProcessing
import OrderModel

/// Draws an order as Wallet's order detail screen shows it — merchant, status, each fulfilment's
/// progress, the items with their images, the total — for the console and the API, so an operator
/// sees what a change will look like on the customer's phone.
public struct OrderPreviewer: Sendable {
    public init() {}

    /// The order drawn at `options.scale`, light or dark. `files` are the order's package files by
    /// path (`logo.png`); an image that is missing or cannot be decoded leaves its place empty.
    public func render(_ order: Order, files: [String: Data], options: OrderPreviewOptions = OrderPreviewOptions()) throws(OrderPreviewError) -> OrderPicture {
        guard OrderPreviewOptions.scales.contains(options.scale) else {
            throw .invalidOption(name: "scale", message: "must be 1, 2 or 3, not \(options.scale)")
        }
        var images: [String: Bitmap] = [:]
        let named = [order.merchant.logo] + order.lineItems.map(\.image)
        for path in named.compactMap({ $0?.path }) where images[path] == nil {
            if let data = files[path], let bitmap = try? Bitmap(png: data, source: path) { images[path] = bitmap }
        }
        let palette = OrderPalette(dark: options.dark)
        do {
            let scratch = try Canvas(size: Size(width: OrderPainter.width, height: 1), scale: 1, format: .raster)
            let height = OrderPainter(order: order, images: images, palette: palette, canvas: scratch, drawing: false).paint().rounded(.up)
            let canvas = try Canvas(size: Size(width: OrderPainter.width, height: height), scale: Double(options.scale), format: .raster)
            _ = OrderPainter(order: order, images: images, palette: palette, canvas: canvas, drawing: true).paint()
            let pixels = try canvas.finishRaster()
            let png = try PNGEncoder.encode(rgba: pixels.data, width: pixels.width, height: pixels.height)
            return OrderPicture(png: png, width: pixels.width, height: pixels.height)
        } catch let error as DrawingError {
            throw .drawing("\(error)")
        } catch {
            throw .drawing("\(error)")
        }
    }
}
