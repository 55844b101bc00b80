import Foundation
internal import CVips

/// Writes pixels drawn elsewhere (a preview's canvas) as PNG, through libvips: Cairo's own PNG writer
/// has no speed setting and spends most of a preview's time in libpng's adaptive filters.
public enum PNGEncoder {
    /// `rgba` holds `width` × `height` pixels, 4 bytes each, straight alpha, rows top to bottom.
    public static func encode(rgba: Data, width: Int, height: Int) throws -> Data {
        precondition(rgba.count == width * height * 4, "RGBA buffer of \(rgba.count) bytes for \(width) × \(height)")
        VipsGate.begin()
        return try rgba.withUnsafeBytes { bytes in
            guard let wrapped = passwright_vips_from_rgba(bytes.baseAddress, bytes.count, Int32(width), Int32(height)) else {
                throw ImageProcessingError.processing(operation: "new_from_memory", details: VipsGate.drainErrors())
            }
            let image = VipsImageObject(takingOwnershipOf: wrapped)
            return Data(try image.png(fast: true))
        }
    }
}
