import Drawing
import Foundation
import PassCompiler
import PassModel
import PassPreview
import PasswrightTesting
import Testing

/// Every sample template drawn at @2x and read back: its size, its background, its barcode (decoded
/// by zxing-cpp, which shares no code with zint) and its text boxes.
@Suite struct SampleTemplateTests {
    static let samples = ["loyalty", "coupon", "concert", "membership", "boarding", "poster-event"]

    /// The card size in points each sample's style has.
    static let cardSizes: [String: (Int, Int)] = [
        "loyalty": (375, 468), "coupon": (375, 468), "membership": (375, 468), "concert": (375, 484),
        "boarding": (375, 500), "poster-event": (358, 690),
    ]

    @Test(arguments: samples)
    func frontAtTwoX(_ name: String) async throws {
        let contents = try Self.contents(name)
        let preview = try PassPreviewer.render(contents, options: PreviewOptions(side: .front, scale: 2))
        #expect(preview.problems.isEmpty, "\(preview.problems)")
        let (width, height) = try #require(Self.cardSizes[name])
        #expect((preview.pixelWidth, preview.pixelHeight) == (width * 2, height * 2))
        let bitmap = try Bitmap(png: preview.data, source: name)
        #expect((bitmap.pixelWidth, bitmap.pixelHeight) == (width * 2, height * 2), "the PNG's own header agrees")

        // An empty spot: the card's bottom left corner area, beside the barcode plate.
        let background = try #require(contents.pass.backgroundColor)
        let plate = try #require(preview.barcode).rect
        let probe = (x: Int((plate.x / 2) * 2), y: Int((plate.maxY - 4) * 2))
        let pixel = try #require(bitmap.pixel(x: probe.x, y: probe.y))
        let expected = name == "poster-event" ? try #require(contents.pass.footerBackgroundColor) : background
        #expect((pixel.red, pixel.green, pixel.blue) == (expected.red, expected.green, expected.blue), "pixel at \(probe) of \(name)")

        // The barcode decodes to exactly the pass's message.
        let message = try #require(contents.pass.barcodes.first).message
        let found = try await PictureCheck.barcodes(in: preview.data)
        #expect(found.map(\.text) == [message], "\(name): zxing-cpp read \(found)")

        // Every text box lies inside the card and inside the box it was given; none is cut.
        let card = try #require(preview.cards.first)
        for text in preview.texts {
            #expect(card.contains(text.rect), "\(name): \(text.role) at \(text.rect) leaves the card")
            #expect(text.rect.x >= text.bounds.x - 0.01 && text.rect.maxX <= text.bounds.maxX + 0.01, "\(name): \(text.role) overflows its column")
            #expect(!text.isEllipsized, "\(name): \(text.role) '\(text.text)' is cut")
            #expect(text.unknownGlyphs == 0, "\(name): \(text.role) has characters without a glyph")
        }
        // No two field texts overlap.
        let fields = preview.texts.filter { $0.role.hasSuffix(".value") || $0.role.hasSuffix(".label") }
        for (index, first) in fields.enumerated() {
            for second in fields[(index + 1)...] {
                #expect(!first.rect.insetBy(0.5).intersects(second.rect.insetBy(0.5)), "\(name): \(first.role) overlaps \(second.role)")
            }
        }
    }

    @Test func storeCardFieldsWhereWalletPutsThem() throws {
        let preview = try PassPreviewer.render(try Self.contents("loyalty"), options: PreviewOptions(scale: 2))
        let byRole = Dictionary(preview.texts.map { ($0.role, $0) }, uniquingKeysWith: { first, _ in first })
        let tier = try #require(byRole["header.tier.value"])
        let points = try #require(byRole["primary.points.value"])
        let member = try #require(byRole["secondary.member.value"])
        let number = try #require(byRole["secondary.memberNumber.value"])
        #expect(tier.text == "Gold" && tier.rect.maxX > 375 - 20 && tier.rect.y < 62, "header top right")
        #expect(points.text == "1,280", "PKNumberStyleDecimal in English")
        #expect(points.rect.y > 62 && points.rect.maxY < 70 + 144, "primary over the strip")
        #expect(member.rect.y > 70 + 144 && member.rect.x < number.rect.x, "secondary row under the strip, in order")
        let plate = try #require(preview.barcode).rect
        #expect(member.rect.maxY < plate.y, "fields above the barcode")
    }

    @Test func ocrReadsTheLabels() async throws {
        let preview = try PassPreviewer.render(try Self.contents("boarding"), options: PreviewOptions(scale: 3))
        let text = try await PictureCheck.text(in: preview.data)
        for word in ["BER", "LHR", "Passenger", "Ada"] {
            #expect(text.contains(word), "tesseract did not read \(word) in: \(text)")
        }
    }

    static func contents(_ name: String, locale: String? = nil) throws -> PassContents {
        let template = try Template.load(from: Repository.templates.appendingPathComponent(name))
        let recordFile = Repository.templates.appendingPathComponent("samples/\(name).json")
        let record = try JSONValue.parse(try Data(contentsOf: recordFile))
        return try PassContents(template: template, record: record, recordName: "\(name).json")
    }
}
