import Drawing
import PassModel

/// The front of each layout.
extension PreviewPainter {
    func front(_ kind: CardKind) {
        let size = kind.size
        let card = Rect(x: 0, y: 0, width: size.width, height: size.height)
        canvas.clipped(to: card, cornerRadius: 12) {
            canvas.fill(card, color: palette.background)
            let fields = pass.style.flatMap { pass[$0] } ?? PassFields()
            if kind == .posterEventTicket {
                poster(fields, size: size)
                return
            }
            if kind == .eventTicket, images.has("background") {
                image("background", in: card, mode: .fill, blurred: true)
            }
            let headerBottom = header(fields: fields.headerFields, width: size.width)
            let barcodeTop = barcode(bottom: size.height - Self.margin, width: size.width)
            let limit = barcodeTop - 8
            var rows = RowStack(top: headerBottom + 8, limit: limit)
            switch kind {
            case .storeCard, .coupon, .eventTicketStrip:
                strip(fields.primaryFields.prefix(1), kind: kind, top: headerBottom + 8, width: size.width)
                rows.top = headerBottom + 8 + kind.stripHeight + 10
                if kind == .eventTicketStrip {
                    rowsOfEventTicket(fields, in: &rows, width: size.width)
                } else {
                    // Store cards and coupons: secondary and auxiliary fields share one row of four.
                    let shared = Array((fields.secondaryFields + fields.auxiliaryFields).prefix(4))
                    place(shared, group: "secondary", in: &rows, width: size.width)
                }
            case .eventTicket, .generic:
                let thumbnail = images.has("thumbnail")
                let primaryWidth = size.width - 2 * Self.margin - (thumbnail ? 90 + 12 : 0)
                if thumbnail {
                    image("thumbnail", in: Rect(x: size.width - Self.margin - 90, y: rows.top, width: 90, height: 90), mode: .fit(centred: true))
                }
                if let primary = fields.primaryFields.first {
                    let height = field(primary, group: "primary", in: Rect(x: Self.margin, y: rows.top, width: primaryWidth, height: 0), fonts: .primary)
                    rows.top += max(height, thumbnail ? 90 : 0) + 10
                } else if thumbnail {
                    rows.top += 100
                }
                if kind == .eventTicket {
                    rowsOfEventTicket(fields, in: &rows, width: size.width)
                } else if let barcode = shownBarcode, [.qr, .aztec].contains(barcode.format) {
                    place(Array((fields.secondaryFields + fields.auxiliaryFields).prefix(4)), group: "secondary", in: &rows, width: size.width)
                } else {
                    place(Array(fields.secondaryFields.prefix(4)), group: "secondary", in: &rows, width: size.width)
                    place(Array(fields.auxiliaryFields.prefix(4)), group: "auxiliary", in: &rows, width: size.width)
                }
            case .boardingPass:
                boardingPrimary(Array(fields.primaryFields.prefix(2)), transit: fields.transitType, in: &rows, width: size.width)
                // Boarding passes draw the auxiliary row above the secondary row.
                place(Array(fields.auxiliaryFields.prefix(5)), group: "auxiliary", in: &rows, width: size.width)
                place(Array(fields.secondaryFields.prefix(4)), group: "secondary", in: &rows, width: size.width)
                if let natural = images.pointSize(of: "footer") {
                    let footerSize = Size(width: min(286, natural.width), height: min(15, natural.height))
                    let rect = Rect(x: (size.width - footerSize.width) / 2, y: barcodeTop - 8 - footerSize.height, width: footerSize.width, height: footerSize.height)
                    image("footer", in: rect, mode: .fit(centred: true))
                }
            case .posterEventTicket:
                break
            }
        }
    }

    /// The rows below the primary field, top down, until the barcode.
    struct RowStack {
        var top: Double
        let limit: Double
    }

    /// Places one row if it fits above the barcode; a row that does not fit is not shown (Wallet
    /// drops what has no room).
    func place(_ fields: [Field], group: String, in rows: inout RowStack, width: Double) {
        guard !fields.isEmpty else { return }
        let height = fieldHeight(.row)
        guard rows.top + height <= rows.limit else { return }
        row(fields, group: group, in: Rect(x: Self.margin, y: rows.top, width: width - 2 * Self.margin, height: height))
        rows.top += height + 10
    }

    /// Event tickets: secondary, auxiliary, and the second auxiliary row (`row: 1`).
    private func rowsOfEventTicket(_ fields: PassFields, in rows: inout RowStack, width: Double) {
        place(Array(fields.secondaryFields.prefix(4)), group: "secondary", in: &rows, width: width)
        place(Array(fields.auxiliaryFields.filter { ($0.row ?? 0) == 0 }.prefix(4)), group: "auxiliary", in: &rows, width: width)
        place(Array(fields.auxiliaryFields.filter { $0.row == 1 }.prefix(4)), group: "auxiliary", in: &rows, width: width)
    }

