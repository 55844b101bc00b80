import Foundation
internal import CVips

/// The libvips calls behind `MasterImage` and `PassImageSet`: probing a master and rendering it at one size.
enum VipsRendering {
    /// The libvips loader that recognises `data` (`jpegload_buffer`, `svgload_buffer`, …), or `nil`.
    static func loader(of data: Data) -> String? {
        VipsGate.begin()
        let name = data.withUnsafeBytes { vips_foreign_find_load_buffer($0.baseAddress, $0.count) }
        VipsGate.begin() // "not a known format" is an answer here, not an error to carry along
        return name.map { String(cString: $0) }
    }

    /// Width, height and alpha of `data`, from its header (no pixels decoded).
    static func header(of data: Data, source: String) throws -> (width: Int, height: Int, hasAlpha: Bool) {
        VipsGate.begin()
        // libvips reads the buffer in place, lazily: the image must not outlive the borrowed bytes.
        return try data.withUnsafeBytes { bytes in
            guard let opened = passwright_vips_open_buffer(bytes.baseAddress, bytes.count) else {
                throw ImageProcessingError.unreadable(source: source, details: VipsGate.drainErrors())
            }
            let image = VipsImageObject(takingOwnershipOf: opened)
            return (image.width, image.height, image.hasAlpha)
        }
    }

    /// `data` decoded, in sRGB, resized into (`cover`: cropped to) `width`×`height`, flattened on white
    /// unless `transparency`, and centred on an exactly `width`×`height` canvas when `exact`; as PNG.
    static func render(_ data: Data, width: Int, height: Int, cover: Bool, exact: Bool, transparency: Bool) throws -> RenderedPixels {
        VipsGate.begin()
        // The pipeline is lazy and reads the master in place: it runs (at pngsave) inside the borrow.
        return try data.withUnsafeBytes { bytes in
            var out: UnsafeMutablePointer<VipsImage>?
            let code = passwright_vips_thumbnail_buffer(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count, &out,
                                                        Int32(width), Int32(height), cover ? 1 : 0)
            var image = try VipsGate.adopt("thumbnail_buffer", code: code, out)
            image = try image.applying("colourspace sRGB") { passwright_vips_to_srgb($0, $1) }
            if image.hasAlpha, !transparency {
                image = try image.applying("flatten") { passwright_vips_flatten_white($0, $1) }
            }
            if exact, image.width != width || image.height != height {
                if transparency, !image.hasAlpha {
                    image = try image.applying("addalpha") { passwright_vips_add_alpha($0, $1) }
                }
                image = try image.applying("gravity") { passwright_vips_centre_on_canvas($0, $1, Int32(width), Int32(height)) }
            }
            return RenderedPixels(png: Data(try image.png()), width: image.width, height: image.height, hasAlpha: image.hasAlpha)
        }
    }
}

/// One rendered image before it is named for a slot and scale.
struct RenderedPixels {
    let png: Data
    let width: Int
    let height: Int
    let hasAlpha: Bool
}
