import Foundation
import Testing
import PassModel

@Suite struct DecodingErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let style: PassStyle
        let edit: String
        let value: JSONValue?
        let expected: String
        var testDescription: String { expected }
    }

    @Test(arguments: [
        Case(style: .storeCard, edit: "serialNumber", value: .number(123),
             expected: "serialNumber: expected a string, found the number 123"),
        Case(style: .storeCard, edit: "formatVersion", value: .string("1"),
             expected: "formatVersion: expected an integer, found the string \"1\""),
        Case(style: .storeCard, edit: "storeCard.primaryFields.0.value", value: .object([:]),
             expected: "storeCard.primaryFields[0].value: expected a string, number or W3C date, found an object"),
        Case(style: .storeCard, edit: "barcodes", value: .object(["format": .string("PKBarcodeFormatQR")]),
             expected: "barcodes: expected an array, found an object"),
        Case(style: .storeCard, edit: "associatedStoreIdentifiers", value: .array([.string("123")]),
             expected: "associatedStoreIdentifiers[0]: expected an integer, found the string \"123\""),
        Case(style: .storeCard, edit: "userInfo", value: .string("gold"),
             expected: "userInfo: expected an object, found the string \"gold\""),
        Case(style: .eventTicket, edit: "semantics.artistIDs", value: .array([.number(42)]),
             expected: "semantics.artistIDs[0]: expected a string, found the number 42"),
        Case(style: .storeCard, edit: "serialNumber", value: nil, expected: "serialNumber: required key is missing"),
        Case(style: .storeCard, edit: "storeCard.primaryFields.0.key", value: nil,
             expected: "storeCard.primaryFields[0].key: required key is missing"),
        Case(style: .storeCard, edit: "backgroundColor", value: .string("red"),
             expected: "backgroundColor: expected a colour as rgb(r, g, b), #RRGGBB or #RGB, found the string \"red\""),
        Case(style: .boardingPass, edit: "boardingPass.transitType", value: .string("Plane"),
             expected: "boardingPass.transitType: expected one of \"PKTransitTypeAir\", \"PKTransitTypeBoat\", \"PKTransitTypeBus\", \"PKTransitTypeGeneric\", \"PKTransitTypeTrain\", found the string \"Plane\""),
        Case(style: .generic, edit: "beacons.0.major", value: .number(1.5),
             expected: "beacons[0].major: expected an integer, found the number 1.5"),
        Case(style: .storeCard, edit: "locations.0.latitude", value: .string("37.3"),
             expected: "locations[0].latitude: expected a number, found the string \"37.3\""),
        Case(style: .storeCard, edit: "voided", value: .string("true"),
             expected: "voided: expected a boolean, found the string \"true\""),
    ])
    func typeErrorsNameThePathAndWhatWasFound(_ test: Case) throws {
        let json = try Fixtures.edited(Fixtures.text(test.style), test.edit.split(separator: ".").map(String.init), to: test.value)
        let error = #expect(throws: PassDecodingError.self) { try Pass.decode(json) }
        #expect(error?.description == test.expected)
    }

    @Test(arguments: [
        ("expirationDate", "2025-12-09T13:00:00+0000"), ("expirationDate", "2025-12-09T13:00:00"),
        ("relevantDate", "2025-12-09 13:00:00Z"), ("relevantDates.0.date", "2025-12-09T13:00:00ZZ"),
        ("semantics.eventStartDate", "2025-12-09"), ("upcomingPassInformation.0.dateInformation.date", "tomorrow"),
    ])
    func datesWithoutAValidZoneAreRejectedEverywhere(edit: String, text: String) throws {
        let json = try Fixtures.edited(Fixtures.eventTicket, edit.split(separator: ".").map(String.init), to: .string(text))
        let error = #expect(throws: PassDecodingError.self) { try Pass.decode(json) }
        let expectedPath = edit.replacingOccurrences(of: ".0.", with: "[0].")
        #expect(error?.path == expectedPath)
        #expect(error?.message.contains("expected a W3C date with a time zone") == true)
    }

    @Test func malformedBytesReportTheOffset() {
        let error = #expect(throws: PassDecodingError.self) { try Pass.decode(Data("{\"formatVersion\": 1,}".utf8)) }
        #expect(error == .invalidJSON(offset: 20, message: "expected a string key"))
    }
}

@Suite struct EveryDecodingProblemTests {
    /// One run names every bad value, not just the first: a bad date does not hide a bad latitude
    /// or a missing key.
    @Test func everyBadValueIsReportedInOneRun() throws {
        var json = try Fixtures.edited(Fixtures.eventTicket, ["relevantDates", "0", "date"], to: .string("tomorrow"))
        json = Fixtures.edited(json, ["locations"], to: .array([.object(["latitude": .string("north"), "longitude": .number(1)])]))
        json = Fixtures.edited(json, ["voided"], to: .string("yes"))
        json = Fixtures.edited(json, ["serialNumber"], to: nil)
        let error = #expect(throws: PassDecodingError.self) { try Pass.decode(json) }
        let paths = Set(error?.problems.map(\.path) ?? [])
        #expect(paths == ["relevantDates[0].date", "locations[0].latitude", "voided", "serialNumber"])
        #expect(error?.description.split(separator: "\n").count == 4)
    }

    /// `decodeAll` keeps what decodes, so validation can still run on the rest.
    @Test func decodeAllKeepsTheRestAndRecordsTheProblems() throws {
        let json = try Fixtures.edited(Fixtures.storeCard, ["voided"], to: .string("yes"))
        let (pass, issues) = try Pass.decodeAll(json)
        #expect(issues.filter { $0.rule == PassDecodingError.issueRule }.map(\.path) == ["voided"])
        #expect(!pass.serialNumber.isEmpty)
    }
}
