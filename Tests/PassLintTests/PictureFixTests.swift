import Foundation
@testable import PassLint
import PassModel
import Testing

/// The findings that change how a pass looks carry their After as a ``Finding/Fix`` on the typed pass
/// (what `passwright lint --pictures` draws the after picture from); applying it does what After says.
@Suite("A look-changing finding's fix, applied to the pass")
struct PictureFixTests {
    static let looks: Set<String> = ["contrast.foreground", "contrast.label", "glance.primaryLength", "glance.secondaryCount", "glance.headerCount"]

    /// The template's typed pass, as the rules see it.
    static func pass(_ spec: TemplateSpec) throws -> Pass {
        try LintedPass.template(spec.json, webServiceURL: nil, now: TemplateSpec.now).get().pass
    }

    @Test(arguments: ruleCases.filter { looks.contains($0.rule) })
    func fixMatchesAfter(_ rule: RuleCase) throws {
        var broken = rule.base
        rule.breaks(&broken)
        let finding = try #require(try broken.lint().first { $0.rule == rule.rule })
        let fix = try #require(finding.fix, "\(rule.rule) has no fix")
        let before = try Self.pass(broken)
        let after = fix.apply(to: before)
        #expect(after != before)
        switch fix {
        case .colour(let key, let value):
            #expect(finding.after == "\"\(key)\": \"\(value)\"")
            #expect((key == "labelColor" ? after.labelColor : after.foregroundColor) == Color(value))
        case .moveToBack(let style, let group, let keep):
            let fields = try #require(after.storeCard)
            let moved = try #require(before.storeCard)[PassFields.Group(rawValue: group)!].dropFirst(keep).map(\.key)
            #expect(style == "storeCard" && fields[PassFields.Group(rawValue: group)!].count == keep)
            #expect(fields.backFields.suffix(moved.count).map(\.key) == moved)
            #expect(finding.after.hasPrefix("keep ") && moved.allSatisfy { finding.after.contains("\"\($0)\"") })
        case .shorten(let key, let value):
            #expect(finding.after.contains("\"\(value)\""))
            let fields = try #require(after.storeCard)
            #expect(fields.primaryFields.first { $0.key == key }?.value == .string(value))
            #expect(fields.backFields.last?.key == key + "Full" && fields.backFields.last?.value == .string("Double Espresso Club Card"))
        case .moveFieldToBack:
            Issue.record("no template rule moves one field")
        }
    }

    @Test("a finding that does not change the look has no fix; a fix that no longer matches changes nothing")
    func noFix() throws {
        var spec = TemplateSpec.storeCard
        spec.set("description", .string("Card"))
        let finding = try #require(try spec.lint().first { $0.rule == "description.tooShort" })
        #expect(finding.fix == nil)
        let pass = try Self.pass(.storeCard)
        #expect(Finding.Fix.shorten(key: "nowhere", value: "x").apply(to: pass) == pass)
        #expect(Finding.Fix.colour(key: "labelColor", value: "banana").apply(to: pass) == pass)
        #expect(Finding.Fix.moveFieldToBack(key: "member").apply(to: pass).storeCard?.backFields.last?.key == "member")
    }

    @Test("the table shows a finding's pictures under Before and After; JSON names them")
    func report() throws {
        var finding = Finding(rule: "contrast.label", severity: .warning, location: "pass.json labelColor", before: "b", after: "a", effect: "e")
        finding.pictures = Finding.Pictures(before: "out/contrast.label-1-before.png", after: "my pictures/contrast.label-1-after.png")
        let row = LintReport.markdownTable([finding]).split(separator: "\n")[2]
        #expect(row.contains("`b`<br>![before](out/contrast.label-1-before.png) | `a`<br>![after](<my pictures/contrast.label-1-after.png>) | e |"))
        let json = String(decoding: LintReport.json([finding]), as: UTF8.self)
        #expect(json.contains("\"before\" : \"out/contrast.label-1-before.png\""))
        #expect(try JSONDecoder().decode([Finding].self, from: LintReport.json([finding])) == [finding])
    }
}
