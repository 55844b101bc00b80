import Foundation
import PassCompiler
import PassModel
import PasswrightTesting
import Testing

/// A roll-out skips rendering a pass as it was when the two template versions alone say that no
/// record can make a change message show (`Template.mayShowChangeMessage(movingFrom:)`). Each case
/// is checked against what rendering says for several records: the templates may say "maybe" where
/// rendering finds nothing, never "no" where rendering finds a change message.
@Suite struct ChangeMessageFieldsTests {
    /// The test template with a change message on the balance.
    static var base: JSONObject {
        var pass = TestTemplate.basePass
        pass["storeCard"] = .object([
            "primaryFields": .array([.object([
                "key": .string("balance"), "label": .string("Balance"), "value": .string("{{balance}}"),
                "changeMessage": .string("Your balance is now %@"),
            ])]),
            "secondaryFields": .array([.object([
                "key": .string("member"), "label": .string("Member"), "value": .string("{{member.name}}"),
            ])]),
        ])
        return pass
    }

    static let records: [JSONValue] = [
        TestTemplate.baseRecord,
        .object(["balance": .number(0), "member": .object(["name": .string("Grace"), "id": .string("M-0002")]), "tier": .string("gold")]),
        .object(["balance": .string("M-0003"), "member": .object(["name": .string("Ada"), "id": .string("M-0003")]), "tier": .string("")]),
    ]

    /// A change of the template, and whether a change message may show after it.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var mayShow: Bool
        var edit: @Sendable (inout JSONObject) -> Void
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "a label changes", mayShow: false) { $0["storeCard"]?["primaryFields"]?[0]?["label"] = .string("Stars") },
        Case(name: "the change message's text changes", mayShow: false) {
            $0["storeCard"]?["primaryFields"]?[0]?["changeMessage"] = .string("Now %@")
        },
        Case(name: "the colours change", mayShow: false) { $0["backgroundColor"] = .string("rgb(0, 0, 0)") },
        Case(name: "the notifying field moves to another list", mayShow: false) {
            let field = $0["storeCard"]?["primaryFields"]?[0]
            $0["storeCard"]?["primaryFields"] = .array([])
            $0["storeCard"]?["auxiliaryFields"] = .array([field!])
        },
        Case(name: "a field without a change message gets one, its value as it was", mayShow: false) {
            $0["storeCard"]?["secondaryFields"]?[0]?["changeMessage"] = .string("Hello %@")
        },
        Case(name: "the style changes, the fields as they were", mayShow: false) {
            $0["generic"] = $0["storeCard"]
            $0["storeCard"] = nil
        },
        Case(name: "the notifying field's value comes from another value", mayShow: true) {
            $0["storeCard"]?["primaryFields"]?[0]?["value"] = .string("{{member.id}}")
        },
        Case(name: "the notifying field's value gets text around it", mayShow: true) {
            $0["storeCard"]?["primaryFields"]?[0]?["value"] = .string("{{balance}} points")
        },
        Case(name: "the notifying field's value becomes a fixed text", mayShow: true) {
            $0["storeCard"]?["primaryFields"]?[0]?["value"] = .string("12")
        },
        Case(name: "a new field has a change message", mayShow: true) {
            $0["storeCard"]?["auxiliaryFields"] = .array([.object([
                "key": .string("tier"), "label": .string("Tier"), "value": .string("{{member.id}}"), "changeMessage": .string("Tier %@"),
            ])])
        },
        Case(name: "the notifying field's key changes", mayShow: true) { $0["storeCard"]?["primaryFields"]?[0]?["key"] = .string("points") },
        Case(name: "a field list comes from the record", mayShow: true) { $0["storeCard"]?["backFields"] = .string("{{extra}}") },
        Case(name: "a key is used twice", mayShow: true) {
            $0["storeCard"]?["auxiliaryFields"] = .array([.object(["key": .string("member"), "label": .string("Again"), "value": .string("x")])])
        },
    ]

    @Test(arguments: cases)
    func theTemplatesSayNoOnlyWhereRenderingFindsNoChangeMessage(_ change: Case) throws {
        try withTemporaryDirectory { folder in
            let old = try Template.load(from: TestTemplate.write(Self.base, in: folder, name: "old"))
            var edited = Self.base
            change.edit(&edited)
            let new = try Template.load(from: TestTemplate.write(edited, in: folder, name: "new"))
            #expect(new.mayShowChangeMessage(movingFrom: old) == change.mayShow)
            #expect(!old.mayShowChangeMessage(movingFrom: old), "a template against itself")
            let before = try TestTemplate.compiler(for: old), after = try TestTemplate.compiler(for: new)
            var shown = 0
            for (index, record) in Self.records.enumerated() {
                var extra = record
                if case .object(var members) = record {
                    members["extra"] = .array([.object(["key": .string("note"), "label": .string("Note"), "value": .string("n\(index)")])])
                    extra = .object(members)
                }
                let input = PassInput(record: extra, recordName: "record \(index)", serialNumber: "s\(index)")
                let notifies = try after.decode(input).notifiesOfChange(from: try before.decode(input))
                if notifies { shown += 1 }
                if !change.mayShow { #expect(!notifies, "record \(index) shows a change message that the templates said could not show") }
            }
            // Where the templates say "maybe" because a value's source moved, some record shows it.
            if change.mayShow, change.name.hasPrefix("the notifying field's value") { #expect(shown > 0) }
        }
    }

    @Test("overrides that replace a style dictionary take the fields out of the templates' hands")
    func styleOverridesAreNamed() {
        #expect(Template.overridesFields(["storeCard": .object([:])]))
        #expect(Template.overridesFields(["posterGeneric": .object([:])]))
        #expect(!Template.overridesFields(["voided": .bool(true), "backgroundColor": .string("rgb(0, 0, 0)")]))
    }
}
