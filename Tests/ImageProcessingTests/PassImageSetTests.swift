import Foundation
import PassModel
import PasswrightTesting
import Testing
@testable import ImageProcessing

/// One slot of one style, for parameterized cases.
struct StyleSlot: Sendable, CustomTestStringConvertible {
    let style: PassStyle
    let poster: Bool
    let slot: String

    var testDescription: String { "\(style.key)\(poster ? " (poster)" : "") \(slot)" }

    /// Every slot each style shows, classic and poster event tickets (venueMap has no known size).
    static let all: [StyleSlot] = PassStyle.allCases.flatMap { style in
        [false, true].filter { !$0 || style == .eventTicket }.flatMap { poster in
            ImageSpec.slots.filter(ImageSpec.shownSlots(style: style, poster: poster).contains).map { StyleSlot(style: style, poster: poster, slot: $0) }
        }
    }
}

/// Masters made at test time: no image is committed as a fixture.
enum Masters {
    /// A 1000 × 1000 JPEG, converted from a PNG by the `vips` command line (libvips-tools).
    static func jpeg() throws -> MasterImage {
        try converted(TestPNG.solid(width: 1000, height: 1000), to: "jpg")
    }

    /// `png` converted by the `vips` command line to the format of `fileExtension` (it goes by the name).
    static func converted(_ png: Data, to fileExtension: String) throws -> MasterImage {
        try withTemporaryDirectory { folder in
            let source = folder.appendingPathComponent("master.png"), target = folder.appendingPathComponent("master.\(fileExtension)")
            try png.write(to: source)
            let result = try Subprocess.toolBlocking("vips", ["copy", source.path, target.path])
            guard result.succeeded else { throw FixtureError("vips copy failed: \(result)") }
            return try MasterImage(data: Data(contentsOf: target), source: target.lastPathComponent)
        }
    }

    /// A square SVG with a transparent margin.
    static func svg() throws -> MasterImage {
        let text = ##"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100"><circle cx="50" cy="50" r="40" fill="#2a5aa0"/></svg>"##
        return try MasterImage(data: Data(text.utf8), source: "master.svg")
    }
}

@Suite("pass image sets")
struct PassImageSetTests {
    @Test("a 1000 × 1000 JPEG makes @1x, @2x and @3x at exactly the sizes ImageSpec (lint's table) accepts", arguments: StyleSlot.all)
    func jpegSizes(_ case: StyleSlot) throws {
        try check(Masters.jpeg(), `case`)
    }

    @Test("an SVG master makes every slot at the sizes lint accepts", arguments: StyleSlot.all)
    func svgSizes(_ case: StyleSlot) throws {
        try check(Masters.svg(), `case`)
    }

    private func check(_ master: MasterImage, _ case: StyleSlot) throws {
        let set = try PassImageSet.make(from: master, slot: `case`.slot, style: `case`.style, poster: `case`.poster)
        let spec = try #require(ImageSpec.forSlot(`case`.slot, style: `case`.style, poster: `case`.poster))
        #expect(set.images.map(\.fileName) == ["\(`case`.slot).png", "\(`case`.slot)@2x.png", "\(`case`.slot)@3x.png"])
        for image in set.images {
            #expect(spec.check(width: image.width, height: image.height, scale: image.scale) == nil, "\(image.fileName) is \(image.width)×\(image.height)")
            let header = try #require(PNGHeader(image.png))
            #expect(header.width == image.width && header.height == image.height)
        }
        // Covering a 1125-wide strip or a 1515-tall background with 1000 px needs upscaling, and says so.
        let box = spec.pixels(scale: 3)
        let upscaled = !master.isVector && (box.width > master.width || box.height > master.height)
        #expect(set.warnings.count == (upscaled ? 1 : 0), "\(set.warnings)")
    }

    @Test("a transparent PNG keeps its alpha channel, in an exact slot padded with transparency too")
    func keepsTransparency() throws {
        let master = try MasterImage(data: TestPNG.transparent(width: 300, height: 100), source: "logo.png")
        #expect(master.hasAlpha)
        for slot in ["logo", "icon", "strip"] {
            let set = try PassImageSet.make(from: master, slot: slot, style: .storeCard, fit: .contain)
            for image in set.images {
                #expect(image.hasAlpha, "\(image.fileName)")
                #expect(try #require(PNGHeader(image.png)).colourType == 6, "\(image.fileName) is RGBA")
            }
        }
    }

    @Test("a transparent WebP master is read as WebP and keeps its alpha channel")
    func webp() throws {
        let master = try Masters.converted(TestPNG.transparent(width: 600, height: 200), to: "webp")
        #expect(master.format == "webp" && master.hasAlpha)
        let set = try PassImageSet.make(from: master, slot: "logo", style: .coupon)
        #expect(set.images.map { "\($0.width)×\($0.height)" } == ["150×50", "300×100", "450×150"])
        #expect(set.images.allSatisfy { $0.hasAlpha })
    }

    @Test("background and artwork are made opaque, as Wallet draws them behind the whole pass")
    func opaqueBackground() throws {
        let master = try MasterImage(data: TestPNG.transparent(width: 1200, height: 1600), source: "poster.png")
        let set = try PassImageSet.make(from: master, slot: "background", style: .eventTicket, poster: true)
        #expect(set.images.allSatisfy { !$0.hasAlpha && PNGHeader($0.png)?.colourType == 2 })
    }

    @Test("a master smaller than @3x is a warning naming the size it should have")
    func smallMasterWarns() throws {
        let master = try MasterImage(data: TestPNG.solid(width: 200, height: 200), source: "small.png")
        let set = try PassImageSet.make(from: master, slot: "strip", style: .coupon)
        #expect(set.warnings == ["small.png is 200×200 px, smaller than strip@3x.png (1125×432 px) needs, so it was upscaled and looks soft; use a master of at least 1125×1125 px"])
        #expect(set.images.last.map { ($0.width, $0.height) } ?? (0, 0) == (1125, 432))
    }

    @Test("a slot the style never draws, an unknown slot and a non-image are refused with what to do")
    func refusals() throws {
        let master = try Masters.svg()
        #expect(throws: ImageProcessingError.slotNotShown(slot: "strip", style: "generic", shown: ["icon", "logo", "thumbnail"])) {
            try PassImageSet.make(from: master, slot: "strip", style: .generic)
        }
        #expect(throws: ImageProcessingError.unknownSlot("banner")) { try PassImageSet.make(from: master, slot: "banner", style: nil) }
        #expect(throws: ImageProcessingError.unsupportedFormat(source: "notes.txt", found: nil)) {
            try MasterImage(data: Data("hello".utf8), source: "notes.txt")
        }
    }
}

/// The IHDR facts of a PNG, read independently of the code under test.
struct PNGHeader {
    let width: Int, height: Int, colourType: UInt8

    init?(_ data: Data) {
        let bytes = [UInt8](data.prefix(26))
        guard bytes.count == 26, bytes[0] == 0x89, bytes[12...15].elementsEqual(Array("IHDR".utf8)) else { return nil }
        func int(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        width = int(16)
        height = int(20)
        colourType = bytes[25]
    }
}
