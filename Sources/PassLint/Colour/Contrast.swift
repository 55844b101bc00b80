import Foundation
import PassModel

/// WCAG 2 contrast (relative luminance of sRGB), and the nearest colour of the same hue that reaches
/// a ratio: the After a designer would hand back for text that is too faint.
public enum Contrast {
    /// WCAG AA for normal text; Wallet labels and values are small, so both need it.
    public static let minimumRatio = 4.5

    /// Relative luminance, 0 (black) to 1 (white), per WCAG 2.
    public static func luminance(_ colour: Color) -> Double {
        func linear(_ component: UInt8) -> Double {
            let c = Double(component) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(colour.red) + 0.7152 * linear(colour.green) + 0.0722 * linear(colour.blue)
    }

    /// The contrast ratio of two colours, 1 to 21, whichever is lighter.
    public static func ratio(_ a: Color, _ b: Color) -> Double {
        let (la, lb) = (luminance(a), luminance(b))
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    /// The colour closest to `text` in HSL lightness, with its hue and saturation, whose contrast on
    /// `background` is at least `minimum` — moving toward black or white, whichever needs the smaller
    /// change. Checked on the rounded 0–255 colour, so the answer really passes. `text` itself when it
    /// already passes.
    public static func nearestPassing(_ text: Color, on background: Color, minimum: Double = minimumRatio) -> Color {
        guard ratio(text, background) < minimum else { return text }
        let hsl = HSL(text)
        var best: (distance: Double, colour: Color)?
        for direction in [-1.0, 1.0] {
            for step in 1...1000 {
                let lightness = max(0, min(1, hsl.lightness + direction * Double(step) / 1000))
                let candidate = HSL(hue: hsl.hue, saturation: hsl.saturation, lightness: lightness).colour
                if ratio(candidate, background) >= minimum {
                    let distance = abs(lightness - hsl.lightness)
                    if best.map({ distance < $0.distance }) ?? true { best = (distance, candidate) }
                    break
                }
                if lightness == 0 || lightness == 1 { break }
            }
        }
        // Black or white reach 4.5:1 on any background; only a higher `minimum` can miss both.
        let black = Color(red: 0, green: 0, blue: 0), white = Color(red: 255, green: 255, blue: 255)
        return best?.colour ?? (ratio(black, background) > ratio(white, background) ? black : white)
    }
}

/// Hue (0–360), saturation and lightness (0–1): lightness can change while the hue stays.
struct HSL {
    var hue: Double
    var saturation: Double
    var lightness: Double

    init(hue: Double, saturation: Double, lightness: Double) {
        self.hue = hue
        self.saturation = saturation
        self.lightness = lightness
    }

    init(_ colour: Color) {
        let r = Double(colour.red) / 255, g = Double(colour.green) / 255, b = Double(colour.blue) / 255
        let high = max(r, g, b), low = min(r, g, b)
        lightness = (high + low) / 2
        let delta = high - low
        guard delta > 0 else {
            hue = 0
            saturation = 0
            return
        }
        saturation = delta / (1 - abs(2 * lightness - 1))
        switch high {
        case r: hue = 60 * ((g - b) / delta).truncatingRemainder(dividingBy: 6)
        case g: hue = 60 * ((b - r) / delta + 2)
        default: hue = 60 * ((r - g) / delta + 4)
        }
        if hue < 0 { hue += 360 }
    }

    var colour: Color {
        let chroma = (1 - abs(2 * lightness - 1)) * saturation
        let section = hue / 60
        let x = chroma * (1 - abs(section.truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double)
        switch section {
        case ..<1: (r, g, b) = (chroma, x, 0)
        case ..<2: (r, g, b) = (x, chroma, 0)
        case ..<3: (r, g, b) = (0, chroma, x)
        case ..<4: (r, g, b) = (0, x, chroma)
        case ..<5: (r, g, b) = (x, 0, chroma)
        default: (r, g, b) = (chroma, 0, x)
        }
        let m = lightness - chroma / 2
        func byte(_ value: Double) -> UInt8 { UInt8(max(0, min(255, ((value + m) * 255).rounded()))) }
        return Color(red: byte(r), green: byte(g), blue: byte(b))
    }
}
