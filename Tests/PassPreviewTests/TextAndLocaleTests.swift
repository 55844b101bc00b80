import Drawing
import Foundation
import PassCompiler
import PassModel
import PassPreview
import PasswrightTesting
import Testing

/// Languages, scripts, formats and text that does not fit.
@Suite struct TextAndLocaleTests {
    @Test func germanLabelsAndNumbers() throws {
        let english = try PassPreviewer.render(try SampleTemplateTests.contents("loyalty"), options: PreviewOptions(side: .both, locale: "en"))
        let german = try PassPreviewer.render(try SampleTemplateTests.contents("loyalty"), options: PreviewOptions(side: .both, locale: "de"))
        func text(_ preview: RenderedPreview, _ role: String) -> String? { preview.texts.first { $0.role == role }?.text }
        #expect(text(english, "primary.points.label") == "Points")
        #expect(text(german, "primary.points.label") == "Punkte")
        #expect(text(english, "primary.points.value") == "1,280")
        #expect(text(german, "primary.points.value") == "1.280", "German groups thousands with a dot")
        #expect(text(german, "back.howItWorks.label") == "So funktioniert’s")
        #expect(text(german, "back.title") == "Bean & Leaf Prämienkarte")
        // Austrian German falls back to de.lproj; a language the pass lacks falls back to en.lproj.
        let austrian = try PassPreviewer.render(try SampleTemplateTests.contents("loyalty"), options: PreviewOptions(locale: "de-AT"))
        #expect(text(austrian, "primary.points.label") == "Punkte")
        let swedish = try PassPreviewer.render(try SampleTemplateTests.contents("loyalty"), options: PreviewOptions(locale: "sv"))
        #expect(text(swedish, "primary.points.label") == "Points")
    }

