import Foundation
@testable import PassLint
import Testing

@Suite("Applying a finding's After makes it go away")
struct FixTests {
    /// Rules whose After is JSON to merge at the finding's location.
    static let mechanical: Set<String> = [
        "contrast.foreground", "contrast.label", "colour.hex", "locale.textAlignment", "barcode.altText",
        "locale.textDate", "locale.textMoney", "field.changeMessage", "lifecycle.changeMessageLength",
        "description.copiesOrganization", "description.tooShort", "glance.relevantTextLength",
        "lifecycle.locationText", "lifecycle.noExpiry", "poster.recommendedSemantics",
    ]

    @Test(arguments: ruleCases.filter { mechanical.contains($0.rule) })
    func applyAndRelint(_ rule: RuleCase) throws {
        var broken = rule.base
        rule.breaks(&broken)
        let finding = try #require(try broken.lint().first { $0.rule == rule.rule })
        let fixed = try #require(FindingFix.apply(finding, to: broken), "After is not mechanical: \(finding.after)")
        let after = try fixed.lint()
        #expect(!after.contains { $0.rule == rule.rule && $0.location == finding.location }, "still there after applying \(finding.after)")
        #expect(!after.contains { $0.severity == .error }, "the fix introduced \(after.filter { $0.severity == .error })")
    }

    @Test("every mechanical rule has a case")
    func covered() {
        #expect(Set(ruleCases.map(\.rule)).isSuperset(of: Self.mechanical))
    }

    @Test("a text date becomes an ISO date Wallet formats, a text amount a number with its currency")
    func conversions() {
        #expect(TextValues.date(in: "June 15, 2026") == "2026-06-15T00:00:00Z")
        #expect(TextValues.date(in: "15 June 2026") == "2026-06-15T00:00:00Z")
        #expect(TextValues.date(in: "15/06/2026") == "2026-06-15T00:00:00Z")
        #expect(TextValues.date(in: "06/15/2026") == "2026-06-15T00:00:00Z")
        #expect(TextValues.date(in: "15.06.2026") == "2026-06-15T00:00:00Z")
        #expect(TextValues.date(in: "Doors open June 15") == nil)
        #expect(TextValues.money(in: "$49.99").map { "\($0.amount) \($0.currency)" } == "49.99 USD")
        #expect(TextValues.money(in: "49,99 €").map { "\($0.amount) \($0.currency)" } == "49.99 EUR")
        #expect(TextValues.money(in: "USD 1,250.00").map { "\($0.amount) \($0.currency)" } == "1250.0 USD")
        #expect(TextValues.money(in: "One cabin bag up to 8 kg") == nil)
    }
}
