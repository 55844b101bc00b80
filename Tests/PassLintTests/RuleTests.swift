import Foundation
@testable import PassLint
import PassCompiler
import PassModel
import Testing

/// One rule, a template that breaks it and one that keeps it.
struct RuleCase: Sendable, CustomStringConvertible {
    let rule: String
    var base: TemplateSpec = .storeCard
    /// Text the breaking finding's Before must quote (the template's real value).
    var quoted: String?
    let breaks: @Sendable (inout TemplateSpec) -> Void
    var keeps: @Sendable (inout TemplateSpec) -> Void = { _ in }

    var description: String { rule }
}

private let withStrings: @Sendable (inout TemplateSpec) -> Void = { spec in
    let keys = ["Example Coffee", "Example Coffee rewards card", "Tier", "Points", "You now have %@ points", "Member",
                "Member since", "Terms", "Points never expire.", "Your card is ready"]
    spec.strings = ["en": keys.map { ($0, $0) }, "de": keys.map { ($0, "de: " + $0) }]
}

let ruleCases: [RuleCase] = [
    RuleCase(rule: "fields.uniqueKeys", quoted: "\"key\": \"tier\"", breaks: { $0.set("storeCard.backFields[0].key", .string("tier")) }),
    RuleCase(rule: "pass.decoding", breaks: { $0.set("formatVersion", .string("1")) }),
    RuleCase(rule: "contrast.foreground", quoted: "\"foregroundColor\": \"rgb(40, 80, 64)\"",
             breaks: { $0.set("foregroundColor", .string("rgb(40, 80, 64)")) }),
    RuleCase(rule: "contrast.label", quoted: "\"labelColor\": \"rgb(60, 90, 80)\"",
             breaks: { $0.set("labelColor", .string("rgb(60, 90, 80)")) }),
    RuleCase(rule: "colour.hex", quoted: "\"backgroundColor\": \"#163D30\"",
             breaks: { $0.set("backgroundColor", .string("#163D30")) },
             keeps: { $0.set("backgroundColor", .string("rgb(22, 61, 48)")) }),
    RuleCase(rule: "colour.meaningAlone", quoted: "{{tier.colour}}", breaks: { spec in
        spec.set("backgroundColor", .string("{{tier.colour}}"))
        spec.set("storeCard.headerFields[0]", json: #"{"key": "card", "label": "Card", "value": "{{card}}"}"#)
    }, keeps: { $0.set("backgroundColor", .string("{{tier.colour}}")) }),
    RuleCase(rule: "glance.primaryLength", quoted: "Double Espresso Club Card", breaks: {
        $0.set("storeCard.primaryFields[0]", json: #"{"key": "club", "label": "Club", "value": "Double Espresso Club Card"}"#)
    }, keeps: { $0.set("storeCard.primaryFields[0]", json: #"{"key": "club", "label": "Club", "value": "Espresso"}"#) }),
    RuleCase(rule: "glance.secondaryCount", quoted: "4 secondaryFields", breaks: { spec in
        spec.set("storeCard.auxiliaryFields", nil)
        spec.set("storeCard.secondaryFields", json: #"[{"key": "a", "value": "{{a}}"}, {"key": "b", "value": "{{b}}"}, {"key": "c", "value": "{{c}}"}, {"key": "d", "value": "{{d}}"}]"#)
    }),
    RuleCase(rule: "glance.headerCount", quoted: "4 headerFields", breaks: {
        $0.set("storeCard.headerFields", json: #"[{"key": "tier", "label": "Tier", "value": "{{tier}}"}, {"key": "h1", "value": "{{h1}}"}, {"key": "h2", "value": "{{h2}}"}, {"key": "h3", "value": "{{h3}}"}]"#)
    }),
    RuleCase(rule: "glance.relevantTextLength", quoted: "Your Example Coffee rewards card is ready to scan at the counter",
             breaks: { $0.set("locations[0].relevantText", .string("Your Example Coffee rewards card is ready to scan at the counter")) }),
    RuleCase(rule: "description.copiesOrganization", quoted: "\"description\": \"Example Coffee\"",
             breaks: { $0.set("description", .string("Example Coffee")) }),
    RuleCase(rule: "description.tooShort", quoted: "\"description\": \"Card\"", breaks: { $0.set("description", .string("Card")) }),
    RuleCase(rule: "barcode.altText", breaks: { $0.set("barcodes[0].altText", nil) }),
    RuleCase(rule: "barcode.sameMessage", quoted: "\"message\": \"WELCOME10\"", breaks: { $0.set("barcodes[0].message", .string("WELCOME10")) }),
    RuleCase(rule: "locale.textDate", quoted: "June 15, 2026",
             breaks: { $0.set("storeCard.auxiliaryFields[0]", json: #"{"key": "since", "label": "Member since", "value": "June 15, 2026"}"#) },
             keeps: { $0.set("storeCard.auxiliaryFields[0]", json: #"{"key": "since", "label": "Member since", "value": "2026-06-15T00:00:00Z", "dateStyle": "PKDateStyleMedium"}"#) }),
    RuleCase(rule: "locale.textMoney", quoted: "$49.99",
             breaks: { $0.set("storeCard.auxiliaryFields[0]", json: #"{"key": "balance", "label": "Balance", "value": "$49.99"}"#) },
             keeps: { $0.set("storeCard.auxiliaryFields[0]", json: #"{"key": "balance", "label": "Balance", "value": 49.99, "currencyCode": "USD"}"#) }),
    RuleCase(rule: "locale.textAlignment", quoted: "PKTextAlignmentLeft",
             breaks: { $0.set("storeCard.auxiliaryFields[0].textAlignment", .string("PKTextAlignmentLeft")) },
             keeps: { $0.set("storeCard.auxiliaryFields[0].textAlignment", .string("PKTextAlignmentCenter")) }),
    RuleCase(rule: "localization.missingKey", quoted: "\"Terms\"", breaks: { spec in
        withStrings(&spec)
        spec.strings["de"]!.removeAll { $0.0 == "Terms" }
    }, keeps: withStrings),
    RuleCase(rule: "localization.untranslated", quoted: "\"value\": \"Points never expire.\"", breaks: { spec in
        withStrings(&spec)
        for language in ["en", "de"] { spec.strings[language]!.removeAll { $0.0 == "Points never expire." } }
    }, keeps: withStrings),
    RuleCase(rule: "lifecycle.noWebService", breaks: { $0.set("webServiceURL", nil) }),
    RuleCase(rule: "lifecycle.noExpiry", breaks: { spec in
        spec.set("coupon", spec.json.objectValue?["storeCard"])
        spec.set("storeCard", nil)
    }, keeps: { spec in
        spec.set("coupon", spec.json.objectValue?["storeCard"])
        spec.set("storeCard", nil)
        spec.set("expirationDate", .string("{{offer.expires}}"))
    }),
    RuleCase(rule: "lifecycle.locationText", breaks: { $0.set("locations[0].relevantText", nil) }),
    RuleCase(rule: "lifecycle.relevantDatePast", quoted: "2020-05-01T10:00:00Z",
             breaks: { $0.set("relevantDates", json: #"[{"date": "2020-05-01T10:00:00Z"}]"#) },
             keeps: { $0.set("relevantDates", json: #"[{"date": "2027-05-01T10:00:00Z"}]"#) }),
    RuleCase(rule: "lifecycle.expired", quoted: "2020-05-01T10:00:00Z",
             breaks: { $0.set("expirationDate", .string("2020-05-01T10:00:00Z")) },
             keeps: { $0.set("expirationDate", .string("2027-05-01T10:00:00Z")) }),
    RuleCase(rule: "lifecycle.changeMessageLength", quoted: "You have just collected more points and your balance is now %@",
             breaks: { $0.set("storeCard.primaryFields[0].changeMessage", .string("You have just collected more points and your balance is now %@")) }),
    RuleCase(rule: "field.changeMessage", quoted: "\"changeMessage\": \"Points updated\"",
             breaks: { $0.set("storeCard.primaryFields[0].changeMessage", .string("Points updated")) }),
    RuleCase(rule: "image.scales", breaks: { $0.images["logo@3x.png"] = nil }),
    RuleCase(rule: "image.size", quoted: "200×80 px", breaks: { spec in
        spec.images["logo.png"] = (200, 80)
        spec.images["logo@2x.png"] = (400, 160)
        spec.images["logo@3x.png"] = (600, 240)
    }),
    RuleCase(rule: "image.legacySize", quoted: "375×123 px", breaks: { spec in
        spec.images.merge(TemplateSpec.scaled(["strip": (375, 123)])) { $1 }
    }),
    RuleCase(rule: "image.unused", quoted: "thumbnail on storeCard", breaks: { spec in
        spec.images.merge(TemplateSpec.scaled(["thumbnail": (90, 90)])) { $1 }
    }),
    RuleCase(rule: "image.stripConflict", base: .posterTicket, quoted: "strip + background", breaks: { spec in
        spec.images.merge(TemplateSpec.scaled(["strip": (375, 144)])) { $1 }
    }),
    RuleCase(rule: "image.localizedOverride", breaks: { spec in
        withStrings(&spec)
        spec.images.merge(TemplateSpec.scaled(["de.lproj/logo": (150, 50)])) { $1 }
    }, keeps: withStrings),
    RuleCase(rule: "personalization.withoutNFC", breaks: { spec in
        spec.extraFiles["personalization.json"] = #"{"requiredPersonalizationFields": ["PKPassPersonalizationFieldName"], "description": "Join"}"#
    }),
    RuleCase(rule: "template.skippedFile", quoted: "notes.txt", breaks: { $0.extraFiles["notes.txt"] = "draft" }),
    RuleCase(rule: "poster.backgroundImage", base: .posterTicket, breaks: { spec in
        for scale in ["", "@2x", "@3x"] { spec.images["background\(scale).png"] = nil }
    }, keeps: { spec in
        for scale in ["", "@2x", "@3x"] { spec.images["background\(scale).png"] = nil }
        spec.images.merge(TemplateSpec.scaled(["artwork": (358, 448)])) { $1 }
    }),
    RuleCase(rule: "posterEventTicket.semantics", base: .posterTicket, breaks: { $0.set("semantics.venueName", nil) }),
    RuleCase(rule: "posterEventTicket.nfc", base: .posterTicket, breaks: { $0.set("nfc.requiresAuthentication", nil) }),
    RuleCase(rule: "poster.liveActivity", base: .posterTicket, breaks: { $0.set("relevantDates", nil) }),
    RuleCase(rule: "poster.recommendedSemantics", base: .posterTicket, breaks: { $0.set("semantics.venueRoom", nil) }),
    // As passkit-generator's models carry it: an app link with no app named.
    RuleCase(rule: "appLaunchURL.storeIdentifiers", quoted: "myapp://card", breaks: { $0.set("appLaunchURL", .string("myapp://card")) },
             keeps: { spec in
                 spec.set("appLaunchURL", .string("myapp://card"))
                 spec.set("associatedStoreIdentifiers", json: "[375380948]")
             }),
]

extension JSONValue {
    var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }
}

@Suite("Each rule: a template that breaks it, one that keeps it")
struct RuleTests {
    @Test("the base templates lint clean")
    func basesAreClean() throws {
        #expect(try TemplateSpec.storeCard.lint() == [])
        #expect(try TemplateSpec.posterTicket.lint() == [])
    }

    @Test(arguments: ruleCases)
    func ruleFiresOnlyWhenBroken(_ rule: RuleCase) throws {
        var broken = rule.base
        rule.breaks(&broken)
        let findings = try broken.lint().filter { $0.rule == rule.rule }
        let finding = try #require(findings.first, "\(rule.rule) did not fire")
        if let quoted = rule.quoted {
            #expect(finding.before.contains(quoted), "Before is \(finding.before)")
        }
        #expect(!finding.after.isEmpty && !finding.effect.isEmpty)

        var kept = rule.base
        rule.keeps(&kept)
        #expect(try kept.lint().filter { $0.rule == rule.rule } == [])
    }

    /// A finding says "Wallet refuses the pass" exactly when the build refuses it (BuildPolicy): a
    /// rule Wallet accepts with a fallback must say what Wallet does instead.
    @Test(arguments: ruleCases)
    func wordingFollowsTheBuild(_ rule: RuleCase) throws {
        var broken = rule.base
        rule.breaks(&broken)
        for finding in try broken.lint().filter({ $0.rule == rule.rule }) {
            let claimsRefusal = finding.effect.contains("refuses")
            #expect(claimsRefusal == finding.stopsBuild,
                    "\(finding.rule) (\(finding.severity), stops the build: \(finding.stopsBuild)) says: \(finding.effect)")
        }
    }

    @Test("appLaunchURL without associatedStoreIdentifiers is a warning that says Wallet ignores it")
    func appLaunchURLWithoutAppWarns() throws {
        var spec = TemplateSpec.storeCard
        spec.set("appLaunchURL", .string("myapp://card"))
        let finding = try #require(try spec.lint().first { $0.rule == "appLaunchURL.storeIdentifiers" })
        #expect(finding.severity == .warning && !finding.stopsBuild)
        #expect(finding.after.contains("associatedStoreIdentifiers") && finding.effect.contains("ignores"))
    }

    @Test("a web service URL given to the linter counts as one")
    func webServiceOption() throws {
        var spec = TemplateSpec.storeCard
        spec.set("webServiceURL", nil)
        let findings = try spec.lint(Linter(webServiceURL: "https://wallet.example.com/passes/"))
        #expect(findings == [])
    }

    @Test("placeholder values are unknown: their length and content are never judged")
    func placeholdersAreNotJudged() throws {
        var spec = TemplateSpec.storeCard
        spec.set("storeCard.primaryFields[0]", json: #"{"key": "name", "label": "Name", "value": "{{member.very.long.placeholder.name}}"}"#)
        spec.set("locations[0].relevantText", .string("{{a.placeholder.that.is.much.longer.than.forty.characters}}"))
        #expect(try spec.lint() == [])
    }

    @Test("a template without an icon does not load for a build; the linter names the missing icon")
    func missingIcon() throws {
        var spec = TemplateSpec.storeCard
        for scale in ["", "@2x", "@3x"] { spec.images["icon\(scale).png"] = nil }
        let findings = try spec.withFolder { folder in
            do {
                _ = try Template.load(from: folder)
                return [] as [Finding]
            } catch let error as PassCompilerError {
                return Linter.findings(for: error)
            }
        }
        #expect(findings.map(\.rule) == ["image.iconMissing"])
        #expect(findings.first?.severity == .error)
    }

    @Test("a missing icon hides nothing: every image problem is reported in one run")
    func everyImageProblemAtOnce() throws {
        var spec = TemplateSpec.storeCard
        for scale in ["", "@2x", "@3x"] { spec.images["icon\(scale).png"] = nil }
        spec.images["strip@2x.png"] = (700, 288)
        spec.images["logo@3x.png"] = nil
        let findings = try spec.withFolder { folder in
            Linter().lint(template: try Template.load(from: folder, requiringIcon: false), now: TemplateSpec.now)
        }
        let rules = Set(findings.map(\.rule))
        #expect(rules.isSuperset(of: ["image.iconMissing", "image.size", "image.scaleMismatch", "image.scales"]))
    }

    @Test("an @2x two pixels off its @1x loads and builds; lint warns")
    func scaleMismatchIsAWarning() throws {
        var spec = TemplateSpec.storeCard
        let logo = try #require(spec.images["logo.png"])
        spec.images["logo@2x.png"] = (logo.width * 2 - 2, logo.height * 2)
        let findings = try spec.lint()
        let mismatch = findings.filter { $0.rule == "image.scaleMismatch" }
        #expect(mismatch.map(\.location) == ["logo@2x.png"])
        #expect(mismatch.allSatisfy { $0.severity == .warning })
    }

    @Test("every value that does not decode is a finding, not just the first")
    func everyDecodingProblem() throws {
        var spec = TemplateSpec.storeCard
        spec.set("voided", .string("yes"))
        spec.set("locations", json: #"[{"latitude": "north", "longitude": 1}, {"latitude": 91, "longitude": 1}]"#)
        spec.set("maxDistance", .string("far"))
        let findings = try spec.lint()
        let decoding = findings.filter { $0.rule == "pass.decoding" }
        #expect(Set(decoding.map(\.location)) == ["pass.json voided", "pass.json locations[0].latitude", "pass.json maxDistance"])
        // The rules still judge what decoded: a latitude out of range next to the bad values.
        #expect(findings.contains { $0.rule == "location.latitude" }, "\(findings.map(\.rule))")
        #expect(decoding.allSatisfy { !$0.after.contains("§") }, "the After column cites Apple, not a section of a private document")
    }
}