    @Test func datesFollowStylesAndLocale() throws {
        let field = { (dateStyle: String, timeStyle: String, extra: String) in
            #"{"key": "when", "label": "When", "value": "2027-06-21T18:30:00+02:00", "dateStyle": "\#(dateStyle)", "timeStyle": "\#(timeStyle)"\#(extra)}"#
        }
        func value(_ fieldJSON: String, locale: String, timeZone: TimeZone? = nil) throws -> String {
            let contents = try PreviewFixtures.pass(style: "generic", fields: #""secondaryFields": [\#(fieldJSON)]"#)
            let preview = try PassPreviewer.render(contents, options: PreviewOptions(locale: locale, timeZone: timeZone))
            return try #require(preview.texts.first { $0.role == "secondary.when.value" }).text
        }
        #expect(try value(field("PKDateStyleMedium", "PKDateStyleShort", ""), locale: "en").contains("Jun 21, 2027"))
        #expect(try value(field("PKDateStyleMedium", "PKDateStyleShort", ""), locale: "en").contains("6:30"), "shown in its own offset")
        #expect(try value(field("PKDateStyleLong", "PKDateStyleNone", ""), locale: "de") == "21. Juni 2027")
        #expect(try value(field("PKDateStyleNone", "PKDateStyleShort", ""), locale: "de") == "18:30")
        // In the holder's zone unless ignoresTimeZone.
        let utc = TimeZone(identifier: "UTC")!
        #expect(try value(field("PKDateStyleNone", "PKDateStyleShort", ""), locale: "de", timeZone: utc) == "16:30")
        #expect(try value(field("PKDateStyleNone", "PKDateStyleShort", #", "ignoresTimeZone": true"#), locale: "de", timeZone: utc) == "18:30")
    }

    @Test func numberStylesAndCurrency() throws {
        func value(_ extra: String, locale: String) throws -> String {
            let contents = try PreviewFixtures.pass(style: "generic", fields: #""secondaryFields": [{"key": "n", "label": "N", "value": 1234.5\#(extra)}]"#)
            return try #require(try PassPreviewer.render(contents, options: PreviewOptions(locale: locale)).texts.first { $0.role == "secondary.n.value" }).text
        }
        #expect(try value(#", "currencyCode": "EUR""#, locale: "de").contains("1.234,50"))
        #expect(try value(#", "currencyCode": "EUR""#, locale: "de").contains("€"))
        #expect(try value(#", "currencyCode": "USD""#, locale: "en") == "$1,234.50")
        #expect(try value(#", "numberStyle": "PKNumberStyleDecimal""#, locale: "fr").contains("234,5"))
        #expect(try value("", locale: "de") == "1234.5", "no style: the number as written")
    }

    @Test(arguments: [
        ("Arabic", "مرحبا بكم في المتجر"), ("Hebrew", "ברוכים הבאים לחנות"), ("Japanese", "会員番号と東京駅"),
        ("Chinese", "欢迎光临本店"), ("Korean", "환영합니다"),
    ])
    func scriptsHaveRealGlyphs(_ script: String, _ text: String) throws {
        let contents = try PreviewFixtures.pass(style: "storeCard", fields: #""secondaryFields": [{"key": "name", "label": "\#(text)", "value": "\#(text)"}], "backFields": [{"key": "b", "label": "\#(text)", "value": "\#(text)"}]"#)
        let preview = try PassPreviewer.render(contents, options: PreviewOptions(side: .both))
        let drawn = preview.texts.filter { $0.text == text }
        #expect(drawn.count == 4, "\(script): label and value on both sides")
        for box in drawn { #expect(box.unknownGlyphs == 0, "\(script): \(box.role) drawn with boxes") }
        // Right-to-left text in a natural-aligned column hugs the column's right edge.
        if script == "Arabic" || script == "Hebrew", let value = drawn.first(where: { $0.role == "secondary.name.value" }) {
            #expect(abs(value.rect.maxX - value.bounds.maxX) < 1, "\(script) is set from the right")
        }
    }

    @Test func longValueIsCutWithAnEllipsisNotDrawnOverItsNeighbour() throws {
        let long = String(repeating: "Wonderfully long member name ", count: 4)
        let contents = try PreviewFixtures.pass(style: "storeCard", fields: #""secondaryFields": [{"key": "a", "label": "Member", "value": "\#(long)"}, {"key": "b", "label": "Level", "value": "Gold"}]"#)
        let preview = try PassPreviewer.render(contents)
        let first = try #require(preview.texts.first { $0.role == "secondary.a.value" })
        let second = try #require(preview.texts.first { $0.role == "secondary.b.value" })
        #expect(first.isEllipsized)
        #expect(first.rect.maxX < second.rect.x, "the cut value ends before its neighbour starts")
        #expect(!second.isEllipsized && second.text == "Gold", "the short field stays whole")
    }

    @Test func backListsEveryBackFieldInOrderWithLinks() throws {
        let contents = try PreviewFixtures.pass(style: "generic", fields: #"""
            "backFields": [
              {"key": "one", "label": "Terms", "value": "Read them at https://example.com/terms today."},
              {"key": "two", "label": "Call", "value": "+49 30 1234567"},
              {"key": "three", "label": "Site", "value": "x", "attributedValue": "<a href='https://example.com'>Our site</a>"},
              {"key": "four", "label": "Plain", "value": "https://example.com/not-a-link", "dataDetectorTypes": []}
            ]
            """#)
        let preview = try PassPreviewer.render(contents, options: PreviewOptions(side: .back))
        let values = preview.texts.filter { $0.role.hasPrefix("back.") && $0.role.hasSuffix(".value") }
        #expect(values.map(\.role) == ["back.one.value", "back.two.value", "back.three.value", "back.four.value"])
        #expect(values.map(\.rect.y) == values.map(\.rect.y).sorted(), "top to bottom in order")
        #expect(values[2].text == "Our site", "an attributedValue shows its link text")
        // The link is drawn in link blue: sample inside the link's text box at @2x.
        let bitmap = try Bitmap(png: preview.data, source: "back")
        func hasLinkBlue(_ rect: Rect) -> Bool {
            for y in stride(from: Int(rect.y * 2), to: Int(rect.maxY * 2), by: 1) {
                for x in stride(from: Int(rect.x * 2), to: Int(rect.maxX * 2), by: 1) {
                    if let pixel = bitmap.pixel(x: x, y: y), pixel.blue > 200, pixel.red < 80 { return true }
                }
            }
            return false
        }
        #expect(hasLinkBlue(values[0].rect), "a detected link is blue")
        #expect(hasLinkBlue(values[1].rect), "a phone number is blue")
        #expect(hasLinkBlue(values[2].rect), "an anchor is blue")
        #expect(!hasLinkBlue(values[3].rect), "dataDetectorTypes [] turns detection off")
    }
}
