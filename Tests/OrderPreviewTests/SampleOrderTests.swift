import Drawing
import Foundation
import OrderModel
import OrderPreview
import PasswrightTesting
import Testing

/// The sample order drawn and read back: its size at every scale, and its words through tesseract,
/// which shares no code with Pango.
@Suite struct SampleOrderTests {
    @Test(arguments: OrderPreviewOptions.scales)
    func phoneWideAtEveryScale(_ scale: Int) throws {
        let source = try OrderFixtures.shop()
        let picture = try OrderPreviewer().render(source.order, files: source.files, options: OrderPreviewOptions(scale: scale))
        let single = try OrderPreviewer().render(source.order, files: source.files, options: OrderPreviewOptions(scale: 1))
        #expect(picture.width == 390 * scale, "a phone's width in points, times the scale")
        #expect(picture.height == single.height * scale, "the same layout at every scale")
        let bitmap = try Bitmap(png: picture.png, source: "order@\(scale)x")
        #expect((bitmap.pixelWidth, bitmap.pixelHeight) == (picture.width, picture.height), "the PNG's own header agrees")
        #expect(picture.height > picture.width, "a whole order is taller than wide")
    }

    @Test func heightGrowsWithTheItems() throws {
        let source = try OrderFixtures.shop()
        var longer = source.order
        longer.lineItems += source.order.lineItems + source.order.lineItems
        let short = try OrderPreviewer().render(source.order, files: source.files)
        let long = try OrderPreviewer().render(longer, files: source.files)
        let added = longer.lineItems.count - source.order.lineItems.count
        #expect(long.height > short.height + added * 60 * 2, "\(added) more rows, each at least a 60 pt thumbnail tall at @2x")
    }

    @Test func tesseractReadsMerchantItemAndStatus() async throws {
        let source = try OrderFixtures.shop()
        let picture = try OrderPreviewer().render(source.order, files: source.files, options: OrderPreviewOptions(scale: 3))
        let text = try await Self.words(in: picture.png)
        let title = try #require(source.order.lineItems.first).title
        for expected in [source.order.merchant.displayName, title, "Order placed", "On the way"] {
            #expect(text.contains(expected), "tesseract did not read '\(expected)' in: \(text)")
        }
        #expect(!text.contains("Cancelled"))
    }

    @Test func cancelledOrderSaysSo() async throws {
        let source = try OrderFixtures.shop()
        var cancelled = source.order
        cancelled.status = .cancelled
        let picture = try OrderPreviewer().render(cancelled, files: source.files, options: OrderPreviewOptions(scale: 3))
        let text = try await Self.words(in: picture.png)
        #expect(text.contains("Cancelled"), "tesseract read: \(text)")
        #expect(!text.contains("Order placed"), "the open order's words are gone: \(text)")
    }

    /// What tesseract reads, with runs of white space folded to one space so a line break does not
    /// split a phrase.
    static func words(in png: Data) async throws -> String {
        try await PictureCheck.text(in: png).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
