import Drawing
import Foundation
import OrderModel
import OrderPackage
import OrderPreview
import PassModel
import PasswrightTesting
import Testing

/// The order picture: what it shows is read back with the real tesseract, the progress bar and the
/// item images are checked in the pixels, and dark mode is dark.
@Suite struct OrderPreviewTests {
    static func sample() throws -> OrderSource {
        try OrderSource.load(from: Repository.templates.appendingPathComponent("orders/shop"))
    }

    static func pixels(_ picture: OrderPicture) throws -> Bitmap {
        try Bitmap(png: picture.png, source: "order picture")
    }

    @Test("the sample reads back: merchant, an item, the status words and the shipment's progress; the size is the scale's")
    func sampleReadsBack() async throws {
        let source = try Self.sample()
        let picture = try OrderPreviewer().render(source.order, files: source.files, options: OrderPreviewOptions(scale: 2))
        let bitmap = try Self.pixels(picture)
        #expect(bitmap.pixelWidth == picture.width && bitmap.pixelHeight == picture.height)
        #expect(picture.width == 780, "390 pt at @2x")
        let once = try OrderPreviewer().render(source.order, files: source.files, options: OrderPreviewOptions(scale: 1))
        #expect(once.width == 390 && abs(once.height * 2 - picture.height) <= 2)
        let text = try await PictureCheck.text(in: picture.png)
        #expect(text.contains(source.order.merchant.displayName), "\(text)")
        #expect(text.contains("Trail running shoes"), "\(text)")
        #expect(text.contains("Order placed"), "\(text)")
        #expect(text.contains("On the way"), "\(text)")
    }

    @Test("a cancelled order says so; a delivered shipment fills its bar, one on the way fills half of it")
    func statusChangesThePicture() async throws {
        let source = try Self.sample()
        var cancelled = source.order
        cancelled.status = .cancelled
        let text = try await PictureCheck.text(in: try OrderPreviewer().render(cancelled, files: source.files).png)
        #expect(text.contains("Cancelled"), "\(text)")

        // The last segment of the bar: green when delivered, the track's grey while on the way.
        func lastSegment(_ status: ShippingStatus) throws -> RGBA? {
            var order = source.order
            guard case .shipping(var shipping) = order.fulfillments[0] else { throw FixtureError("the sample ships") }
            shipping.status = status
            order.fulfillments[0] = .shipping(shipping)
            let picture = try OrderPreviewer().render(order, files: source.files, options: OrderPreviewOptions(scale: 1))
            let bitmap = try Self.pixels(picture)
            // The bar is the first row of green pixels down the left of the first card.
            let barY = try (0..<bitmap.pixelHeight).first { y in bitmap.pixel(x: 40, y: y).map(Self.isGreen) == true }.orThrow("no progress bar")
            return bitmap.pixel(x: 390 - 40, y: barY + 2)
        }
        #expect(try lastSegment(.delivered).map(Self.isGreen) == true)
        #expect(try lastSegment(.onTheWay).map(Self.isGreen) == false)
    }

    @Test("the item images are drawn: the shoes' thumbnail has the shoes' colour; a missing image leaves a placeholder")
    func itemImages() throws {
        let source = try Self.sample()
        let shoes = try Bitmap(png: try #require(source.files["shoes.png"]), source: "shoes.png")
        let expected = try #require(shoes.pixel(x: shoes.pixelWidth / 2, y: shoes.pixelHeight / 2))
        let picture = try OrderPreviewer().render(source.order, files: source.files, options: OrderPreviewOptions(scale: 1))
        let bitmap = try Self.pixels(picture)
        let found = (0..<bitmap.pixelHeight).contains { y in
            bitmap.pixel(x: 16 + 16 + 28, y: y).map { Self.close($0, expected) } == true
        }
        #expect(found, "the centre colour of shoes.png appears in the thumbnail column")
        var files = source.files
        files["shoes.png"] = nil
        #expect(try OrderPreviewer().render(source.order, files: files).png.count > 1000, "a missing image is no error")
    }

    @Test("dark mode draws on black; a scale outside 1…3 names the option")
    func darkAndBadScale() throws {
        let source = try Self.sample()
        let dark = try Self.pixels(try OrderPreviewer().render(source.order, files: source.files, options: OrderPreviewOptions(scale: 1, dark: true)))
        let corner = try #require(dark.pixel(x: 2, y: 2))
        #expect(Int(corner.red) + Int(corner.green) + Int(corner.blue) < 30, "\(corner)")
        #expect {
            try OrderPreviewer().render(source.order, files: source.files, options: OrderPreviewOptions(scale: 4))
        } throws: { "\($0)".contains("scale: must be 1, 2 or 3") }
    }

    static func isGreen(_ colour: RGBA) -> Bool { colour.green > 150 && colour.red < 120 && colour.blue < 140 }

    static func close(_ left: RGBA, _ right: RGBA) -> Bool {
        abs(Int(left.red) - Int(right.red)) + abs(Int(left.green) - Int(right.green)) + abs(Int(left.blue) - Int(right.blue)) < 30
    }
}
