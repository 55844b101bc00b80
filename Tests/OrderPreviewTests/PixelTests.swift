import Drawing
import Foundation
import OrderModel
import OrderPackage
import OrderPreview
import PasswrightTesting
import Testing

/// What the picture's pixels show: the step bar's progress, the items' own images (or a placeholder),
/// and the dark appearance.
@Suite struct PixelTests {
    static let scale = 2

    @Test func stepBarFillsFurtherAsTheShipmentMovesOn() throws {
        let source = try OrderFixtures.shop()
        let statuses: [ShippingStatus] = [.processing, .shipped, .outForDelivery, .delivered]
        let bars = try statuses.map { try Self.barRow(source, status: $0) }
        // The unreached track's colour: the far end of the least advanced bar.
        let track = try #require(bars[0].last)
        let reached = bars.map { row in row.filter { !OrderFixtures.alike($0, track, tolerance: 40) }.count }
        #expect(reached == reached.sorted() && Set(reached).count == reached.count, "\(zip(statuses, reached).map { "\($0): \($1)" })")
        let changed = zip(bars[0], bars[3]).filter { !OrderFixtures.alike($0, $1, tolerance: 40) }.count
        #expect(Double(changed) > Double(bars[0].count) * 0.5, "delivered colours most of the bar that processing leaves unreached")
    }

    @Test func issueAndCancellationHaveTheirOwnColours() throws {
        let source = try OrderFixtures.shop()
        let statuses: [ShippingStatus] = [.onTheWay, .issue, .cancelled]
        // The most common colour along each bar: the fill or the wash that stands for the status.
        let colours = try statuses.map { status -> RGBA in
            let row = try Self.barRow(source, status: status)
            let counts = row.reduce(into: [RGBA: Int]()) { $0[$1, default: 0] += 1 }
            return try #require(counts.max { $0.value < $1.value }?.key)
        }
        for first in colours.indices {
            for second in colours.indices where second > first {
                #expect(!OrderFixtures.alike(colours[first], colours[second], tolerance: 20),
                        "\(statuses[first]) and \(statuses[second]) look alike: \(colours[first]) vs \(colours[second])")
            }
        }
    }

    @Test func lineItemThumbnailsShowTheirImages() throws {
        let source = try OrderFixtures.shop()
        let picture = try OrderPreviewer().render(source.order, files: source.files, options: OrderPreviewOptions(scale: Self.scale))
        let bitmap = try Bitmap(png: picture.png, source: "order")
        var seen: [RGBA] = []
        for (index, item) in source.order.lineItems.enumerated() {
            let path = try #require(item.image?.path)
            let image = try Bitmap(png: try #require(source.files[path]), source: path)
            let expected = try #require(OrderFixtures.dominantColor(of: image))
            let rect = try #require(picture.regions["lineItem.\(index).image"])
            let drawn = try OrderFixtures.pixel(bitmap, x: rect.midX, y: rect.midY, scale: Self.scale)
            #expect(OrderFixtures.alike(drawn, expected), "\(path): drew \(drawn) where the image is \(expected)")
            seen.append(drawn)
        }
        #expect(Set(seen).count == seen.count, "each item shows its own image")
    }

    @Test(arguments: ["missing", "not a PNG"])
    func unusableImageIsAPlaceholder(_ kind: String) throws {
        let source = try OrderFixtures.shop()
        let path = try #require(source.order.lineItems.first?.image?.path)
        var files = source.files
        files[path] = kind == "missing" ? nil : Data("not a PNG".utf8)
        let picture = try OrderPreviewer().render(source.order, files: files, options: OrderPreviewOptions(scale: Self.scale))
        let bitmap = try Bitmap(png: picture.png, source: "order")
        let image = try Bitmap(png: try #require(source.files[path]), source: path)
        let rect = try #require(picture.regions["lineItem.0.image"])
        let drawn = try OrderFixtures.pixel(bitmap, x: rect.midX - rect.width / 8, y: rect.midY, scale: Self.scale)
        let corner = try OrderFixtures.pixel(bitmap, x: rect.x + 2, y: rect.y + rect.height / 2, scale: Self.scale)
        #expect(!OrderFixtures.alike(drawn, try #require(OrderFixtures.dominantColor(of: image))), "the image is gone")
        #expect(abs(Int(corner.red) - Int(corner.blue)) < 8 && abs(Int(corner.green) - Int(corner.blue)) < 8, "a neutral grey, not a colour: \(corner)")
    }

    @Test func darkModeHasADarkBackground() throws {
        let source = try OrderFixtures.shop()
        for dark in [false, true] {
            let picture = try OrderPreviewer().render(source.order, files: source.files, options: OrderPreviewOptions(scale: Self.scale, dark: dark))
            let bitmap = try Bitmap(png: picture.png, source: "order")
            // Below the last group: page background whatever the content.
            let corner = try OrderFixtures.pixel(bitmap, x: 2, y: Double(picture.height / Self.scale) - 2, scale: Self.scale)
            let brightness = OrderFixtures.brightness(corner)
            #expect(dark ? brightness < 0.2 : brightness > 0.8, "dark \(dark): background \(corner)")
        }
    }

    /// The pixels along the middle of the first fulfilment's step bar with the shipment at `status`.
    static func barRow(_ source: OrderSource, status: ShippingStatus) throws -> [RGBA] {
        let order = try OrderFixtures.order(source.order, shipping: status)
        let picture = try OrderPreviewer().render(order, files: source.files, options: OrderPreviewOptions(scale: scale))
        let bitmap = try Bitmap(png: picture.png, source: "\(status)")
        let bar = try #require(picture.regions["fulfillment.0.progress"])
        let y = Int(bar.midY * Double(scale))
        return (Int(bar.x * Double(scale))..<Int(bar.maxX * Double(scale))).compactMap { bitmap.pixel(x: $0, y: y) }
    }
}
