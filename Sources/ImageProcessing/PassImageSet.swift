import Foundation
import PassModel

/// One PNG made for a slot at one scale: `strip@2x.png` and its bytes.
public struct RenderedImage: Sendable {
    /// The file name Wallet looks for (`logo.png`, `logo@2x.png`, `logo@3x.png`).
    public let fileName: String
    /// The PNG bytes (sRGB).
    public let png: Data
    /// Pixel size.
    public let width: Int, height: Int
    /// Whether the PNG has an alpha channel.
    public let hasAlpha: Bool
    /// 1, 2 or 3.
    public let scale: Int
}

/// The `@1x`, `@2x` and `@3x` PNGs of one slot, made from one master at the sizes `ImageSpec` gives
/// (the sizes lint checks), in memory: the CLI writes them to a template folder, and a template
/// upload can call the same function on uploaded bytes.
public struct PassImageSet: Sendable {
    /// The three images, `@1x` first.
    public let images: [RenderedImage]
    /// Things worth fixing that did not stop the work (a master too small for `@3x`).
    public let warnings: [String]

    /// Wallet's three screen scales.
    public static let scales = [1, 2, 3]

    /// Makes `slot`'s images for a pass of `style` (`poster` for a poster event ticket).
    ///
    /// - Parameter fit: `nil` picks ``ImageFit/default(exact:)`` for the slot.
    public static func make(from master: MasterImage, slot: String, style: PassStyle?, poster: Bool = false, fit: ImageFit? = nil) throws -> PassImageSet {
        guard let spec = ImageSpec.forSlot(slot, style: style, poster: poster) else { throw ImageProcessingError.unknownSlot(slot) }
        let shown = ImageSpec.shownSlots(style: style, poster: poster)
        if let style, !shown.contains(slot) {
            throw ImageProcessingError.slotNotShown(slot: slot, style: style.key, shown: ImageSpec.slots.filter(shown.contains))
        }
        let fit = fit ?? .default(exact: spec.exact)
        let transparency = ImageSpec.allowsTransparency(slot)
        let images = try scales.map { scale in
            let box = spec.pixels(scale: scale)
            let pixels = try VipsRendering.render(master.data, width: box.width, height: box.height,
                                                  cover: fit == .cover, exact: spec.exact, transparency: transparency)
            return RenderedImage(fileName: ImageName(slot: slot, scale: scale).description, png: pixels.png,
                                 width: pixels.width, height: pixels.height, hasAlpha: pixels.hasAlpha, scale: scale)
        }
        return PassImageSet(images: images, warnings: sizeWarning(master, spec: spec, slot: slot, fit: fit).map { [$0] } ?? [])
    }

    /// A raster master smaller than what `@3x` draws is upscaled, and looks soft on Super Retina
    /// screens: say the size it should have (same shape, enough pixels).
    private static func sizeWarning(_ master: MasterImage, spec: ImageSpec, slot: String, fit: ImageFit) -> String? {
        guard !master.isVector, master.width > 0, master.height > 0 else { return nil }
        let box = spec.pixels(scale: 3)
        let ratios = [Double(box.width) / Double(master.width), Double(box.height) / Double(master.height)]
        let factor = fit == .cover ? ratios.max()! : ratios.min()!
        guard factor > 1 else { return nil }
        let wanted = "\(Int((Double(master.width) * factor).rounded(.up)))×\(Int((Double(master.height) * factor).rounded(.up))) px"
        return "\(master.source) is \(master.width)×\(master.height) px, smaller than \(ImageName(slot: slot, scale: 3)) "
            + "(\(spec.expected(scale: 3))) needs, so it was upscaled and looks soft; use a master of at least \(wanted)"
    }
}
