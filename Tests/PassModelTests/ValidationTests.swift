import Foundation
import Testing
import PassModel

/// Every validation rule, each with a pass that breaks it and one that keeps it.
@Suite struct ValidationTests {
    struct Edit: Sendable {
        let keys: [String]
        let value: JSONValue?
        init(_ path: String, _ value: JSONValue?) {
            keys = path.split(separator: ".").map(String.init)
            self.value = value
        }
    }

    struct Rule: Sendable, CustomTestStringConvertible {
        let rule: String
        let path: String
        let style: PassStyle
        let breaks: [Edit]
        let keeps: [Edit]
        var severity: ValidationIssue.Severity = .error
        var testDescription: String { "\(rule) at \(path.isEmpty ? "root" : path)" }
    }

    private static let key = "MDkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDIgAC"
    private static func location(_ latitude: Double) -> JSONValue {
        .object(["latitude": .number(latitude), "longitude": .number(0)])
    }
    private static func field(_ key: String) -> JSONValue { .object(["key": .string(key), "value": .string("x")]) }
    private static func entry(_ id: String) -> JSONValue {
        .object(["type": .string("event"), "identifier": .string(id), "name": .string("Night")])
    }

    static let rules: [Rule] = [
        Rule(rule: "maxDistance", path: "maxDistance", style: .storeCard,
             breaks: [Edit("maxDistance", .number(-5))], keeps: [Edit("maxDistance", .number(0))]),
        Rule(rule: "formatVersion", path: "formatVersion", style: .storeCard,
             breaks: [Edit("formatVersion", .number(2))], keeps: [Edit("formatVersion", .number(1))]),
        Rule(rule: "passTypeIdentifier", path: "passTypeIdentifier", style: .storeCard,
             breaks: [Edit("passTypeIdentifier", .string("com.example.pass"))], keeps: [Edit("passTypeIdentifier", .string("pass.a"))]),
        Rule(rule: "teamIdentifier", path: "teamIdentifier", style: .storeCard,
             breaks: [Edit("teamIdentifier", .string("a1b2c3d4e5"))], keeps: [Edit("teamIdentifier", .string("ZZZZZ99999"))]),
        Rule(rule: "required", path: "serialNumber", style: .storeCard,
             breaks: [Edit("serialNumber", .string(""))], keeps: [Edit("serialNumber", .string("1"))]),
        Rule(rule: "style.exactlyOne", path: "storeCard", style: .storeCard,
             breaks: [Edit("coupon", .object([:]))], keeps: []),
        Rule(rule: "style.exactlyOne", path: "", style: .storeCard,
             breaks: [Edit("storeCard", nil)], keeps: []),
        Rule(rule: "posterGeneric.fallback", path: "posterGeneric", style: .boardingPass,
             breaks: [Edit("posterGeneric", .object([:]))], keeps: [Edit("posterGeneric", nil)]),
        Rule(rule: "transitType", path: "boardingPass.transitType", style: .boardingPass,
             breaks: [Edit("boardingPass.transitType", nil)], keeps: [Edit("boardingPass.transitType", .string("PKTransitTypeAir"))]),
        Rule(rule: "transitType", path: "coupon.transitType", style: .coupon,
             breaks: [Edit("coupon.transitType", .string("PKTransitTypeBus"))], keeps: []),
        Rule(rule: "fields.uniqueKeys", path: "storeCard.secondaryFields[0].key", style: .storeCard,
             breaks: [Edit("storeCard.secondaryFields.0.key", .string("balance"))],
             keeps: [Edit("storeCard.secondaryFields.0.key", .string("balance2"))]),
        Rule(rule: "webService.pairing", path: "authenticationToken", style: .storeCard,
             breaks: [Edit("authenticationToken", nil)], keeps: [Edit("authenticationToken", nil), Edit("webServiceURL", nil)]),
        Rule(rule: "webService.pairing", path: "webServiceURL", style: .storeCard,
             breaks: [Edit("webServiceURL", nil)], keeps: []),
        Rule(rule: "authenticationToken.length", path: "authenticationToken", style: .storeCard,
             breaks: [Edit("authenticationToken", .string("0123456789abcde"))],
             keeps: [Edit("authenticationToken", .string("0123456789abcdef"))]),
        Rule(rule: "webServiceURL.scheme", path: "webServiceURL", style: .storeCard,
             breaks: [Edit("webServiceURL", .string("ftp://passes.example.com"))], keeps: []),
        Rule(rule: "webServiceURL.scheme", path: "webServiceURL", style: .storeCard,
             breaks: [Edit("webServiceURL", .string("http://passes.example.com"))], keeps: [], severity: .warning),
        Rule(rule: "webServiceURL.version", path: "webServiceURL", style: .storeCard,
             breaks: [Edit("webServiceURL", .string("https://passes.example.com/v1/"))],
             keeps: [Edit("webServiceURL", .string("https://passes.example.com/v1beta"))]),
        Rule(rule: "locations.count", path: "locations", style: .storeCard,
             breaks: [Edit("locations", .array(Array(repeating: location(1), count: 11)))],
             keeps: [Edit("locations", .array(Array(repeating: location(1), count: 10)))]),
        Rule(rule: "location.latitude", path: "locations[0].latitude", style: .storeCard,
             breaks: [Edit("locations.0.latitude", .number(90.5))], keeps: [Edit("locations.0.latitude", .number(-90))]),
        Rule(rule: "location.longitude", path: "locations[0].longitude", style: .storeCard,
             breaks: [Edit("locations.0.longitude", .number(-181))], keeps: [Edit("locations.0.longitude", .number(180))]),
        Rule(rule: "beacon.major", path: "beacons[0].major", style: .generic,
             breaks: [Edit("beacons.0.major", .number(65_536))], keeps: [Edit("beacons.0.major", .number(0))]),
        Rule(rule: "beacon.minor", path: "beacons[0].minor", style: .generic,
             breaks: [Edit("beacons.0.minor", .number(-1))], keeps: [Edit("beacons.0.minor", .number(65_535))]),
        Rule(rule: "beacon.proximityUUID", path: "beacons[0].proximityUUID", style: .generic,
             breaks: [Edit("beacons.0.proximityUUID", .string("beacon-1"))], keeps: []),
        Rule(rule: "nfc.messageLength", path: "nfc.message", style: .storeCard,
             breaks: [Edit("nfc.message", .string(String(repeating: "é", count: 33)))],
             keeps: [Edit("nfc.message", .string(String(repeating: "e", count: 64)))]),
        Rule(rule: "nfc.encryptionPublicKey", path: "nfc.encryptionPublicKey", style: .storeCard,
             breaks: [Edit("nfc.encryptionPublicKey", .string("-----BEGIN PUBLIC KEY-----"))], keeps: []),
        Rule(rule: "appLaunchURL.storeIdentifiers", path: "appLaunchURL", style: .storeCard,
             breaks: [Edit("associatedStoreIdentifiers", nil)], keeps: [Edit("associatedStoreIdentifiers", nil), Edit("appLaunchURL", nil)],
             severity: .warning),  // Wallet ignores the key without an app: the pass installs
        Rule(rule: "barcode.messageEncoding", path: "barcodes[0].messageEncoding", style: .storeCard,
             breaks: [Edit("barcodes.0.messageEncoding", nil)], keeps: [Edit("barcodes.0.messageEncoding", .string("utf-8"))]),
        Rule(rule: "barcode.legacyFormat", path: "barcode.format", style: .generic,
             breaks: [Edit("barcode.format", .string("PKBarcodeFormatCode128"))], keeps: [Edit("barcode.format", .string("PKBarcodeFormatAztec"))]),
        Rule(rule: "field.changeMessage", path: "storeCard.primaryFields[0].changeMessage", style: .storeCard,
             breaks: [Edit("storeCard.primaryFields.0.changeMessage", .string("Balance changed"))], keeps: []),
        Rule(rule: "field.textAlignment", path: "storeCard.primaryFields[0].textAlignment", style: .storeCard,
             breaks: [Edit("storeCard.primaryFields.0.textAlignment", .string("PKTextAlignmentLeft"))],
             keeps: [Edit("storeCard.secondaryFields.0.textAlignment", .string("PKTextAlignmentLeft"))]),
        Rule(rule: "field.textAlignment", path: "boardingPass.backFields[0].textAlignment", style: .boardingPass,
             breaks: [Edit("boardingPass.backFields.0.textAlignment", .string("PKTextAlignmentRight"))], keeps: []),
        Rule(rule: "field.dataDetectorTypes", path: "storeCard.primaryFields[0].dataDetectorTypes", style: .storeCard,
             breaks: [Edit("storeCard.primaryFields.0.dataDetectorTypes", .array([]))], keeps: []),
        Rule(rule: "field.row", path: "storeCard.secondaryFields[0].row", style: .storeCard,
             breaks: [Edit("storeCard.secondaryFields.0.row", .number(1))], keeps: []),
        Rule(rule: "field.row", path: "eventTicket.auxiliaryFields[0].row", style: .eventTicket,
             breaks: [Edit("eventTicket.auxiliaryFields.0.row", .number(2))], keeps: [Edit("eventTicket.auxiliaryFields.0.row", .number(1))]),
        Rule(rule: "groupingIdentifier", path: "groupingIdentifier", style: .storeCard,
             breaks: [Edit("groupingIdentifier", .string("g"))], keeps: []),
        Rule(rule: "fields.count", path: "storeCard.headerFields", style: .storeCard,
             breaks: [Edit("storeCard.headerFields", .array([field("h1"), field("h2"), field("h3"), field("h4")]))],
             keeps: [Edit("storeCard.headerFields", .array([field("h1"), field("h2"), field("h3")]))], severity: .warning),
        Rule(rule: "fields.count", path: "coupon.auxiliaryFields", style: .coupon,
             breaks: [Edit("coupon.auxiliaryFields", .array([field("a1"), field("a2"), field("a3"), field("a4")]))],
             keeps: [Edit("coupon.auxiliaryFields", .array([field("a1"), field("a2"), field("a3")]))], severity: .warning),
        Rule(rule: "fields.count", path: "generic.footerFields", style: .generic,
             breaks: [Edit("generic.footerFields", .array([field("f1")]))], keeps: [], severity: .warning),
        Rule(rule: "field.currencyCode", path: "storeCard.secondaryFields[0].currencyCode", style: .storeCard,
             breaks: [Edit("storeCard.secondaryFields.0.currencyCode", .string("USD"))],
             keeps: [Edit("storeCard.secondaryFields.0.currencyCode", .string("USD")), Edit("storeCard.secondaryFields.0.value", .number(5))]),
        Rule(rule: "field.numberStyle", path: "storeCard.secondaryFields[0].numberStyle", style: .storeCard,
             breaks: [Edit("storeCard.secondaryFields.0.numberStyle", .string("PKNumberStylePercent"))],
             keeps: [Edit("storeCard.secondaryFields.0.numberStyle", .string("PKNumberStylePercent")), Edit("storeCard.secondaryFields.0.value", .number(0.5))]),
        Rule(rule: "field.dateStyle", path: "storeCard.secondaryFields[0].timeStyle", style: .storeCard,
             breaks: [Edit("storeCard.secondaryFields.0.timeStyle", .string("PKDateStyleShort"))],
             keeps: [Edit("storeCard.secondaryFields.0.timeStyle", .string("PKDateStyleShort")), Edit("storeCard.secondaryFields.0.value", .string("2026-01-01T10:00Z"))]),
        Rule(rule: "posterEventTicket.semantics", path: "semantics.venueName", style: .eventTicket,
             breaks: [Edit("semantics.venueName", nil)], keeps: [Edit("semantics.venueName", .string("Hall"))]),
        Rule(rule: "posterEventTicket.semantics", path: "semantics.performerNames", style: .eventTicket,
             breaks: [Edit("semantics.performerNames", nil)], keeps: [Edit("semantics.performerNames", nil), Edit("semantics.eventType", .string("PKEventTypeMovie"))]),
        Rule(rule: "posterEventTicket.nfc", path: "nfc.requiresAuthentication", style: .eventTicket,
             breaks: [Edit("nfc.requiresAuthentication", .bool(false))], keeps: [Edit("preferredStyleSchemes", .array([.string("eventTicket")])), Edit("nfc", nil)]),
        Rule(rule: "posterEventTicket.nfc", path: "nfc", style: .eventTicket,
             breaks: [Edit("nfc", nil)], keeps: []),
        Rule(rule: "semanticBoardingPass.semantics", path: "semantics.departureLocationTimeZone", style: .boardingPass,
             breaks: [Edit("semantics.departureLocationTimeZone", nil)],
             keeps: [Edit("semantics.departureLocationTimeZone", nil), Edit("semantics.departureAirportTimeZone", .string("America/New_York"))]),
        Rule(rule: "semanticBoardingPass.semantics", path: "semantics.flightNumber", style: .boardingPass,
             breaks: [Edit("semantics.flightNumber", nil)], keeps: []),
        Rule(rule: "semanticBoardingPass.recommended", path: "semantics.departureCityName", style: .boardingPass,
             breaks: [Edit("semantics.departureCityName", nil)], keeps: [], severity: .warning),
        Rule(rule: "semanticBoardingPass.transitType", path: "boardingPass.transitType", style: .boardingPass,
             breaks: [Edit("boardingPass.transitType", .string("PKTransitTypeTrain"))],
             keeps: [Edit("boardingPass.transitType", .string("PKTransitTypeTrain")), Edit("preferredStyleSchemes", nil)]),
        Rule(rule: "preferredStyleSchemes.style", path: "preferredStyleSchemes[0]", style: .storeCard,
             breaks: [Edit("preferredStyleSchemes", .array([.string("eventTicket")]))], keeps: []),
        Rule(rule: "featuredActions.count", path: "featuredActions", style: .generic,
             breaks: [Edit("featuredActions", .array(Array(repeating: .object(["identifier": .string("a"), "type": .string("call"), "url": .string("tel:1")]), count: 3)))],
             keeps: [Edit("featuredActions", .array(Array(repeating: .object(["identifier": .string("a"), "type": .string("call"), "url": .string("tel:1")]), count: 2)))]),
        Rule(rule: "upcomingPassInformation.required", path: "upcomingPassInformation[0].name", style: .eventTicket,
             breaks: [Edit("upcomingPassInformation.0.name", nil)], keeps: []),
        Rule(rule: "upcomingPassInformation.uniqueIdentifiers", path: "upcomingPassInformation[1].identifier", style: .eventTicket,
             breaks: [Edit("upcomingPassInformation", .array([entry("n1"), entry("n1")]))],
             keeps: [Edit("upcomingPassInformation", .array([entry("n1"), entry("n2")]))]),
        Rule(rule: "relevantDates.interval", path: "relevantDates[0].endDate", style: .boardingPass,
             breaks: [Edit("relevantDates.0.endDate", nil)], keeps: [Edit("relevantDates.0.endDate", nil), Edit("relevantDates.0.startDate", nil),
                                                                  Edit("relevantDates.0.date", .string("2026-07-01T08:00Z"))]),
    ]

    private func issues(_ style: PassStyle, _ edits: [Edit]) throws -> [ValidationIssue] {
        var json = try Fixtures.json(Fixtures.text(style))
        for edit in edits { json = Fixtures.edited(json, edit.keys, to: edit.value) }
        return try Pass.decode(json).0.validate()
    }

    @Test(arguments: rules)
    func ruleIsReportedWhenBrokenAndSilentWhenKept(_ rule: Rule) throws {
        let broken = try issues(rule.style, rule.breaks)
        let match = broken.first { $0.rule == rule.rule && $0.path == rule.path }
        #expect(match != nil, "expected \(rule.rule) at \(rule.path), got \(broken)")
        #expect(match?.severity == rule.severity)
        let kept = try issues(rule.style, rule.keeps)
        #expect(!kept.contains { $0.rule == rule.rule }, "\(kept)")
    }

    @Test func issuesDescribeThemselves() throws {
        let issue = try #require(try issues(.storeCard, [Edit("formatVersion", .number(2))]).first)
        #expect(issue.description == "error: formatVersion: formatVersion must be 1, found 2 [formatVersion]")
    }
}
