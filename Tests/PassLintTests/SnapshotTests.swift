import Foundation
import PassLint
import Testing

@Suite("The review table of a deliberately poor template")
struct SnapshotTests {
    static let snapshot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Snapshots/poor-store-card.md")

    /// A store card that gets most things wrong a designer would flag.
    static var poor: TemplateSpec {
        var spec = TemplateSpec.storeCard
        spec.set("webServiceURL", nil)
        spec.set("description", .string("Example Coffee"))
        spec.set("foregroundColor", .string("#6E8A80"))
        spec.set("labelColor", .string("rgb(60, 90, 80)"))
        spec.set("storeCard.primaryFields[0]", json: #"{"key": "club", "label": "Club", "value": "Double Espresso Club Card", "changeMessage": "Club changed"}"#)
        spec.set("storeCard.secondaryFields[0]", json: #"{"key": "balance", "label": "Balance", "value": "$49.99", "textAlignment": "PKTextAlignmentRight"}"#)
        spec.set("storeCard.auxiliaryFields[0]", json: #"{"key": "since", "label": "Member since", "value": "June 15, 2026", "textAlignment": "PKTextAlignmentLeft"}"#)
        spec.set("barcodes[0]", json: #"{"format": "PKBarcodeFormatQR", "message": "WELCOME10", "messageEncoding": "iso-8859-1"}"#)
        spec.set("locations[0].relevantText", nil)
        spec.images["logo.png"] = (200, 80)
        spec.images["logo@2x.png"] = (400, 160)
        spec.images["logo@3x.png"] = (600, 240)
        spec.images["strip@3x.png"] = nil
        spec.images.merge(TemplateSpec.scaled(["thumbnail": (90, 90)])) { $1 }
        return spec
    }

    @Test("matches Snapshots/poor-store-card.md (regenerate with PASSLINT_RECORD_SNAPSHOTS=1)")
    func table() throws {
        let findings = try Self.poor.lint()
        #expect(findings.count >= 12)
        let table = LintReport.markdownTable(findings)
        if ProcessInfo.processInfo.environment["PASSLINT_RECORD_SNAPSHOTS"] == "1" {
            try Data(table.utf8).write(to: Self.snapshot)
        }
        let expected = try String(contentsOf: Self.snapshot, encoding: .utf8)
        #expect(table == expected)
    }

    @Test("rows run most severe first, each starting with severity, rule and location")
    func order() throws {
        let findings = try Self.poor.lint()
        let rows = LintReport.markdownTable(findings).split(separator: "\n").dropFirst(2)
        #expect(rows.count == findings.count)
        let severities = rows.map { row in Finding.Severity.allCases.first { row.hasPrefix("| **[\($0.rawValue)] ") } }
        #expect(!severities.contains(nil))
        #expect(severities.map { $0! } == severities.map { $0! }.sorted())
        #expect(severities.first == .error)
        #expect(severities.last == .advice)
    }

    @Test("JSON output carries the same findings")
    func json() throws {
        let findings = try Self.poor.lint()
        let decoded = try JSONDecoder().decode([Finding].self, from: LintReport.json(findings))
        #expect(decoded == LintReport.sorted(findings))
    }
}
