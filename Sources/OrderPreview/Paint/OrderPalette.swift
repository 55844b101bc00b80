import Drawing

/// The colours of Wallet's order detail screen, light or dark (iOS's grouped background, cards and
/// label colours; system green, orange and red for progress, trouble and cancellation).
struct OrderPalette {
    let background: RGBA
    let card: RGBA
    let primary: RGBA
    let secondary: RGBA
    let separator: RGBA
    let track: RGBA
    let progress = RGBA(red: 52, green: 199, blue: 89)
    let trouble = RGBA(red: 255, green: 149, blue: 0)
    let cancelled = RGBA(red: 255, green: 59, blue: 48)
    let placeholder: RGBA

    init(dark: Bool) {
        if dark {
            background = RGBA(red: 0, green: 0, blue: 0)
            card = RGBA(red: 28, green: 28, blue: 30)
            primary = .white
            secondary = RGBA(red: 152, green: 152, blue: 159)
            separator = RGBA(red: 56, green: 56, blue: 58)
            track = RGBA(red: 58, green: 58, blue: 60)
            placeholder = RGBA(red: 44, green: 44, blue: 46)
        } else {
            background = RGBA(red: 242, green: 242, blue: 247)
            card = .white
            primary = .black
            secondary = RGBA(red: 108, green: 108, blue: 112)
            separator = RGBA(red: 198, green: 198, blue: 200)
            track = RGBA(red: 229, green: 229, blue: 234)
            placeholder = RGBA(red: 229, green: 229, blue: 234)
        }
    }
}