    /// The strip image across the card with the primary field over it.
    private func strip(_ primary: ArraySlice<Field>, kind: CardKind, top: Double, width: Double) {
        let area = Rect(x: 0, y: top, width: width, height: kind.stripHeight)
        let hasStrip = image("strip", in: area, mode: .fill) != nil
        guard let field = primary.first else { return }
        let fonts = FieldFonts.primaryOverStrip
        let height = fieldHeight(fonts)
        self.field(field, group: "primary", in: Rect(x: Self.margin, y: area.y + max(8, (area.height - height) / 2), width: width - 2 * Self.margin, height: height),
                   fonts: fonts, valueColor: hasStrip ? palette.strip : palette.foreground)
    }

    /// Origin and destination with the transit glyph between them.
    private func boardingPrimary(_ fields: [Field], transit: TransitType?, in rows: inout RowStack, width: Double) {
        guard !fields.isEmpty else { return }
        let fonts = FieldFonts.boardingPrimary
        let height = fieldHeight(fonts)
        let columnWidth = (width - 2 * Self.margin - 60) / 2
        field(fields[0], group: "primary", in: Rect(x: Self.margin, y: rows.top, width: columnWidth, height: height), fonts: fonts, alignment: .left)
        if fields.count > 1 {
            field(fields[1], group: "primary", in: Rect(x: width - Self.margin - columnWidth, y: rows.top, width: columnWidth, height: height),
                  fonts: fonts, alignment: .right)
        }
        let glyph = Self.glyph(for: transit)
        let glyphStyle = TextStyle(size: 26, alignment: .centre)
        text(glyph, role: "primary.transitType", style: glyphStyle,
             in: Rect(x: width / 2 - 30, y: rows.top + height - lineHeight(glyphStyle) - 4, width: 60, height: lineHeight(glyphStyle)), color: palette.foreground)
        rows.top += height + 12
    }

    /// The symbol Wallet draws between origin and destination, from the fonts' symbol ranges.
    static func glyph(for transit: TransitType?) -> String {
        switch transit {
        case .air?: return "✈"
        case .boat?: return "⛴"
        case .bus?: return "⎓"
        case .train?: return "⇶"
        case .generic?, nil: return "→"
        }
    }

    /// The poster event ticket (iOS 18): artwork across the top with the event's name, date and
    /// venue over it, the logos in their corners, and the barcode below.
    private func poster(_ fields: PassFields, size: Size) {
        let art = Rect(x: 0, y: 0, width: size.width, height: 448)
        if image("artwork", in: art, mode: .fill) == nil { image("background", in: art, mode: .fill) }
        // A dark wash under the text keeps it readable on any artwork.
        canvas.fill(Rect(x: 0, y: art.maxY - 150, width: size.width, height: 150), color: RGBA.black.withOpacity(0.35))
        let margin = Self.margin
        if let natural = images.pointSize(of: "primaryLogo") {
            let factor = min(1, 126 / natural.width, 30 / natural.height)
            image("primaryLogo", in: Rect(x: margin, y: margin, width: natural.width * factor, height: natural.height * factor), mode: .fit(centred: false))
        } else if let logoText = strings(pass.eventLogoText ?? pass.logoText) {
            text(logoText, role: "logoText", style: TextStyle(size: 17, weight: .semibold), in: Rect(x: margin, y: margin, width: size.width - 2 * margin, height: 24),
                 color: palette.foreground)
        }
        let name = strings(pass.semantics?.eventName) ?? fields.primaryFields.first.map(value(of:)) ?? strings(pass.description)
        let details = (fields.secondaryFields.prefix(2).map(value(of:)) + [pass.semantics?.venueName].compactMap { strings($0) })
        let nameStyle = TextStyle(size: 28, weight: .bold, maximumLines: 2)
        let detailStyle = TextStyle(size: 15, weight: .medium)
        var y = art.maxY - 140
        let nameBox = text(name, role: "primary.eventName", style: nameStyle, in: Rect(x: margin, y: y, width: size.width - 2 * margin, height: 72), color: .white)
        y += nameBox.height + 6
        let uniqueDetails = details.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        if !uniqueDetails.isEmpty {
            text(uniqueDetails.joined(separator: " · "), role: "secondary.details", style: detailStyle,
                 in: Rect(x: margin, y: y, width: size.width - 2 * margin, height: 20), color: .white)
        }
        if let natural = images.pointSize(of: "secondaryLogo") {
            let factor = min(1, 135 / natural.width, 12 / natural.height)
            let logoSize = Size(width: natural.width * factor, height: natural.height * factor)
            image("secondaryLogo", in: Rect(x: size.width - margin - logoSize.width, y: art.maxY - margin - logoSize.height, width: logoSize.width, height: logoSize.height),
                  mode: .fit(centred: true))
        }
        let below = Rect(x: 0, y: art.maxY, width: size.width, height: size.height - art.maxY)
        if let footer = pass.footerBackgroundColor { canvas.fill(below, color: Palette.rgba(footer)) }
        var rows = RowStack(top: art.maxY + 10, limit: barcode(bottom: size.height - margin, width: size.width) - 6)
        place(Array(fields.auxiliaryFields.prefix(4)), group: "auxiliary", in: &rows, width: size.width)
    }
}
