internal import CVips

/// Owns one libvips image (a GObject reference), released in `deinit`.
///
/// Used on one thread at a time within one render; never shared, so no `Sendable` claim.
final class VipsImageObject {
    let pointer: UnsafeMutablePointer<VipsImage>

    /// Adopts an image whose reference the caller hands over (the `out` of a libvips operation).
    init(takingOwnershipOf pointer: UnsafeMutablePointer<VipsImage>) {
        self.pointer = pointer
    }

    deinit {
        passwright_vips_unref(pointer)
    }

    var width: Int { Int(vips_image_get_width(pointer)) }
    var height: Int { Int(vips_image_get_height(pointer)) }
    var hasAlpha: Bool { vips_image_hasalpha(pointer) != 0 }

    /// Runs a libvips operation that writes a new image to `out`, through the gate.
    func applying(_ operation: String, _ call: (UnsafeMutablePointer<VipsImage>, UnsafeMutablePointer<UnsafeMutablePointer<VipsImage>?>) -> Int32) throws -> VipsImageObject {
        var out: UnsafeMutablePointer<VipsImage>?
        return try VipsGate.adopt(operation, code: call(pointer, &out), out)
    }

    /// The image encoded as PNG (metadata stripped: Wallet reads none of it).
    func png(fast: Bool = false) throws -> [UInt8] {
        VipsGate.begin()
        var bytes: UnsafeMutableRawPointer?
        var length = 0
        let code = fast ? passwright_vips_png_buffer_fast(pointer, &bytes, &length) : passwright_vips_png_buffer(pointer, &bytes, &length)
        try VipsGate.check("pngsave_buffer", code)
        guard let bytes else { throw ImageProcessingError.processing(operation: "pngsave_buffer", details: "no bytes written") }
        defer { passwright_g_free(bytes) }
        return Array(UnsafeRawBufferPointer(start: bytes, count: length))
    }
}
