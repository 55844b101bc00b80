import PassLint
import PassModel
import Testing

@Suite("WCAG contrast and the nearest passing colour")
struct ContrastTests {
    let white = Color(red: 255, green: 255, blue: 255)

    @Test("published WCAG examples: black on white 21:1, #777777 fails 4.5, #767676 passes")
    func publishedExamples() throws {
        #expect(abs(Contrast.ratio(Color(red: 0, green: 0, blue: 0), white) - 21) < 0.001)
        let grey77 = try #require(Color("#777777"))
        let grey76 = try #require(Color("#767676"))
        #expect(abs(Contrast.ratio(grey77, white) - 4.48) < 0.01)
        #expect(Contrast.ratio(grey77, white) < Contrast.minimumRatio)
        #expect(abs(Contrast.ratio(grey76, white) - 4.54) < 0.01)
        #expect(Contrast.ratio(grey76, white) >= Contrast.minimumRatio)
        #expect(Contrast.ratio(white, grey76) == Contrast.ratio(grey76, white))
    }

    @Test("#777777 on white becomes #767676: the smallest step that passes")
    func nearestGrey() throws {
        let fixed = Contrast.nearestPassing(try #require(Color("#777777")), on: white)
        #expect(fixed == Color(red: 118, green: 118, blue: 118))
    }

    @Test("a passing colour is kept as it is")
    func passingKept() {
        let colour = Color(red: 20, green: 30, blue: 40)
        #expect(Contrast.nearestPassing(colour, on: white) == colour)
    }

    @Test("the fix passes, keeps the hue, and moves away from the background's lightness",
          arguments: [
              (Color(red: 255, green: 150, blue: 200), Color(red: 255, green: 255, blue: 255)),
              (Color(red: 60, green: 90, blue: 80), Color(red: 22, green: 61, blue: 48)),
              (Color(red: 200, green: 40, blue: 40), Color(red: 120, green: 20, blue: 20)),
          ])
    func hueKept(_ text: Color, _ background: Color) {
        let fixed = Contrast.nearestPassing(text, on: background)
        #expect(Contrast.ratio(fixed, background) >= Contrast.minimumRatio)
        #expect(abs(hue(fixed) - hue(text)) < 4)
        // Dark text on a light background gets darker, light text on a dark one lighter.
        let darker = Contrast.luminance(fixed) < Contrast.luminance(text)
        #expect(darker == (Contrast.luminance(background) > Contrast.luminance(text)))
    }

    private func hue(_ colour: Color) -> Double {
        let r = Double(colour.red), g = Double(colour.green), b = Double(colour.blue)
        let high = max(r, g, b), low = min(r, g, b)
        guard high > low else { return 0 }
        var h: Double
        switch high {
        case r: h = 60 * ((g - b) / (high - low))
        case g: h = 60 * ((b - r) / (high - low) + 2)
        default: h = 60 * ((r - g) / (high - low) + 4)
        }
        if h < 0 { h += 360 }
        return h
    }
}
