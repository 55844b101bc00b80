import Foundation
import Testing
@testable import PassModel

@Suite struct PassRoundTripTests {
    @Test(arguments: PassStyle.allCases)
    func realisticPassDecodesValidatesCleanAndRoundTrips(style: PassStyle) throws {
        let (pass, warnings) = try Pass.decode(Data(Fixtures.text(style).utf8))
        #expect(warnings.isEmpty)
        #expect(pass.validate() == [])
        let encoded = pass.encoded()
        let (again, _) = try Pass.decode(encoded)
        #expect(again == pass)
        #expect(again.encoded() == encoded, "encoding is deterministic")
        #expect(pass.style == style)
    }

    @Test func encodingUsesAppleFormats() throws {
        let pass = try Fixtures.pass(Fixtures.storeCard)
        let text = String(decoding: pass.encoded(), as: UTF8.self)
        #expect(text.contains("\"formatVersion\":1,"))
        #expect(text.contains("\"value\":1200}"), "integral numbers stay integers")
        #expect(text.contains("\"value\":21.75"))
        #expect(text.contains("\"backgroundColor\":\"rgb(12, 34, 56)\""))
        #expect(text.contains("\"webServiceURL\":\"https://passes.example.com/wallet\""), "slashes are not escaped")
        #expect(text.contains("\"associatedStoreIdentifiers\":[123456789]"))
        #expect(!pass.encoded().starts(with: [0xEF, 0xBB, 0xBF]))
        let keys = try #require(JSONValue.parse(pass.encoded()).objectKeys)
        #expect(keys == keys.sorted(), "top-level keys are sorted")
    }

    @Test func datesKeepTheirOffsetAndLoseFractions() throws {
        let json = try Fixtures.edited(Fixtures.generic, ["expirationDate"], to: .string("2026-05-01T09:00:00.250+05:30"))
        let pass = try Pass.decode(json).0
        let text = String(decoding: pass.encoded(), as: UTF8.self)
        #expect(text.contains("\"expirationDate\":\"2026-05-01T09:00:00+05:30\""))
        #expect(text.contains("\"relevantDate\":\"2026-05-01T09:00:00+05:30\""), "seconds are added, zone kept")
    }

    @Test func hexColourIsWrittenAsRGB() throws {
        let json = try Fixtures.edited(Fixtures.coupon, ["backgroundColor"], to: .string("#0A0b0C"))
        let pass = try Pass.decode(json).0
        #expect(pass.backgroundColor == Color(red: 10, green: 11, blue: 12))
        #expect(String(decoding: pass.encoded(), as: UTF8.self).contains("\"backgroundColor\":\"rgb(10, 11, 12)\""))
    }

    @Test func unknownKeysAreKeptAndWarnedWithTheirPath() throws {
        var json = try Fixtures.edited(Fixtures.storeCard, ["futureKey"], to: .object(["a": .number(1)]))
        json = Fixtures.edited(json, ["storeCard", "primaryFields", "0", "glow"], to: .bool(true))
        let (pass, warnings) = try Pass.decode(json)
        #expect(warnings.map(\.path).sorted() == ["futureKey", "storeCard.primaryFields[0].glow"])
        #expect(warnings.allSatisfy { $0.rule == "unknownKey" && $0.severity == .warning })
        let text = String(decoding: pass.encoded(), as: UTF8.self)
        #expect(text.contains("\"futureKey\":{\"a\":1}"))
        #expect(text.contains("\"glow\":true"))
        #expect(try Pass.decode(pass.encoded()).0 == pass)
    }

    @Test func bothTimeZoneSpellingsAreReadAndWritten() throws {
        let pass = try Fixtures.pass(Fixtures.boardingPass)
        #expect(pass.semantics?.departureTimeZone == "America/New_York")
        #expect(pass.semantics?.destinationTimeZone == "America/Los_Angeles")
        let text = String(decoding: pass.encoded(), as: UTF8.self)
        for key in ["departureLocationTimeZone", "departureAirportTimeZone", "destinationLocationTimeZone", "destinationAirportTimeZone"] {
            #expect(text.contains("\"\(key)\":"), "\(key) is written")
        }
    }

    @Test func relevantDateEntryWritesDateAndRelevantDate() throws {
        let pass = try Fixtures.pass(Fixtures.eventTicket)
        #expect(pass.relevantDates.first?.date == W3CDate("2026-09-12T19:30:00+02:00"))
        let text = String(decoding: pass.encoded(), as: UTF8.self)
        #expect(text.contains("{\"date\":\"2026-09-12T19:30:00+02:00\",\"relevantDate\":\"2026-09-12T19:30:00+02:00\"}"))
        let legacy = try Fixtures.edited(Fixtures.eventTicket, ["relevantDates"],
                                         to: .array([.object(["relevantDate": .string("2026-09-12T19:30:00+02:00")])]))
        #expect(try Pass.decode(legacy).0.relevantDates == pass.relevantDates, "the iOS 18 spelling is read too")
    }

    @Test func fieldValueKinds() throws {
        let pass = try Fixtures.pass(Fixtures.eventTicket)
        let values = Dictionary(uniqueKeysWithValues: pass.allFields.map { ($0.field.key, $0.field.value) })
        #expect(values["date"] == .date(W3CDate("2026-09-12T19:30:00+02:00")!))
        #expect(values["row"] == .number(5))
        #expect(values["event"] == .string("Example Live"))
        let notADate = try Fixtures.edited(Fixtures.coupon, ["coupon", "auxiliaryFields", "0", "value"], to: .string("2026-13-01T10:00Z"))
        #expect(try Pass.decode(notADate).0.coupon?.auxiliaryFields[0].value == .string("2026-13-01T10:00Z"))
    }

    @Test func inspectionHelpersListFieldsAndStringsWithPaths() throws {
        let pass = try Fixtures.pass(Fixtures.generic)
        #expect(pass.allFields.map(\.path) == [
            "generic.primaryFields[0]", "generic.secondaryFields[0]",
            "posterGeneric.headerFields[0]", "posterGeneric.primaryFields[0]", "posterGeneric.footerFields[0]",
        ])
        let strings = Dictionary(uniqueKeysWithValues: pass.displayedStrings.map { ($0.path, $0.text) })
        #expect(strings["organizationName"] == "Example Co")
        #expect(strings["generic.primaryFields[0].label"] == "Member")
        #expect(strings["posterGeneric.footerFields[0].value"] == "M-1")
    }

    @Test func passBuiltInCodeEncodesAndValidates() throws {
        var pass = Pass(passTypeIdentifier: "pass.com.example.code", serialNumber: "1", teamIdentifier: "ABCDE12345",
                        organizationName: "Example", description: "Built in code")
        var fields = PassFields()
        fields.primaryFields = [Field(key: "balance", value: .number(10), label: "Balance")]
        pass.storeCard = fields
        pass.barcodes = [Pass.Barcode(format: .qr, message: "1")]
        #expect(pass.validate() == [])
        #expect(try Pass.decode(pass.encoded()).0 == pass)
    }
}

extension JSONValue {
    var objectKeys: [String]? {
        if case .object(let object) = self { return object.keys }
        return nil
    }
}
