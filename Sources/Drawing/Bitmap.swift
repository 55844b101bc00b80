import Foundation
internal import CPangoCairo

/// A decoded PNG, ready to be drawn any number of times (template images are decoded once and shared).
///
/// `@unchecked Sendable`: the surface is never drawn into after decoding; Cairo only reads it as a
/// source, which it allows from several contexts at once.
public final class Bitmap: @unchecked Sendable {
    let surface: OpaquePointer
    /// Size in pixels.
    public let pixelWidth: Int, pixelHeight: Int

    /// The most pixels a decoded image may have: a 1000 × 1000 pt background at @3x is 9 M; a
    /// hostile PNG that declares more is refused before Cairo allocates for it.
    public static let maximumPixels = 16_000_000

    /// Decodes `png`; `source` names it in errors (`strip@2x.png`).
    public init(png: Data, source: String) throws(DrawingError) {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard png.count >= 24, Array(png.prefix(8)) == signature else {
            throw .unreadableImage(source: source, reason: "not a PNG file (Wallet images must be PNG)")
        }
        let bytes = [UInt8](png[png.startIndex + 16 ..< png.startIndex + 24])
        let width = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
        let height = bytes[4..<8].reduce(0) { $0 << 8 | Int($1) }
        guard width > 0, height > 0, width * height <= Self.maximumPixels, width <= 32_767, height <= 32_767 else {
            throw .unreadableImage(source: source, reason: "\(width) × \(height) pixels is beyond what a preview decodes (\(Self.maximumPixels) pixels, 32767 a side)")
        }
        let reader = ByteSource(png)
        let decoded = reader.withCallback { closure, read in cairo_image_surface_create_from_png_stream(read, closure) }!
        let status = cairo_surface_status(decoded)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(decoded)
            throw .unreadableImage(source: source, reason: "the PNG data is damaged (\(String(cString: cairo_status_to_string(status))))")
        }
        surface = decoded
        pixelWidth = Int(cairo_image_surface_get_width(decoded))
        pixelHeight = Int(cairo_image_surface_get_height(decoded))
    }

    deinit { cairo_surface_destroy(surface) }

    /// The straight (not premultiplied) colour of one pixel — how tests and lint sample a picture.
    public func pixel(x: Int, y: Int) -> RGBA? {
        guard (0..<pixelWidth).contains(x), (0..<pixelHeight).contains(y) else { return nil }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { return nil }
        let format = cairo_image_surface_get_format(surface)
        let offset = y * stride + x * 4
        // ARGB32 and RGB24 are native-endian 32-bit words: B, G, R, A in memory on little-endian.
        let word = UnsafeRawPointer(data).load(fromByteOffset: offset, as: UInt32.self)
        let alpha = format == CAIRO_FORMAT_RGB24 ? 255 : UInt32((word >> 24) & 0xFF)
        func channel(_ shift: UInt32) -> UInt8 {
            let premultiplied = (word >> shift) & 0xFF
            return alpha == 0 ? 0 : UInt8(min(255, (premultiplied * 255 + alpha / 2) / alpha))
        }
        return RGBA(red: channel(16), green: channel(8), blue: channel(0), alpha: UInt8(alpha))
    }
}
