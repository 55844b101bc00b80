import Drawing

/// The colours of the order screen, light or dark: iOS's grouped list (a grey page with rounded
/// groups on it) and its system colours. The light status colours are darker than iOS's, so
/// coloured status text keeps at least 4.5:1 on the page and on a group (as the console's text does).
struct OrderPalette {
    let background: RGBA
    let group: RGBA
    let label: RGBA
    let secondary: RGBA
    let separator: RGBA
    /// The unreached part of a step bar.
    let track: RGBA
    /// Behind an image that is missing or unreadable.
    let placeholder: RGBA
    private let accent: RGBA, green: RGBA, orange: RGBA, red: RGBA

    static let light = OrderPalette(
        background: RGBA(red: 242, green: 242, blue: 247), group: .white, label: .black,
        secondary: RGBA(red: 108, green: 108, blue: 112), separator: RGBA(red: 198, green: 198, blue: 200),
        track: RGBA(red: 229, green: 229, blue: 234), placeholder: RGBA(red: 229, green: 229, blue: 234),
        accent: RGBA(red: 0, green: 100, blue: 220), green: RGBA(red: 28, green: 120, blue: 50),
        orange: RGBA(red: 176, green: 80, blue: 0), red: RGBA(red: 215, green: 0, blue: 21))

    static let dark = OrderPalette(
        background: .black, group: RGBA(red: 28, green: 28, blue: 30), label: .white,
        secondary: RGBA(red: 152, green: 152, blue: 159), separator: RGBA(red: 56, green: 56, blue: 58),
        track: RGBA(red: 58, green: 58, blue: 60), placeholder: RGBA(red: 58, green: 58, blue: 60),
        accent: RGBA(red: 10, green: 132, blue: 255), green: RGBA(red: 48, green: 209, blue: 88),
        orange: RGBA(red: 255, green: 159, blue: 10), red: RGBA(red: 255, green: 69, blue: 58))

    /// `color` half blended into the group's colour: opaque, so a dot over the track does not
    /// darken where the two overlap, as a translucent colour would.
    func wash(_ color: RGBA) -> RGBA {
        func half(_ first: UInt8, _ second: UInt8) -> UInt8 { UInt8((Int(first) + Int(second)) / 2) }
        return RGBA(red: half(color.red, group.red), green: half(color.green, group.green), blue: half(color.blue, group.blue))
    }

    /// The colour of a status in `tone`.
    func color(_ tone: StatusTone) -> RGBA {
        switch tone {
        case .neutral: return label
        case .progress: return accent
        case .done: return green
        case .problem: return orange
        case .cancelled: return red
        }
    }
}
