import Foundation
import PassCompiler
import PassModel
import PasswrightTesting
import Testing

/// Placeholders are filled on the JSON tree from the record; serial numbers, tokens and overrides
/// follow their precedence rules.
@Suite struct RenderingTests {
    static func record(name: JSONValue, balance: JSONValue = .number(12), extra: JSONObject = [:]) -> JSONValue {
        var object: JSONObject = ["balance": balance, "member": .object(["name": name, "id": .string("M-0001")])]
        for (key, value) in extra { object[key] = value }
        return .object(object)
    }

    @Test func hostileValuesLandVerbatimAndInjectNothing() throws {
        try withTemporaryDirectory { folder in
            var pass = TestTemplate.basePass
            pass["storeCard"]?["secondaryFields"] = .array([
                .object(["key": .string("member"), "label": .string("Member"), "value": .string("{{member.name}}")]),
                .object(["key": .string("greeting"), "label": .string("Hi"), "value": .string("Dear {{member.name}}!")]),
            ])
            let hostile = "A \"quoted\", \"injected\": \"x\"}\nline two }} {{balance}} \u{0000} end"
            let compiled = try TestTemplate.compile(pass, record: Self.record(name: .string(hostile)), in: folder)
            let tree = try Archive(compiled.archive).passJSON()
            let fields = try #require(tree["storeCard"]?["secondaryFields"])
            #expect(fields[0]?["value"] == .string(hostile))
            #expect(fields[1]?["value"] == .string("Dear \(hostile)!"))
            // No key appeared anywhere: the field and the document keep exactly their members.
            guard case .object(let field)? = fields[0], case .object(let root) = tree else {
                Issue.record("pass.json is not shaped as expected")
                return
            }
            #expect(Set(field.keys) == ["key", "label", "value"])
            #expect(!root.keys.contains("injected"))
            #expect(Set(root.keys) == Set(TestTemplate.basePass.keys).union(["serialNumber"]))
        }
    }

    /// An erased pass's values are blanked: a code made of nothing is left out, not signed as an
    /// empty message that no symbology can draw. A code with a message stays.
    @Test(arguments: [("", false), ("M-0001", true)])
    func aBarcodeWhoseMessageIsEmptyIsLeftOut(id: String, kept: Bool) throws {
        try withTemporaryDirectory { folder in
            var pass = TestTemplate.basePass
            let code: JSONValue = .object(["format": .string("PKBarcodeFormatQR"), "message": .string("{{member.id}}"), "messageEncoding": .string("iso-8859-1")])
            pass["barcodes"] = .array([code])
            pass["barcode"] = code
            let record: JSONValue = .object(["balance": .number(1), "member": .object(["name": .string("Ada"), "id": .string(id)])])
            let tree = try Archive(TestTemplate.compile(pass, record: record, in: folder).archive).passJSON()
            #expect((tree["barcodes"]?[0]?["message"] == .string(id)) == kept)
            #expect((tree["barcodes"] != nil) == kept && (tree["barcode"] != nil) == kept, "\(tree)")
        }
    }

    @Test func wholePlaceholderKeepsTheRecordsType() throws {
        try withTemporaryDirectory { folder in
            var pass = TestTemplate.basePass
            pass["locations"] = .string("{{places}}")
            pass["userInfo"] = .string("{{info}}")
            let places: JSONValue = .array([.object(["latitude": .number(52.5), "longitude": .number(13.25)])])
            let info: JSONValue = .object(["tier": .string("gold"), "visits": .number(3)])
            let record = Self.record(name: .string("Ada"), balance: .number(1280), extra: ["places": places, "info": info])
            let compiled = try TestTemplate.compile(pass, record: record, in: folder)
            let tree = try Archive(compiled.archive).passJSON()
            #expect(tree["storeCard"]?["primaryFields"]?[0]?["value"] == .number(1280))
            #expect(tree["locations"] == places)
            #expect(tree["userInfo"] == info)
            #expect(compiled.pass.locations.first?.longitude == 13.25)
        }
    }

    @Test(arguments: [(12.0, "Points: 12"), (1280.0, "Points: 1280"), (12.5, "Points: 12.5"), (-3.0, "Points: -3")])
    func numbersInsideTextAreFormatted(number: Double, expected: String) throws {
        try withTemporaryDirectory { folder in
            var pass = TestTemplate.basePass
            pass["storeCard"]?["primaryFields"]?[0]?["value"] = .string("Points: {{balance}}")
            let compiled = try TestTemplate.compile(pass, record: Self.record(name: .string("Ada"), balance: .number(number)), in: folder)
            #expect(try Archive(compiled.archive).passJSON()["storeCard"]?["primaryFields"]?[0]?["value"] == .string(expected))
        }
    }

