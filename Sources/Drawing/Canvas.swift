import Foundation
internal import CPangoCairo

/// What a canvas becomes: pixels (to be written as PNG by the caller) or an SVG document.
public enum CanvasFormat: String, Sendable, Hashable, CaseIterable {
    case raster, svg
}

/// One picture being drawn: shapes, images and text in points, scaled to pixels for PNG.
///
/// Not `Sendable`: a canvas is drawn by one task from start to ``finish()``.
public final class Canvas {
    /// The picture's size in points.
    public let size: Size
    /// Pixels per point (1, 2 or 3, as Wallet's image scales).
    public let scale: Double
    public let format: CanvasFormat

    private let surface: OpaquePointer
    private let context: OpaquePointer
    private let fontMap: FontMaps.Map
    private let pangoContext: OpaquePointer
    private let sink = ByteSink()
    private var finished = false

    /// A transparent canvas of `size` points at `scale`.
    public init(size: Size, scale: Double, format: CanvasFormat) throws(DrawingError) {
        guard size.width >= 1, size.height >= 1, size.width * scale <= 16_384, size.height * scale <= 16_384, scale > 0 else {
            throw .cairo(operation: "create a canvas", status: "\(size.width) × \(size.height) pt at @\(scale)x is outside 1…16384 pixels a side")
        }
        self.size = size
        self.scale = scale
        self.format = format
        switch format {
        case .raster:
            surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32((size.width * scale).rounded()), Int32((size.height * scale).rounded()))
        case .svg:
            surface = sink.withCallback { closure, write in
                cairo_svg_surface_create_for_stream(write, closure, size.width * scale, size.height * scale)
            }
        }
        context = cairo_create(surface)
        cairo_scale(context, scale, scale)
        fontMap = FontMaps.shared.borrow()
        pangoContext = pango_font_map_create_context(fontMap.pointer)!
        // Unhinted metrics: text measures the same at every scale, so @1x, @2x and @3x lay out alike.
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        pango_cairo_context_set_font_options(pangoContext, options)
        cairo_font_options_destroy(options)
        pango_cairo_update_context(context, pangoContext)
        do {
            try CairoGate.check("create a canvas", cairo_status(context))
        } catch {
            release()
            throw error
        }
    }

    deinit { release() }

    private func release() {
        guard !finished else { return }
        finished = true
        passwright_g_object_unref(UnsafeMutableRawPointer(pangoContext))
        FontMaps.shared.giveBack(fontMap)
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    // MARK: Shapes

    /// Fills `rect`, with rounded corners when `cornerRadius` > 0.
    public func fill(_ rect: Rect, color: RGBA, cornerRadius: Double = 0) {
        path(rect, cornerRadius: cornerRadius)
        setColor(color)
        cairo_fill(context)
    }

    /// Outlines `rect` with a line `lineWidth` points wide.
    public func stroke(_ rect: Rect, color: RGBA, lineWidth: Double, cornerRadius: Double = 0) {
        path(rect, cornerRadius: cornerRadius)
        setColor(color)
        cairo_set_line_width(context, lineWidth)
        cairo_stroke(context)
    }

    /// A straight line.
    public func line(from start: Point, to end: Point, color: RGBA, lineWidth: Double, dashed: Bool = false) {
        cairo_move_to(context, start.x, start.y)
        cairo_line_to(context, end.x, end.y)
        setColor(color)
        cairo_set_line_width(context, lineWidth)
        if dashed {
            var pattern: [Double] = [lineWidth * 3, lineWidth * 3]
            cairo_set_dash(context, &pattern, 2, 0)
        }
        cairo_stroke(context)
        cairo_set_dash(context, nil, 0, 0)
    }

    /// Fills many rectangles at once without anti-aliasing: barcode modules, which must stay sharp.
    public func fillCrisp(_ rects: [Rect], color: RGBA) {
        cairo_save(context)
        cairo_set_antialias(context, CAIRO_ANTIALIAS_NONE)
        for rect in rects { cairo_rectangle(context, rect.x, rect.y, rect.width, rect.height) }
        setColor(color)
        cairo_fill(context)
        cairo_restore(context)
    }

    /// Draws inside `rect` only (rounded when `cornerRadius` > 0) while `body` runs.
    public func clipped(to rect: Rect, cornerRadius: Double = 0, _ body: () throws -> Void) rethrows {
        cairo_save(context)
        path(rect, cornerRadius: cornerRadius)
        cairo_clip(context)
        defer { cairo_restore(context) }
        try body()
    }

    /// Draws with the origin moved by `offset` while `body` runs (one side of a two-sided picture).
    public func translated(by offset: Point, _ body: () throws -> Void) rethrows {
        cairo_save(context)
        cairo_translate(context, offset.x, offset.y)
        defer { cairo_restore(context) }
        try body()
    }

    // MARK: Images

    /// Draws `bitmap` into `rect`; `blurred` draws it as Wallet draws an event ticket's background.
    /// Returns the rectangle the image covers (inside `rect` for `.fit`).
    @discardableResult
    public func draw(_ bitmap: Bitmap, in rect: Rect, mode: ImageMode, blurred: Bool = false) -> Rect {
        let width = Double(bitmap.pixelWidth), height = Double(bitmap.pixelHeight)
        let factor: Double
        switch mode {
        case .fit: factor = min(rect.width / width, rect.height / height)
        case .fill: factor = max(rect.width / width, rect.height / height)
        }
        let drawn = Size(width: width * factor, height: height * factor)
        var origin = Point(x: rect.x + (rect.width - drawn.width) / 2, y: rect.y + (rect.height - drawn.height) / 2)
        if case .fit(centred: false) = mode { origin.x = rect.x }
        cairo_save(context)
        cairo_rectangle(context, rect.x, rect.y, rect.width, rect.height)
        cairo_clip(context)
        if blurred {
            paintBlurred(bitmap, origin: origin, factor: factor)
        } else {
            cairo_translate(context, origin.x, origin.y)
            cairo_scale(context, factor, factor)
            cairo_set_source_surface(context, bitmap.surface, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(context), CAIRO_FILTER_GOOD)
            cairo_paint(context)
        }
        cairo_restore(context)
        return Rect(x: origin.x, y: origin.y, width: drawn.width, height: drawn.height)
    }

    /// Shrinks the image to a sixteenth and draws that back at full size with bilinear filtering: a
    /// soft blur for the price of two small paints.
    private func paintBlurred(_ bitmap: Bitmap, origin: Point, factor: Double) {
        let shrink = 16.0
        let smallWidth = max(1, Int32((Double(bitmap.pixelWidth) / shrink).rounded(.up)))
        let smallHeight = max(1, Int32((Double(bitmap.pixelHeight) / shrink).rounded(.up)))
        let small = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, smallWidth, smallHeight)
        let smallContext = cairo_create(small)
        cairo_scale(smallContext, 1 / shrink, 1 / shrink)
        cairo_set_source_surface(smallContext, bitmap.surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(smallContext), CAIRO_FILTER_GOOD)
        cairo_paint(smallContext)
        cairo_destroy(smallContext)
        cairo_translate(context, origin.x, origin.y)
        cairo_scale(context, factor * shrink, factor * shrink)
        cairo_set_source_surface(context, small, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(context), CAIRO_FILTER_BILINEAR)
        cairo_pattern_set_extend(cairo_get_source(context), CAIRO_EXTEND_PAD)
        cairo_paint(context)
        cairo_surface_destroy(small)
    }

    // MARK: Text

    /// Lays `text` out in `style`, wrapped and cut to `width` points (`nil`: one unbounded line).
    public func layout(_ text: String, style: TextStyle, width: Double?) -> TextBlock {
        layout([TextRun(text)], style: style, width: width)
    }

    /// Lays runs out as one paragraph; each run keeps its own colour and underline.
    public func layout(_ runs: [TextRun], style: TextStyle, width: Double?) -> TextBlock {
        let layout = pango_layout_new(pangoContext)!
        let text = runs.map(\.text).joined()
        pango_layout_set_text(layout, text, -1)
        let font = pango_font_description_new()
        pango_font_description_set_family(font, TextStyle.families)
        pango_font_description_set_absolute_size(font, style.size * Double(PANGO_SCALE))
        pango_font_description_set_weight(font, Self.weight(style.weight))
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        if let width {
            pango_layout_set_width(layout, Int32(max(1, width) * Double(PANGO_SCALE)))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
            if style.maximumLines > 0 { pango_layout_set_height(layout, -Int32(style.maximumLines)) }
        }
        if style.maximumLines == 1 { pango_layout_set_single_paragraph_mode(layout, 1) }
        switch style.alignment {
        case .natural: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
        case .left:
            pango_layout_set_auto_dir(layout, 0)
            pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
        case .centre: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        case .right:
            pango_layout_set_auto_dir(layout, 0)
            pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
        }
        if runs.contains(where: { $0.color != nil || $0.underlined }) { applyAttributes(runs, to: layout) }
        return TextBlock(takingOwnershipOf: layout, text: text)
    }

    private func applyAttributes(_ runs: [TextRun], to layout: OpaquePointer) {
        let attributes = pango_attr_list_new()
        var start = 0
        for run in runs {
            let end = start + run.text.utf8.count
            func add(_ attribute: UnsafeMutablePointer<PangoAttribute>) {
                attribute.pointee.start_index = UInt32(start)
                attribute.pointee.end_index = UInt32(end)
                pango_attr_list_insert(attributes, attribute)
            }
            if let color = run.color {
                add(pango_attr_foreground_new(UInt16(color.red) * 257, UInt16(color.green) * 257, UInt16(color.blue) * 257))
            }
            if run.underlined { add(pango_attr_underline_new(PANGO_UNDERLINE_SINGLE)) }
            start = end
        }
        pango_layout_set_attributes(layout, attributes)
        pango_attr_list_unref(attributes)
    }

    /// Draws a laid-out block with its box's top left at `origin`.
    public func draw(_ block: TextBlock, at origin: Point, color: RGBA) {
        cairo_move_to(context, origin.x, origin.y)
        setColor(color)
        pango_cairo_show_layout(context, block.layout)
    }

    // MARK: Output

    /// The finished raster picture as straight RGBA. The canvas cannot be drawn on afterwards.
    public func finishRaster() throws(DrawingError) -> RGBAPixels {
        precondition(!finished && format == .raster, "a raster canvas is finished once")
        cairo_surface_flush(surface)
        try CairoGate.check("draw", cairo_status(context))
        let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let source = UnsafeRawPointer(cairo_image_surface_get_data(surface)!)
        var rgba = Data(count: width * height * 4)
        rgba.withUnsafeMutableBytes { target in
            let out = target.baseAddress!.assumingMemoryBound(to: UInt8.self)
            for y in 0..<height {
                let row = source.advanced(by: y * stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<width {
                    // ARGB32 is a native-endian word with premultiplied colour: undo both.
                    let word = row[x]
                    let alpha = word >> 24
                    var red = (word >> 16) & 0xFF, green = (word >> 8) & 0xFF, blue = word & 0xFF
                    if alpha != 255, alpha != 0 {
                        red = (red * 255 + alpha / 2) / alpha
                        green = (green * 255 + alpha / 2) / alpha
                        blue = (blue * 255 + alpha / 2) / alpha
                    }
                    let offset = (y * width + x) * 4
                    out[offset] = UInt8(truncatingIfNeeded: red)
                    out[offset + 1] = UInt8(truncatingIfNeeded: green)
                    out[offset + 2] = UInt8(truncatingIfNeeded: blue)
                    out[offset + 3] = UInt8(truncatingIfNeeded: alpha)
                }
            }
        }
        release()
        return RGBAPixels(width: width, height: height, data: rgba)
    }

    /// The finished SVG document. The canvas cannot be drawn on afterwards.
    public func finishSVG() throws(DrawingError) -> Data {
        precondition(!finished && format == .svg, "an SVG canvas is finished once")
        cairo_surface_flush(surface)
        cairo_destroy(context)
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        finished = true
        passwright_g_object_unref(UnsafeMutableRawPointer(pangoContext))
        FontMaps.shared.giveBack(fontMap)
        cairo_surface_destroy(surface)
        try CairoGate.check("write the SVG", status)
        return sink.data
    }

    // MARK: Helpers

    private func setColor(_ color: RGBA) {
        cairo_set_source_rgba(context, Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255, Double(color.alpha) / 255)
    }

    private func path(_ rect: Rect, cornerRadius: Double) {
        let radius = min(cornerRadius, rect.width / 2, rect.height / 2)
        guard radius > 0 else {
            cairo_rectangle(context, rect.x, rect.y, rect.width, rect.height)
            return
        }
        cairo_new_sub_path(context)
        cairo_arc(context, rect.maxX - radius, rect.y + radius, radius, -.pi / 2, 0)
        cairo_arc(context, rect.maxX - radius, rect.maxY - radius, radius, 0, .pi / 2)
        cairo_arc(context, rect.x + radius, rect.maxY - radius, radius, .pi / 2, .pi)
        cairo_arc(context, rect.x + radius, rect.y + radius, radius, .pi, 3 * .pi / 2)
        cairo_close_path(context)
    }

    private static func weight(_ weight: TextStyle.Weight) -> PangoWeight {
        switch weight {
        case .light: return PANGO_WEIGHT_LIGHT
        case .regular: return PANGO_WEIGHT_NORMAL
        case .medium: return PANGO_WEIGHT_MEDIUM
        case .semibold: return PANGO_WEIGHT_SEMIBOLD
        case .bold: return PANGO_WEIGHT_BOLD
        }
    }
}
