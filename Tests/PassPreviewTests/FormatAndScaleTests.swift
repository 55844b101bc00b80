import Drawing
import Foundation
import PassPreview
import PasswrightTesting
import Testing

/// The same pass at every scale and as SVG.
@Suite struct FormatAndScaleTests {
    @Test(arguments: [1, 2, 3])
    func everyScaleHasTheSameLayout(_ scale: Int) async throws {
        let contents = try SampleTemplateTests.contents("membership")
        let preview = try PassPreviewer.render(contents, options: PreviewOptions(scale: scale))
        #expect((preview.pixelWidth, preview.pixelHeight) == (375 * scale, 468 * scale))
        let reference = try PassPreviewer.render(contents, options: PreviewOptions(scale: 2))
        // Fields lay out identically (unhinted text measures the same at every scale); only the barcode
        // plate moves, by under a pixel, to sit on the pixel grid.
        func fields(_ preview: RenderedPreview) -> [Rect] { preview.texts.filter { !$0.role.hasPrefix("barcode.") }.map(\.rect) }
        #expect(fields(preview) == fields(reference))
        let plate = try #require(preview.barcode).rect, referencePlate = try #require(reference.barcode).rect
        #expect(abs(plate.midX - referencePlate.midX) < 1 && abs(plate.maxY - referencePlate.maxY) < 1)
        if scale >= 2 {
            let found = try await PictureCheck.barcodes(in: preview.data)
            #expect(found.map(\.text) == [try #require(contents.pass.barcodes.first).message])
        }
    }

    @Test func svgIsADocumentWithTheText() throws {
        let preview = try PassPreviewer.render(try SampleTemplateTests.contents("coupon"), options: PreviewOptions(format: .svg))
        let text = String(decoding: preview.data, as: UTF8.self)
        #expect(text.hasPrefix("<?xml") && text.contains("<svg"))
        #expect(text.contains("width=\"750") && text.contains("height=\"936"))
    }

    @Test func bothSidesSideBySide() throws {
        let preview = try PassPreviewer.render(try SampleTemplateTests.contents("loyalty"), options: PreviewOptions(side: .both, scale: 1))
        #expect(preview.cards.count == 2)
        #expect(preview.cards[1].x > preview.cards[0].maxX)
        #expect(preview.texts.filter { $0.side == .back }.allSatisfy { preview.cards[1].contains($0.rect) })
        #expect(preview.texts.filter { $0.side == .front }.allSatisfy { preview.cards[0].contains($0.rect) })
    }
}
