// Fuzzes what the preview routes and `passwright preview` draw: byte 0 picks the options and what the
// rest is — a `.pkpass` archive, or a `pass.json` laid over the loyalty template's images and
// translations — and the rest goes through `PassContents` and `PassPreviewer.render`. Any bytes must
// give a picture or a `PreviewError`, never a crash. A picture must be what it says: a PNG whose IHDR
// has the pixel size reported, or an SVG document.
//
// Byte 0: bits 0–1 side (front, back, both, front), bit 2 SVG, bits 3–4 scale (1, 2, 3, 1),
// bits 5–6 locale (none, de, fr, pt-BR), bit 7 set when the rest is a pass.json.
import Foundation
import FuzzSupport
import PassModel
import PassPreview

/// The loyalty template's files but pass.json: images at every scale and three `.lproj` folders.
let templateFiles: [String: Data] = {
    let folder = Fixtures.templates.appendingPathComponent("loyalty")
    var files: [String: Data] = [:]
    guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
        fatalError("fuzz fixtures: no template folder at \(folder.path)")
    }
    for case let url as URL in walker where !url.hasDirectoryPath {
        let path = String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))
        guard path != "pass.json", let bytes = try? Data(contentsOf: url) else { continue }
        files[path] = bytes
    }
    return files
}()

func options(_ byte: UInt8) -> PreviewOptions {
    let sides: [PreviewOptions.Side] = [.front, .back, .both, .front]
    let locales: [String?] = [nil, "de", "fr", "pt-BR"]
    return PreviewOptions(
        side: sides[Int(byte & 0b11)], scale: [1, 2, 3, 1][Int(byte >> 3 & 0b11)], format: byte & 0b100 == 0 ? .png : .svg,
        locale: locales[Int(byte >> 5 & 0b11)])
}

func contents(_ data: Data, passJSON: Bool) throws -> PassContents {
    guard passJSON else { return try PassContents(pkpass: data, source: "input") }
    guard let (pass, _) = try? Pass.decodeAll(JSONValue.parse(data)) else { throw PreviewError.unreadable(source: "input", problems: []) }
    return PassContents(pass: pass, files: templateFiles)
}

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = FuzzDriver.data(bytes, count)
    guard let first = input.first else { return 0 }
    let options = options(first)
    guard let preview = try? PassPreviewer.render(try contents(input.dropFirst(), passJSON: first & 0x80 != 0), options: options) else { return 0 }
    precondition(preview.pixelWidth > 0 && preview.pixelHeight > 0, "an empty picture: \(preview.pixelWidth)×\(preview.pixelHeight)")
    switch options.format {
    case .png:
        let header = [UInt8](preview.data.prefix(24))
        precondition(header.count == 24 && header[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "not a PNG")
        func number(_ offset: Int) -> Int { header[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        precondition(number(16) == preview.pixelWidth && number(20) == preview.pixelHeight,
                     "IHDR says \(number(16))×\(number(20)), the preview \(preview.pixelWidth)×\(preview.pixelHeight)")
    case .svg:
        precondition(String(decoding: preview.data.prefix(512), as: UTF8.self).contains("<svg"), "not an SVG document")
    }
    return 0
}

FuzzDriver.run(testOneInput)
