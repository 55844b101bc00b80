import Drawing
import PassModel

/// The pass's colours, with Wallet's defaults for the ones `pass.json` leaves out.
struct Palette {
    let background: RGBA
    let foreground: RGBA
    let label: RGBA
    /// Primary values over a strip image (`stripColor`, else the foreground).
    let strip: RGBA
    /// The barcode plate: white, as Wallet draws it on every background.
    let plate = RGBA.white
    let plateInk = RGBA.black

    init(_ pass: Pass) {
        background = pass.backgroundColor.map(Self.rgba) ?? .white
        foreground = pass.foregroundColor.map(Self.rgba) ?? .black
        label = pass.labelColor.map(Self.rgba) ?? foreground
        strip = pass.stripColor.map(Self.rgba) ?? foreground
    }

    static func rgba(_ color: Color) -> RGBA { RGBA(red: color.red, green: color.green, blue: color.blue) }

    // The back is drawn as iOS draws the pass details sheet: grouped rows on a light background.
    static let backBackground = RGBA(red: 242, green: 242, blue: 247)
    static let backRow = RGBA.white
    static let backLabel = RGBA(red: 108, green: 108, blue: 112)
    static let backValue = RGBA(red: 0, green: 0, blue: 0)
    static let backSeparator = RGBA(red: 198, green: 198, blue: 200)
}
