import Foundation
import PassCompiler
import PassLint
import PassModel
import Testing

@Suite("What only the records reveal")
struct RecordTests {
    static func record(_ id: String, name: String = "Ada Okafor") -> JSONValue {
        TemplateSpec.parse(#"{"tier": "Gold", "points": "120", "since": "2019-06-01T00:00:00+02:00", "member": {"name": "\#(name)", "id": "\#(id)"}}"#)
    }

    @Test("distinct records add nothing to the template's own lint")
    func cleanRecords() throws {
        let findings = try TemplateSpec.storeCard.withTemplate {
            Linter().lint(template: $0, records: [Self.record("M-1"), Self.record("M-2")], now: TemplateSpec.now)
        }
        #expect(findings == [])
    }

    @Test("the same barcode message on several passes")
    func sameMessage() throws {
        let findings = try TemplateSpec.storeCard.withTemplate {
            Linter().lint(template: $0, records: [Self.record("M-1"), Self.record("M-1"), Self.record("M-3")], now: TemplateSpec.now)
        }
        let finding = try #require(findings.first { $0.rule == "barcode.sameMessage" })
        #expect(finding.before.contains("\"message\": \"M-1\" on 2 passes"))
    }

    @Test("a record missing a value cannot render: an error naming it")
    func renderFailure() throws {
        let broken = TemplateSpec.parse(#"{"tier": "Gold", "points": "120", "since": "2019-06-01T00:00:00+02:00", "member": {"id": "M-9"}}"#)
        let findings = try TemplateSpec.storeCard.withTemplate {
            Linter().lint(template: $0, records: [broken], now: TemplateSpec.now)
        }
        let finding = try #require(findings.first)
        #expect(finding.rule == "record.render" && finding.severity == .error && finding.location == "record 1")
        #expect(finding.before.contains("member.name"))
    }

    @Test("a value that breaks a rule once filled in, reported once with the first record's name")
    func valueRules() throws {
        var spec = TemplateSpec.storeCard
        spec.set("storeCard.secondaryFields", nil)
        spec.set("storeCard.primaryFields[0]", json: #"{"key": "member", "label": "Member", "value": "{{member.name}}"}"#)
        let csv = "tier,points,since,member.name,member.id\nGold,1,2019-06-01T00:00:00+02:00,Ada Okafor,M-1\nGold,2,2019-06-01T00:00:00+02:00,Maximiliane Oberholzer-Lindqvist,M-2\nGold,3,2019-06-01T00:00:00+02:00,Konstantin Weissenberger,M-3\n"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("passlint-\(UUID().uuidString).csv")
        try Data(csv.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let findings = try spec.withTemplate { template in
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            var reader = try RecordReader(handle: handle, format: .csv, file: "members.csv")
            return Linter().lint(template: template, records: &reader, now: TemplateSpec.now)
        }
        #expect(findings.map(\.rule) == ["glance.primaryLength"])
        #expect(findings.first?.location == "members.csv line 3: pass.json storeCard.primaryFields[0].value (and 1 more record)")
        #expect(findings.first?.before == "\"value\": \"Maximiliane Oberholzer-Lindqvist\"")
    }
}
