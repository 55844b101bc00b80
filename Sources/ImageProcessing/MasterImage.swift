import Foundation

/// The image every size of a slot is made from, checked once: a PNG, JPEG, WebP or SVG in memory
/// (a file's bytes, or an upload's), with its pixel size and whether it has an alpha channel.
public struct MasterImage: Sendable {
    /// The encoded bytes, as given.
    public let data: Data
    /// Where it came from, for messages (a path or an upload's name).
    public let source: String
    /// `png`, `jpeg`, `webp` or `svg`.
    public let format: String
    /// Pixel size (for SVG, its intrinsic size, which does not limit rendering).
    public let width: Int, height: Int
    /// Whether it has an alpha channel (a transparent PNG, WebP or SVG).
    public let hasAlpha: Bool

    /// The formats accepted, by the libvips loader class that recognises them (`VipsForeignLoadJpegBuffer`).
    static let formats = ["VipsForeignLoadPng": "png", "VipsForeignLoadJpeg": "jpeg", "VipsForeignLoadWebp": "webp", "VipsForeignLoadSvg": "svg"]

    /// Recognises and reads the header of `data`; throws for anything but PNG, JPEG, WebP and SVG.
    public init(data: Data, source: String) throws {
        guard let loader = VipsRendering.loader(of: data) else { throw ImageProcessingError.unsupportedFormat(source: source, found: nil) }
        guard let format = Self.formats.first(where: { loader.hasPrefix($0.key) })?.value else {
            let name = loader.replacingOccurrences(of: "VipsForeignLoad", with: "").replacingOccurrences(of: "Buffer", with: "")
            throw ImageProcessingError.unsupportedFormat(source: source, found: name.uppercased())
        }
        let header = try VipsRendering.header(of: data, source: source)
        self.data = data
        self.source = source
        self.format = format
        (width, height, hasAlpha) = header
    }

    /// Whether it is drawn from vectors, so it is sharp at any size.
    public var isVector: Bool { format == "svg" }
}
