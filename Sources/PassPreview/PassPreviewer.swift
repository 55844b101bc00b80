import Drawing
import Foundation
import ImageProcessing
import PassModel

/// Draws a pass the way Wallet lays it out: front, back or both, at @1x–@3x, as PNG or SVG.
///
/// Safe to call from many tasks at once: each render has its own canvas and borrows its own font map.
public enum PassPreviewer {
    /// Space between the front and the back of a two-sided picture.
    static let gap = 24.0

    public static func render(_ contents: PassContents, options: PreviewOptions = PreviewOptions()) throws(PreviewError) -> RenderedPreview {
        guard PreviewOptions.scales.contains(options.scale) else {
            throw .invalidOption(name: "scale", message: "\(options.scale) is not an image scale Wallet uses; use 1, 2 or 3")
        }
        let strings = try PassStrings(files: contents.files, locale: options.locale)
        let formatter = FieldFormatter(locale: options.locale, timeZone: options.timeZone)
        let images = PassImages(files: contents.files, folder: strings.folder, scale: options.scale)
        let kind = CardKind.of(contents.pass, images: images)
        let front = kind.size
        do {
            let backHeight: Double
            if options.side != .front {
                // The back grows with its fields: measured on a scratch canvas first.
                let scratch = try Canvas(size: Size(width: PreviewPainter.backWidth, height: 1), scale: 1, format: .raster)
                backHeight = PreviewPainter(canvas: scratch, pass: contents.pass, strings: strings, formatter: formatter, images: images).back(height: nil)
            } else {
                backHeight = 0
            }
            let size: Size
            switch options.side {
            case .front: size = front
            case .back: size = Size(width: PreviewPainter.backWidth, height: backHeight)
            case .both: size = Size(width: front.width + gap + PreviewPainter.backWidth, height: max(front.height, backHeight))
            }
            let canvas = try Canvas(size: size, scale: Double(options.scale), format: options.format == .png ? .raster : .svg)
            let painter = PreviewPainter(canvas: canvas, pass: contents.pass, strings: strings, formatter: formatter, images: images)
            var cards: [Rect] = []
            if options.side != .back {
                painter.side = .front
                painter.front(kind)
                cards.append(Rect(x: 0, y: 0, width: front.width, height: front.height))
            }
            if options.side != .front {
                let origin = Point(x: options.side == .both ? front.width + gap : 0, y: 0)
                painter.side = .back
                painter.offset = origin
                canvas.translated(by: origin) { painter.back(height: backHeight) }
                cards.append(Rect(x: origin.x, y: 0, width: PreviewPainter.backWidth, height: backHeight))
            }
            let data: Data
            if options.format == .png {
                let pixels = try canvas.finishRaster()
                data = try PNGEncoder.encode(rgba: pixels.data, width: pixels.width, height: pixels.height)
            } else {
                data = try canvas.finishSVG()
            }
            return RenderedPreview(
                data: data, format: options.format,
                pixelWidth: Int((size.width * Double(options.scale)).rounded()), pixelHeight: Int((size.height * Double(options.scale)).rounded()),
                cards: cards, texts: painter.texts, barcode: painter.barcode, problems: images.problems + painter.problems, scale: options.scale)
        } catch {
            throw .drawing("\(error)")
        }
    }
}
