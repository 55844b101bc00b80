import Drawing
import Foundation
import PassModel
import PassPreview
import PasswrightTesting
import Testing

/// Input no designer meant: a clear error or a clipped picture, never a crash.
@Suite struct HostileInputTests {
    @Test func tenThousandCharacterValue() throws {
        let huge = String(repeating: "Lorem ipsum dolor sit amet ", count: 370).prefix(10_000)
        let contents = try PreviewFixtures.pass(style: "generic", fields: #""primaryFields": [{"key": "p", "label": "P", "value": "\#(huge)"}], "backFields": [{"key": "b", "label": "B", "value": "\#(huge)"}]"#)
        let preview = try PassPreviewer.render(contents, options: PreviewOptions(side: .both))
        let front = try #require(preview.texts.first { $0.role == "primary.p.value" })
        let back = try #require(preview.texts.first { $0.role == "back.b.value" })
        #expect(front.isEllipsized && back.isEllipsized)
        #expect(preview.pixelHeight < 2 * 1600, "the back is cut at 40 lines, not 200: \(preview.pixelHeight)")
    }

    @Test func oneByTenThousandImage() throws {
        let strip = TestPNG.solid(width: 1, height: 10_000)
        let contents = try PreviewFixtures.pass(style: "storeCard", fields: #""primaryFields": [{"key": "p", "label": "P", "value": "1"}]"#, files: ["strip@2x.png": strip, "logo.png": TestPNG.solid(width: 10_000, height: 1)])
        let preview = try PassPreviewer.render(contents)
        #expect(preview.problems.isEmpty)
        #expect((preview.pixelWidth, preview.pixelHeight) == (750, 936))
    }

    @Test func corruptAndOversizedImagesAreNamedAndSkipped() throws {
        var corrupt = TestPNG.solid(width: 40, height: 40)
        corrupt.replaceSubrange(40..<60, with: Data(repeating: 0xAB, count: 20))
        var giant = TestPNG.solid(width: 4, height: 4)
        giant.replaceSubrange(16..<24, with: Data([0, 0, 0x75, 0x30, 0, 0, 0x75, 0x30])) // declares 30000 × 30000
        let contents = try PreviewFixtures.pass(style: "storeCard", fields: #""primaryFields": [{"key": "p", "label": "P", "value": "1"}]"#,
                                                files: ["strip@2x.png": corrupt, "logo@2x.png": giant, "thumbnail.png": Data("not a png".utf8)])
        let preview = try PassPreviewer.render(contents)
        #expect(preview.problems.contains { $0.contains("strip@2x.png") && $0.contains("damaged") }, "\(preview.problems)")
        #expect(preview.problems.contains { $0.contains("logo@2x.png") && $0.contains("30000 × 30000") }, "\(preview.problems)")
        _ = try Bitmap(png: preview.data, source: "preview") // still a picture
    }

    @Test(arguments: [("PKBarcodeFormatQR", 8_000), ("PKBarcodeFormatAztec", 5_000), ("PKBarcodeFormatPDF417", 3_000), ("PKBarcodeFormatCode128", 200)])
    func barcodeMessageTooLongForItsFormat(_ format: String, _ length: Int) throws {
        let message = String(repeating: "A7", count: length)
        let contents = try PreviewFixtures.pass(style: "generic", fields: "", barcode: #"{"format": "\#(format)", "message": "\#(message)", "messageEncoding": "iso-8859-1"}"#)
        let preview = try PassPreviewer.render(contents)
        #expect(preview.problems.contains { $0.contains("too long") && $0.contains("barcodes[0].message") }, "\(format): \(preview.problems)")
        #expect(preview.barcode == nil)
        #expect(preview.texts.contains { $0.role == "barcode.error" }, "the picture says why the barcode is missing")
    }

    @Test func garbageArchiveIsAClearError() throws {
        #expect(throws: PreviewError.self) { try PassContents(pkpass: Data("PK\u{3}\u{4}garbage".utf8), source: "x.pkpass") }
        do {
            _ = try PassContents(pkpass: Data("PK\u{3}\u{4}garbage".utf8), source: "x.pkpass")
        } catch {
            #expect("\(error)".contains("x.pkpass") && "\(error)".contains("not a readable .pkpass"))
        }
    }

    @Test func badScaleIsRefused() throws {
        let contents = try PreviewFixtures.pass(style: "generic", fields: "")
        #expect(throws: PreviewError.invalidOption(name: "scale", message: "4 is not an image scale Wallet uses; use 1, 2 or 3")) {
            try PassPreviewer.render(contents, options: PreviewOptions(scale: 4))
        }
    }
}