    @Test(arguments: [JSONValue.null, nil])
    func missingValueNamesPlaceholderPathAndRecord(name: JSONValue?) throws {
        try withTemporaryDirectory { folder in
            let template = try TestTemplate.load(in: folder)
            var member: JSONObject = ["id": .string("M-0001")]
            member["name"] = name
            let record: JSONValue = .object(["balance": .number(1), "member": .object(member)])
            let error = try #require(throws: PassCompilerError.self) {
                try TestTemplate.compiler(for: template).compile(PassInput(record: record, recordName: "cards.csv line 12"))
            }
            guard case .missingValue(let placeholder, let path, let recordName) = error else {
                Issue.record("expected missingValue, got \(error)")
                return
            }
            #expect(placeholder == "member.name")
            #expect(path == "storeCard.secondaryFields[0].value")
            #expect(recordName == "cards.csv line 12")
            #expect("\(error)".contains("{{member.name}}") && "\(error)".contains("cards.csv line 12"))
        }
    }

    /// One missing placeholder does not hide another: the record learns everything it lacks.
    @Test func everyMissingValueIsNamed() throws {
        try withTemporaryDirectory { folder in
            let template = try TestTemplate.load(in: folder)
            let record: JSONValue = .object(["member": .object([:])])
            let error = try #require(throws: PassCompilerError.self) {
                try TestTemplate.compiler(for: template).compile(PassInput(record: record, recordName: "record 3"))
            }
            let text = "\(error)"
            for placeholder in ["{{balance}}", "{{member.name}}", "{{member.id}}"] {
                #expect(text.contains(placeholder), "\(text)")
            }
        }
    }

    @Test(arguments: ["Hello {{member.name", "Hello {{ }}", "{{a{b}}"])
    func malformedPlaceholderFailsAtLoad(label: String) throws {
        try withTemporaryDirectory { folder in
            var pass = TestTemplate.basePass
            pass["storeCard"]?["secondaryFields"]?[0]?["label"] = .string(label)
            let error = try #require(throws: PassCompilerError.self) { try TestTemplate.load(pass, in: folder) }
            guard case .invalidTemplate(let file, let path, _) = error else {
                Issue.record("expected invalidTemplate, got \(error)")
                return
            }
            #expect(file == "pass.json")
            #expect(path == "storeCard.secondaryFields[0].label")
        }
    }

    /// CSV gives only text: `{{x | number}}` turns numeric text into a number where the template
    /// asks for one, other fields keep the text, text that is no number is refused with the record's
    /// name, and `{{x | string}}` turns a JSON number into text. Spaces and tabs around the number go.
    @Test func conversionsTurnTextIntoNumbersAndBack() throws {
        try withTemporaryDirectory { folder in
            var pass = TestTemplate.basePass
            pass["storeCard"]?["primaryFields"]?[0]?["value"] = .string("{{balance | number}}")
            pass["storeCard"]?["primaryFields"]?[0]?["numberStyle"] = .string("PKNumberStyleDecimal")
            pass["storeCard"]?["secondaryFields"] = .array([
                .object(["key": .string("member"), "value": .string("{{member.name}}")]),
                .object(["key": .string("price"), "value": .string("{{ price | number }}"), "currencyCode": .string("EUR")]),
            ])
            pass["barcodes"]?[0]?["message"] = .string("{{member.id | string}}")
            let template = try TestTemplate.load(pass, in: folder)
            let compiler = try TestTemplate.compiler(for: template)
            let record: JSONValue = .object(["balance": .string(" 137\t"), "price": .string("4.5\u{00A0}"),
                                             "member.name": .string("0042"), "member.id": .number(12)])
            let tree = try Archive(compiler.compile(PassInput(record: record, recordName: "cards.csv line 2")).archive).passJSON()
            #expect(tree["storeCard"]?["primaryFields"]?[0]?["value"] == .number(137))
            #expect(tree["storeCard"]?["secondaryFields"]?[1]?["value"] == .number(4.5))
            #expect(tree["storeCard"]?["secondaryFields"]?[0]?["value"] == .string("0042"))
            #expect(tree["barcodes"]?[0]?["message"] == .string("12"))

            let notANumber: JSONValue = .object(["balance": .string("12 points"), "price": .string("1"), "member.name": .string("A"), "member.id": .string("1")])
            let error = try #require(throws: PassCompilerError.self) { try compiler.compile(PassInput(record: notANumber, recordName: "cards.csv line 3")) }
            #expect("\(error)".contains("cards.csv line 3"))
            #expect("\(error)".contains("{{balance | number}}"))
            #expect("\(error)".contains("12 points"))

            let unknown = try #require(throws: PassCompilerError.self) {
                var bad = TestTemplate.basePass
                bad["description"] = .string("{{balance | currency}}")
                _ = try TestTemplate.load(bad, in: folder.appendingPathComponent("bad"))
            }
            #expect("\(unknown)".contains("not a conversion"))
        }
    }

    @Test func flatCSVKeyIsFound() throws {
        try withTemporaryDirectory { folder in
            let record: JSONValue = .object(["balance": .string("7"), "member.name": .string("Flat Name"), "member.id": .string("F-1")])
            let compiled = try TestTemplate.compile(record: record, in: folder)
            let tree = try Archive(compiled.archive).passJSON()
            #expect(tree["storeCard"]?["secondaryFields"]?[0]?["value"] == .string("Flat Name"))
            #expect(tree["barcodes"]?[0]?["message"] == .string("F-1"))
        }
    }

    @Test func serialNumberPrecedence() throws {
        try withTemporaryDirectory { folder in
            var pass = TestTemplate.basePass
            pass["serialNumber"] = .string("FROM-TEMPLATE")
            let withSerial = try TestTemplate.compiler(for: TestTemplate.load(pass, in: folder.appendingPathComponent("serial")))
            let withoutSerial = try TestTemplate.compiler(for: TestTemplate.load(in: folder.appendingPathComponent("plain")))
            let recordWithSerial = Self.record(name: .string("Ada"), extra: ["serialNumber": .string("FROM-RECORD")])
            let plainRecord = Self.record(name: .string("Ada"))

            #expect(try withSerial.compile(PassInput(record: recordWithSerial, recordName: "r", serialNumber: "EXPLICIT")).serialNumber == "EXPLICIT")
            #expect(try withSerial.compile(PassInput(record: recordWithSerial, recordName: "r")).serialNumber == "FROM-RECORD")
            #expect(try withSerial.compile(PassInput(record: plainRecord, recordName: "r")).serialNumber == "FROM-TEMPLATE")
            let first = try withoutSerial.compile(PassInput(record: plainRecord, recordName: "r"))
            let second = try withoutSerial.compile(PassInput(record: plainRecord, recordName: "r"))
            #expect(UUID(uuidString: first.serialNumber) != nil)
            #expect(UUID(uuidString: second.serialNumber) != nil)
            #expect(first.serialNumber != second.serialNumber)
            #expect(try Archive(first.archive).passJSON()["serialNumber"] == .string(first.serialNumber))
        }
    }

    @Test func webServiceOptionAddsFreshTokens() throws {
        try withTemporaryDirectory { folder in
            let template = try TestTemplate.load(in: folder)
            let url = "https://passes.example.com/wallet/"
            let compiler = try TestTemplate.compiler(for: template, options: CompileOptions(webServiceURL: url))
            let record = Self.record(name: .string("Ada"))
            let passes = try (0..<2).map { _ in try compiler.compile(PassInput(record: record, recordName: "r")) }
            let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
            for pass in passes {
                let token = try #require(pass.authenticationToken)
                #expect(token.count >= 32)
                #expect(token.allSatisfy(allowed.contains))
                let tree = try Archive(pass.archive).passJSON()
                #expect(tree["webServiceURL"] == .string(url))
                #expect(tree["authenticationToken"] == .string(token))
            }
            #expect(passes[0].authenticationToken != passes[1].authenticationToken)

            let given = "record-token-0123456789abcdef"
            let withToken = Self.record(name: .string("Ada"), extra: ["authenticationToken": .string(given)])
            #expect(try compiler.compile(PassInput(record: withToken, recordName: "r")).authenticationToken == given)
            #expect(try compiler.compile(PassInput(record: record, recordName: "r", authenticationToken: "explicit-token-0123456789")).authenticationToken
                == "explicit-token-0123456789")
        }
    }

    @Test func noWebServiceMeansNoToken() throws {
        try withTemporaryDirectory { folder in
            let compiled = try TestTemplate.compile(in: folder)
            #expect(compiled.authenticationToken == nil)
            let tree = try Archive(compiled.archive).passJSON()
            #expect(tree["authenticationToken"] == nil)
            #expect(tree["webServiceURL"] == nil)
        }
    }

    @Test func overridesReplaceTopLevelKeys() throws {
        try withTemporaryDirectory { folder in
            var pass = TestTemplate.basePass
            pass["locations"] = .array([.object(["latitude": .number(1), "longitude": .number(2)])])
            let compiler = try TestTemplate.compiler(for: TestTemplate.load(pass, in: folder))
            let moved: JSONValue = .array([.object(["latitude": .number(48.85), "longitude": .number(2.35), "relevantText": .string("Paris")])])
            let compiled = try compiler.compile(PassInput(record: TestTemplate.baseRecord, recordName: "r",
                                                          overrides: ["locations": moved, "expirationDate": .string("2031-01-01T00:00:00Z")]))
            let tree = try Archive(compiled.archive).passJSON()
            #expect(tree["locations"] == moved)
            #expect(tree["expirationDate"] == .string("2031-01-01T00:00:00Z"))
            #expect(compiled.pass.locations.map(\.latitude) == [48.85])
        }
    }
}
